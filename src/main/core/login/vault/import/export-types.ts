// The shapes every export parser produces (re-exported by export-formats.ts, the module the rest of the app imports).
// Kept apart from export-formats.ts so that the format parsers can use them without an import cycle.

/** One login read from an export file. Secrets are plain strings here; never log them. */
export interface ImportedLogin {
  /** Where in the file, for messages: "line 7" (CSV: the physical line the record starts on) or "item 3" (JSON). */
  at: string;
  /** The entry's name/title when the format has one. */
  title?: string;
  /** As written in the file (may be empty or not http). */
  url?: string;
  username: string;
  password: string;
  /** otpauth:// URI or base32, as in the file. */
  totpSecret?: string;
  notes?: string;
}

/** An entry that is not a login at all (card, note, identity…). */
export interface SkippedEntry {
  at: string;
  title?: string;
  reason: string;
}

export interface ParsedExport {
  logins: ImportedLogin[];
  skipped: SkippedEntry[];
}

/**
 * A file that is not a valid export of that format. The message names the line and column (CSV, JSON text) or the
 * JSON path; it never quotes a value of the file (passwords, TOTP secrets and notes must not reach logs or answers).
 */
export class ExportFileError extends Error {
  constructor(
    message: string,
    readonly line?: number,
    readonly column?: number,
  ) {
    super(message);
    this.name = 'ExportFileError';
  }
}

/** `value` when it is a non-empty string after trimming, else undefined (the value itself is returned untrimmed). */
export function nonBlank(value: string | undefined | null): string | undefined {
  return typeof value === 'string' && value.trim() !== '' ? value : undefined;
}

/** Notes: undefined when blank, line ends made \n (a Windows export has \r\n inside quoted fields). */
export function noteText(value: string | undefined | null): string | undefined {
  return nonBlank(value)?.replace(/\r\n?/g, '\n');
}

/** The trimmed value when non-empty, else undefined. */
export function trimmed(value: string | undefined | null): string | undefined {
  return typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined;
}
