// Chrome / Edge / Brave (any Chromium browser): Settings → Passwords → Export passwords.
// Header `name,url,username,password,note` (Chromium password_csv_writer.cc; older versions have no `note`), fields
// quoted only when they hold a comma, quote or line break, CRLF line ends on Windows. `url` is the page's full URL
// (https://example.com/login) or, for an Android app's login, `android://<hash>@<package>/`.
import { readCsv } from './csv.js';
import { noteText, trimmed, type ParsedExport } from './export-types.js';

export function parseChromeCsv(text: string): ParsedExport {
  const logins = readCsv(text, 'chrome').map((row) => ({
    at: row.at,
    title: trimmed(row.get('name')),
    url: trimmed(row.get('url')),
    username: row.get('username'),
    password: row.get('password'),
    notes: noteText(row.get('note')),
  }));
  return { logins, skipped: [] };
}
