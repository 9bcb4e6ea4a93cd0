// Firefox: about:logins → ⋯ → Export Logins. Header (every name and value quoted, CRLF between records, no newline
// after the last one; Firefox LoginExport.sys.mjs):
// "url","username","password","httpRealm","formActionOrigin","guid","timeCreated","timeLastUsed","timePasswordChanged"
// `url` is the login's origin (https://example.com), or chrome://FirefoxAccounts for the Firefox account itself;
// `httpRealm` is set for HTTP-auth logins. There is no title and no notes column.
import { readCsv } from './csv.js';
import { trimmed, type ParsedExport } from './export-types.js';

export function parseFirefoxCsv(text: string): ParsedExport {
  const logins = readCsv(text, 'firefox').map((row) => ({
    at: row.at,
    url: trimmed(row.get('url')),
    username: row.get('username'),
    password: row.get('password'),
  }));
  return { logins, skipped: [] };
}
