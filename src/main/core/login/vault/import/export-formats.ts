// Reading the logins out of a password manager's or browser's export file: pure parsing, no database and no
// secret store. Each format family has its own file (its header comment says how the tool writes it today);
// import-plan.ts decides what to do with each login against the saved ones.
import { IMPORT_FORMATS } from '../../../../../shared/credentials.schema.js';
import { parseBitwarden } from './bitwarden.js';
import { parseChromeCsv } from './chrome.js';
import { ExportFileError, type ParsedExport } from './export-types.js';
import { parseFirefoxCsv } from './firefox.js';
import { parseKeepassxcCsv } from './keepassxc.js';
import { parseOnePasswordCsv, parseOnePux, parseOnePuxData } from './onepassword.js';
import { parseSafariCsv } from './safari.js';

export { ExportFileError, type ImportedLogin, type ParsedExport, type SkippedEntry } from './export-types.js';

// The formats are declared once, with the import request's schema.
export { IMPORT_FORMATS };
export type ImportFormat = (typeof IMPORT_FORMATS)[number];

const TEXT_PARSERS: Record<ImportFormat, (text: string) => ParsedExport> = {
  chrome: parseChromeCsv,
  firefox: parseFirefoxCsv,
  safari: parseSafariCsv,
  bitwarden: parseBitwarden,
  '1password': (text) => (/^\s*[[{]/.test(text) ? parseOnePuxData(text) : parseOnePasswordCsv(text)),
  keepassxc: parseKeepassxcCsv,
};

/** The 4 bytes every ZIP file (a .1pux) starts with. */
const ZIP_MAGIC = [0x50, 0x4b, 0x03, 0x04];

function isZip(bytes: Uint8Array): boolean {
  return ZIP_MAGIC.every((b, i) => bytes[i] === b);
}

/**
 * Reads an export file. `content`: the file as read (Uint8Array) or its text. For '1password' both the CSV and the
 * 1PUX (a ZIP, recognised by its first bytes; also its export.data JSON on its own). Throws ExportFileError when the
 * file is not a valid export of that format; its message never contains a value from the file.
 */
export function parseExport(format: ImportFormat, content: Uint8Array | string): ParsedExport {
  const parser = TEXT_PARSERS[format];
  if (parser === undefined) throw new ExportFileError(`unknown export format "${String(format).slice(0, 20)}"`);
  if (typeof content !== 'string' && isZip(content)) {
    if (format === '1password') return parseOnePux(content);
    throw new ExportFileError(`This is a ZIP file, not a ${format} export (a CSV or JSON file). Unzip it first.`);
  }
  const text = typeof content === 'string' ? content.replace(/^\uFEFF/, '') : decodeText(content);
  if (text.startsWith('PK\u0003\u0004'))
    throw new ExportFileError(
      format === '1password'
        ? 'This .1pux file was read as text; pass the file as bytes (a Uint8Array).'
        : `This is a ZIP file, not a ${format} export (a CSV or JSON file). Unzip it first.`,
    );
  if (text.trim() === '') throw new ExportFileError('line 1: the file is empty', 1);
  return parser(text);
}

/** UTF-8 (with or without a byte-order mark), or UTF-16 when the file starts with its byte-order mark. */
export function decodeText(bytes: Uint8Array): string {
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return new TextDecoder('utf-16le').decode(bytes);
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return new TextDecoder('utf-16be').decode(bytes);
  return new TextDecoder('utf-8').decode(bytes); // drops a UTF-8 BOM (ignoreBOM is false)
}
