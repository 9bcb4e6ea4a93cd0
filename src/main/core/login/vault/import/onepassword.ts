// 1Password 8: File → Export → account, then
// - CSV: header `Title,Url,Username,Password,OTPAuth,Favorite,Archived,Tags,Notes`, values quoted; only Login and
//   Password items are written (no category column, so there is nothing to skip);
// - 1PUX (1Password Unencrypted Export, support.1password.com/1pux-format): a ZIP with export.attributes,
//   export.data (JSON: accounts[].vaults[].items[]) and files/ (attachments, not read here). An item has
//   categoryUuid ("001" Login, "005" Password, the rest not logins), overview.title, overview.url and
//   overview.urls[{label,url}], details.loginFields[{designation: "username"|"password", value}], details.password
//   (Password items), details.sections[].fields[].value.totp (otpauth:// URI or a bare secret), details.notesPlain,
//   state "active"|"archived". Early 1PUX files wrap each item as { item: {...} }; that form is read too.
import { unzipSync } from 'fflate';
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

const WHAT = '1PUX export.data';

export function parseOnePasswordCsv(text: string): ParsedExport {
  const logins = readCsv(text, '1password').map((row) => ({
    at: row.at,
    title: trimmed(row.get('Title')),
    url: trimmed(row.get('Url')),
    username: row.get('Username'),
    password: row.get('Password'),
    totpSecret: trimmed(row.get('OTPAuth')),
    notes: noteText(row.get('Notes')),
  }));
  return { logins, skipped: [] };
}

/** A .1pux file (the ZIP's bytes). */
export function parseOnePux(zip: Uint8Array): ParsedExport {
  let files: Record<string, Uint8Array>;
  try {
    files = unzipSync(zip, { filter: (file) => file.name === 'export.data' || file.name.endsWith('/export.data') });
  } catch {
    throw new ExportFileError(
      'This .1pux file is not a readable ZIP archive (is it complete?). Export it again from 1Password.',
    );
  }
  const name = Object.keys(files).sort((a, b) => a.length - b.length)[0];
  if (name === undefined)
    throw new ExportFileError('This ZIP file has no export.data, so it is not a 1Password .1pux export.');
  return parseOnePuxData(new TextDecoder().decode(files[name]));
}

const CATEGORY_NAMES: Record<string, string> = {
  '002': 'a credit card',
  '003': 'a secure note',
  '004': 'an identity',
  '006': 'a document',
  '100': 'a software license',
  '101': 'a bank account',
  '102': 'a database',
  '103': "a driver's license",
  '104': 'an outdoor license',
  '105': 'a membership',
  '106': 'a passport',
  '107': 'a rewards program',
  '108': 'a social security number',
  '109': 'a wireless router',
  '110': 'a server',
  '111': 'an email account',
  '112': 'an API credential',
  '113': 'a medical record',
  '114': 'an SSH key',
};

/** The export.data JSON of a 1PUX file (also accepted on its own, when someone unzipped the export). */
export function parseOnePuxData(text: string): ParsedExport {
  const root = asObject(parseJson(text.replace(/^\uFEFF/, ''), WHAT), WHAT, '$');
  if (!Array.isArray(root.accounts))
    throw new ExportFileError('$.accounts: expected the list of accounts (this is not a 1PUX export.data)');
  const logins: ImportedLogin[] = [];
  const skipped: SkippedEntry[] = [];
  let n = 0;
  root.accounts.forEach((rawAccount, a) => {
    const account = asObject(rawAccount, WHAT, `$.accounts[${a}]`);
    asArray(account.vaults, WHAT, `$.accounts[${a}].vaults`).forEach((rawVault, v) => {
      const vaultPath = `$.accounts[${a}].vaults[${v}]`;
      const vault = asObject(rawVault, WHAT, vaultPath);
      asArray(vault.items, WHAT, `${vaultPath}.items`).forEach((rawItem, i) => {
        n++;
        const path = `${vaultPath}.items[${i}]`;
        let item = asObject(rawItem, WHAT, path);
        if (item.categoryUuid === undefined && typeof item.item === 'object' && item.item !== null)
          item = asObject(item.item, WHAT, `${path}.item`);
        readItem(item, path, `item ${n}`, logins, skipped);
      });
    });
  });
  return { logins, skipped };
}

function readItem(
  item: Record<string, unknown>,
  path: string,
  at: string,
  logins: ImportedLogin[],
  skipped: SkippedEntry[],
) {
  const overview = item.overview == null ? {} : asObject(item.overview, WHAT, `${path}.overview`);
  const details = item.details == null ? {} : asObject(item.details, WHAT, `${path}.details`);
  const title = trimmed(asText(overview.title, WHAT, `${path}.overview.title`));
  const category = asText(item.categoryUuid, WHAT, `${path}.categoryUuid`) ?? '';
  if (item.trashed === true || item.state === 'deleted' || item.state === 'trashed') {
    skipped.push({ at, title, reason: 'in the 1Password trash' });
    return;
  }
  if (category !== '001' && category !== '005') {
    const name = CATEGORY_NAMES[category] ?? `a 1Password item of category ${category.slice(0, 10) || 'unknown'}`;
    skipped.push({ at, title, reason: `${name}, not a login` });
    return;
  }
  let username = '';
  let password = '';
  asArray(details.loginFields, WHAT, `${path}.details.loginFields`).forEach((raw, f) => {
    const field = asObject(raw, WHAT, `${path}.details.loginFields[${f}]`);
    const designation = typeof field.designation === 'string' ? field.designation.toLowerCase() : '';
    if (designation !== 'username' && designation !== 'password') return;
    const value = fieldText(field.value, `${path}.details.loginFields[${f}].value`);
    if (designation === 'username' && username === '') username = value;
    if (designation === 'password' && password === '') password = value;
  });
  if (password === '') password = asText(details.password, WHAT, `${path}.details.password`) ?? '';

  const urls = asArray(overview.urls, WHAT, `${path}.overview.urls`).map((raw, u) => {
    const entry = asObject(raw, WHAT, `${path}.overview.urls[${u}]`);
    return asText(entry.url ?? entry.href, WHAT, `${path}.overview.urls[${u}].url`) ?? '';
  });
  const url =
    trimmed(asText(overview.url, WHAT, `${path}.overview.url`)) ?? urls.map((u) => u.trim()).find((u) => u !== '');

  let totpSecret: string | undefined;
  asArray(details.sections, WHAT, `${path}.details.sections`).forEach((raw, s) => {
    const section = asObject(raw, WHAT, `${path}.details.sections[${s}]`);
    asArray(section.fields, WHAT, `${path}.details.sections[${s}].fields`).forEach((rawField, f) => {
      const fieldPath = `${path}.details.sections[${s}].fields[${f}]`;
      const value = asObject(rawField, WHAT, fieldPath).value;
      if (totpSecret !== undefined || typeof value !== 'object' || value === null || !('totp' in value)) return;
      totpSecret = trimmed(asText((value as { totp: unknown }).totp, WHAT, `${fieldPath}.value.totp`));
    });
  });

  logins.push({
    at,
    title,
    url,
    username,
    password,
    totpSecret,
    notes: noteText(asText(details.notesPlain, WHAT, `${path}.details.notesPlain`)),
  });
}

/** A login field's value: mostly a string; a linked account's is an object with `string` or `email_address`. */
function fieldText(value: unknown, path: string): string {
  if (typeof value === 'object' && value !== null && !Array.isArray(value)) {
    const v = value as { string?: unknown; email_address?: unknown };
    return asText(v.string ?? v.email_address, WHAT, path) ?? '';
  }
  return asText(value, WHAT, path) ?? '';
}
