// Bitwarden: Vault → Tools → Export vault, file format .csv or .json (not "encrypted"). Both come from
// @bitwarden/vault-export-core (individual-vault-export.service.ts):
// - CSV: papaparse.unparse of `folder,favorite,type,name,notes,fields,reprompt,login_uri,login_username,
//   login_password,login_totp` (older exports: no reprompt); only logins (type "login") and secure notes ("note");
//   several URIs are joined with commas in login_uri; quoting only where needed, CRLF line ends.
// - JSON: `{ "encrypted": false, "folders": [...], "items": [...] }`, an item has `type` 1 login, 2 secure note,
//   3 card, 4 identity, 5 SSH key, and for logins `login: { uris: [{ match, uri }], username, password, totp }`.
//   An account-encrypted export has `"encrypted": true` and encrypted strings; a password-protected one has
//   `"passwordProtected": true` and one encrypted `data` string. Neither can be read here.
import { readCsv } from './csv.js';
import {
  ExportFileError,
  noteText,
  trimmed,
  type ImportedLogin,
  type ParsedExport,
  type SkippedEntry,
} from './export-types.js';
import { asArray, asObject, asText, parseJson } from './json.js';

const WHAT = 'Bitwarden export';

export function parseBitwarden(text: string): ParsedExport {
  return /^\s*[[{]/.test(text) ? parseBitwardenJson(text) : parseBitwardenCsv(text);
}

/** The login's address: the first http(s) one among several (or a bare host), else the first one. */
function pickUri(uris: readonly string[]): string | undefined {
  const list = uris.map((u) => u.trim()).filter((u) => u !== '');
  return list.find((u) => /^https?:\/\//i.test(u)) ?? list.find((u) => !/^[a-z][a-z0-9+.-]*:\/\//i.test(u)) ?? list[0];
}

const TYPE_NAMES: Record<string, string> = {
  note: 'a secure note',
  card: 'a card',
  identity: 'an identity',
  sshkey: 'an SSH key',
  '2': 'a secure note',
  '3': 'a card',
  '4': 'an identity',
  '5': 'an SSH key',
};

function notALogin(type: string): string {
  return `${TYPE_NAMES[type.toLowerCase()] ?? `a Bitwarden item of type "${type.slice(0, 20)}"`}, not a login`;
}

function parseBitwardenCsv(text: string): ParsedExport {
  const logins: ImportedLogin[] = [];
  const skipped: SkippedEntry[] = [];
  for (const row of readCsv(text, 'bitwarden')) {
    const title = trimmed(row.get('name'));
    const type = row.get('type').trim();
    if (type.toLowerCase() !== 'login') {
      skipped.push({ at: row.at, title, reason: notALogin(type) });
      continue;
    }
    logins.push({
      at: row.at,
      title,
      // papaparse wrote the URI list with Array#toString: "https://a.example.com,androidapp://com.example"
      url: pickUri(row.get('login_uri').split(',')),
      username: row.get('login_username'),
      password: row.get('login_password'),
      totpSecret: trimmed(row.get('login_totp')),
      notes: noteText(row.get('notes')),
    });
  }
  return { logins, skipped };
}

function parseBitwardenJson(text: string): ParsedExport {
  const root = asObject(parseJson(text, WHAT), WHAT, '$');
  if (root.encrypted === true || root.passwordProtected === true) {
    throw new ExportFileError(
      'This Bitwarden export is encrypted' +
        (root.passwordProtected === true ? ' with a password' : ' with the account key') +
        ' and cannot be read here. In Bitwarden choose Tools → Export vault, file format ".json" or ".csv" ' +
        '(unencrypted, not ".json (Encrypted)"), and import that file; delete it afterwards.',
    );
  }
  if (!Array.isArray(root.items))
    throw new ExportFileError('$.items: expected the list of items (this is not a Bitwarden JSON export)');
  const logins: ImportedLogin[] = [];
  const skipped: SkippedEntry[] = [];
  root.items.forEach((raw, i) => {
    const path = `$.items[${i}]`;
    const item = asObject(raw, WHAT, path);
    const at = `item ${i + 1}`;
    const title = trimmed(asText(item.name, WHAT, `${path}.name`));
    const type = asText(item.type, WHAT, `${path}.type`) ?? '';
    if (type !== '1') {
      skipped.push({ at, title, reason: notALogin(type) });
      return;
    }
    const login = item.login === undefined || item.login === null ? {} : asObject(item.login, WHAT, `${path}.login`);
    const uris = asArray(login.uris, WHAT, `${path}.login.uris`).map(
      (u, j) => asText(asObject(u, WHAT, `${path}.login.uris[${j}]`).uri, WHAT, `${path}.login.uris[${j}].uri`) ?? '',
    );
    logins.push({
      at,
      title,
      url: pickUri(uris),
      username: asText(login.username, WHAT, `${path}.login.username`) ?? '',
      password: asText(login.password, WHAT, `${path}.login.password`) ?? '',
      totpSecret: trimmed(asText(login.totp, WHAT, `${path}.login.totp`)),
      notes: noteText(asText(item.notes, WHAT, `${path}.notes`)),
    });
  });
  return { logins, skipped };
}
