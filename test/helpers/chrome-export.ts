// Large browser exports for the import tests and bench: a Chrome / Edge CSV of many sites, each with its own
// username and random password, and what each saved login made from it must open.
import crypto from 'node:crypto';

export interface ExportRow {
  /** The label the import gives it (the CSV's name). */
  name: string;
  url: string;
  username: string;
  password: string;
}

/** `count` sites numbered from `from` (site<n>.<domain>), each with a fresh random password. */
export function exportRows(from: number, count: number, domain = 'example.com'): ExportRow[] {
  return Array.from({ length: count }, (_, k) => {
    const n = from + k;
    return {
      name: `Site ${n}`,
      url: `https://site${n}.${domain}/login`,
      username: `user${n}@${domain}`,
      password: crypto.randomBytes(12).toString('base64url'),
    };
  });
}

/** The rows as Chrome writes its password export (name,url,username,password,note). */
export function chromeCsv(rows: readonly ExportRow[]): string {
  const lines = rows.map((r) => `${r.name},${r.url},${r.username},${r.password},`);
  return `name,url,username,password,note\n${lines.join('\n')}\n`;
}

/** The same rows with new passwords: imported over the first, each merges into the saved login it made. */
export function withNewPasswords(rows: readonly ExportRow[]): ExportRow[] {
  return rows.map((r) => ({ ...r, password: crypto.randomBytes(12).toString('base64url') }));
}
