// Safari (Settings → Passwords → ⋯ → Export All Passwords) and the macOS Passwords app (File → Export All Passwords):
// header `Title,URL,Username,Password,Notes,OTPAuth` (Safari 15-16: no Notes). The title is usually
// "example.com (user@example.com)"; OTPAuth holds an otpauth://totp?secret=… URI when the login has a code.
import { readCsv } from './csv.js';
import { noteText, trimmed, type ParsedExport } from './export-types.js';

export function parseSafariCsv(text: string): ParsedExport {
  const logins = readCsv(text, 'safari').map((row) => ({
    at: row.at,
    title: trimmed(row.get('Title')),
    url: trimmed(row.get('URL')),
    username: row.get('Username'),
    password: row.get('Password'),
    totpSecret: trimmed(row.get('OTPAuth')),
    notes: noteText(row.get('Notes')),
  }));
  return { logins, skipped: [] };
}
