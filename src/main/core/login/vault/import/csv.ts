// The CSV side of the export parsers: the header each tool writes, and a reader that gives each record with the
// physical line it starts on. csv-parse does the parsing; its errors are turned into ExportFileErrors that name a
// line and a column but never quote the file (csv-parse's own messages can contain a field's value).
import { createRequire } from 'node:module';
import type * as CsvParseSync from 'csv-parse/sync';
import { ExportFileError } from './export-types.js';

/**
 * csv-parse is required by the first CSV read, not at start (a server that imports no export never needs it).
 * readCsv and the parsers above it are synchronous, so this is a require (csv-parse's CommonJS entry), not an
 * import(); the parsers import nothing of the core (core-deps.mjs), so not the shared lazyRequire either.
 */
const requireHere = createRequire(import.meta.url);
let csvParse: typeof CsvParseSync | undefined;
const csvParser = () => (csvParse ??= requireHere('csv-parse/sync') as typeof CsvParseSync);

export type CsvFormat = 'chrome' | 'firefox' | 'safari' | 'bitwarden' | '1password' | 'keepassxc';

interface CsvHeader {
  label: string;
  /** Columns that must be present (compared case-insensitively); the others are read when present. */
  required: readonly string[];
  optional: readonly string[];
}

/** The header of each tool's CSV export as it writes it today (sources: test/fixtures/password-exports/README.md). */
export const CSV_HEADERS: Record<CsvFormat, CsvHeader> = {
  // Chromium password_csv_writer.cc (Chrome, Edge, Brave…); exports before the notes field have no "note".
  chrome: { label: 'Chrome/Edge', required: ['url', 'username', 'password'], optional: ['name', 'note'] },
  // Firefox LoginExport.sys.mjs (about:logins → Export Logins).
  firefox: {
    label: 'Firefox',
    required: ['url', 'username', 'password'],
    optional: ['httpRealm', 'formActionOrigin', 'guid', 'timeCreated', 'timeLastUsed', 'timePasswordChanged'],
  },
  // Safari 15-16: Title,URL,Username,Password,OTPAuth; Safari 17+ and the Passwords app add Notes before OTPAuth.
  safari: {
    label: 'Safari/Passwords',
    required: ['Title', 'URL', 'Username', 'Password'],
    optional: ['Notes', 'OTPAuth'],
  },
  // Bitwarden individual vault CSV (papaparse.unparse of these keys); older exports have no "reprompt".
  bitwarden: {
    label: 'Bitwarden',
    required: ['type', 'name', 'login_uri', 'login_username', 'login_password'],
    optional: ['folder', 'favorite', 'notes', 'fields', 'reprompt', 'login_totp', 'collections'],
  },
  // 1Password 8 (File → Export → CSV).
  '1password': {
    label: '1Password',
    required: ['Title', 'Url', 'Username', 'Password'],
    optional: ['OTPAuth', 'Favorite', 'Archived', 'Tags', 'Notes'],
  },
  // KeePassXC 2.7 CsvExporter.cpp (every field quoted); 2.6 and older stop after Notes.
  keepassxc: {
    label: 'KeePassXC',
    required: ['Title', 'Username', 'Password', 'URL'],
    optional: ['Group', 'Notes', 'TOTP', 'Icon', 'Last Modified', 'Created'],
  },
};

/** Column names any supported tool writes: only these are repeated in an error (a data row must not be). */
const KNOWN_COLUMNS = new Set(
  Object.values(CSV_HEADERS).flatMap((h) => [...h.required, ...h.optional].map((c) => c.toLowerCase())),
);

export interface CsvRow {
  /** The physical line (1-based) the record starts on. */
  line: number;
  /** "line N" */
  at: string;
  /** The field under `column` (one of the format's columns, any case), '' when the file has no such column. */
  get(column: string): string;
}

/** Reads a CSV export of `format`: the header is checked, records whose fields are all empty are left out. */
export function readCsv(text: string, format: CsvFormat): CsvRow[] {
  const spec = CSV_HEADERS[format];
  const { parse } = csvParser(); // outside the try: a failed require is not a fault of the file
  const buf = Buffer.from(text, 'utf8');
  const lines = new LineIndex(buf);
  const ends: number[] = [];
  let width: number | undefined;
  let records: string[][];
  try {
    records = parse(buf, {
      bom: true,
      skip_empty_lines: true,
      on_record: (record: string[], info) => {
        width ??= record.length;
        ends.push(info.bytes);
        return record;
      },
    });
  } catch (err) {
    throw csvError(err, lines.lineOf(recordStart(buf, ends.length ? ends[ends.length - 1] : 0)), width);
  }
  if (records.length === 0) throw new ExportFileError(`line 1: the file is empty, not a ${spec.label} export`, 1);

  const header = records[0].map((name) => name.trim());
  const index = new Map<string, number>();
  header.forEach((name, i) => {
    if (!index.has(name.toLowerCase())) index.set(name.toLowerCase(), i);
  });
  const missing = spec.required.filter((c) => !index.has(c.toLowerCase()));
  if (missing.length > 0) throw headerError(spec, header, missing, lines.lineOf(recordStart(buf, 0)));

  const rows: CsvRow[] = [];
  for (let i = 1; i < records.length; i++) {
    const record = records[i];
    if (record.every((field) => field === '')) continue;
    const line = lines.lineOf(recordStart(buf, ends[i - 1]));
    rows.push({
      line,
      at: `line ${line}`,
      get: (column) => {
        const at = index.get(column.toLowerCase());
        return at === undefined ? '' : (record[at] ?? '');
      },
    });
  }
  return rows;
}

/** Where the record after the one ending at byte `end` starts: past the empty lines that csv-parse skips. */
function recordStart(buf: Buffer, end: number): number {
  let at = end;
  while (at < buf.length && (buf[at] === 0x0a || buf[at] === 0x0d)) at++;
  return at;
}

/** Byte offset → physical line (1-based); \n, \r\n and a lone \r each end a line. */
class LineIndex {
  private readonly starts: number[] = [0];
  constructor(buf: Buffer) {
    for (let i = 0; i < buf.length; i++) {
      if (buf[i] === 0x0a || (buf[i] === 0x0d && buf[i + 1] !== 0x0a)) this.starts.push(i + 1);
    }
  }
  lineOf(offset: number): number {
    let lo = 0;
    let hi = this.starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (this.starts[mid] <= offset) lo = mid;
      else hi = mid - 1;
    }
    return lo + 1;
  }
}

interface CsvParseError {
  code?: string;
  column?: number | string | null;
  record?: unknown[];
}

/** csv-parse's error as an ExportFileError: `line` is where the faulty record starts, `column` the 1-based field. */
function csvError(err: unknown, line: number, width: number | undefined): ExportFileError {
  const e = (typeof err === 'object' && err !== null ? err : {}) as CsvParseError;
  const field = typeof e.column === 'number' ? e.column + 1 : undefined;
  const where = (column: number | undefined) =>
    column === undefined ? `line ${line}` : `line ${line}, column ${column}`;
  switch (e.code) {
    case 'CSV_QUOTE_NOT_CLOSED':
      return new ExportFileError(
        `${where(field)}: a quoted field is never closed (its closing " is missing), so the rest of the file cannot be read`,
        line,
        field,
      );
    case 'CSV_INVALID_CLOSING_QUOTE':
      return new ExportFileError(`${where(field)}: a quoted field has text after its closing quote`, line, field);
    case 'INVALID_OPENING_QUOTE':
      return new ExportFileError(
        `${where(field)}: a field has a quote (") inside it but does not start with one`,
        line,
        field,
      );
    case 'CSV_RECORD_INCONSISTENT_FIELDS_LENGTH': {
      const found = Array.isArray(e.record) ? e.record.length : undefined;
      // the first field too many, or the first one missing
      const column = found !== undefined && width !== undefined ? Math.min(found, width) + 1 : undefined;
      return new ExportFileError(
        `${where(column)}: this record has ${found ?? 'a different number of'} fields, the header ${width ?? 'a different number'}`,
        line,
        column,
      );
    }
    default:
      return new ExportFileError(`${where(field)}: this is not a valid CSV file`, line, field);
  }
}

function headerError(spec: CsvHeader, header: string[], missing: string[], line: number): ExportFileError {
  const known = header.filter((name) => KNOWN_COLUMNS.has(name.toLowerCase()));
  const others = header.length - known.length;
  const found =
    (known.length > 0 ? known.join(', ') : 'none of them') +
    (others > 0 ? ` (and ${others} other column${others === 1 ? '' : 's'})` : '');
  const names = new Set(header.map((name) => name.toLowerCase()));
  const looksLike = Object.values(CSV_HEADERS).find(
    (h) => h !== spec && h.required.every((c) => names.has(c.toLowerCase())),
  );
  return new ExportFileError(
    `line ${line}: this is not a ${spec.label} export: its header should have the columns ` +
      `${spec.required.join(', ')} (missing: ${missing.join(', ')}); found: ${found}.` +
      (looksLike ? ` It looks like a ${looksLike.label} export.` : ''),
    line,
  );
}
