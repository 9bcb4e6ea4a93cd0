// KeePassXC: Database → Export → CSV file. Header (KeePassXC 2.7 CsvExporter.cpp, every name and value quoted,
// LF line ends): "Group","Title","Username","Password","URL","Notes","TOTP","Icon","Last Modified","Created"
// (2.6 and older end after Notes). Group is the path from the root ("Root/Social"); TOTP is an otpauth:// URI.
// The recycle bin is exported like any group: its entries are skipped.
import { readCsv } from './csv.js';
import { noteText, trimmed, type ImportedLogin, type ParsedExport, type SkippedEntry } from './export-types.js';

/** "Root/Recycle Bin", "Passwords/Recycle Bin/Old": the English name KeePassXC gives the bin, under the root group. */
const RECYCLE_BIN = /^[^/]*\/Recycle Bin(\/|$)/;

export function parseKeepassxcCsv(text: string): ParsedExport {
  const logins: ImportedLogin[] = [];
  const skipped: SkippedEntry[] = [];
  for (const row of readCsv(text, 'keepassxc')) {
    const title = trimmed(row.get('Title'));
    if (RECYCLE_BIN.test(row.get('Group'))) {
      skipped.push({ at: row.at, title, reason: 'in the KeePassXC recycle bin' });
      continue;
    }
    logins.push({
      at: row.at,
      title,
      url: trimmed(row.get('URL')),
      username: row.get('Username'),
      password: row.get('Password'),
      totpSecret: trimmed(row.get('TOTP')),
      notes: noteText(row.get('Notes')),
    });
  }
  return { logins, skipped };
}
