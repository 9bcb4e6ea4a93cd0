// The add / edit form's state and what it sends. What is not secret is a draft in the store (it survives a
// visit to another screen); the secrets the person types stay in the form's own state only, so leaving the
// form drops them. Edit never pre-fills a secret: empty keeps it, a value replaces it, Remove sends null.
import type { SavedLogin } from '../../../shared/credentials.schema.js';
import type { LoginMethodInfo } from '../../../shared/ipc-contract.js';
import type { FieldErrors } from '../../lib/field-errors';
import type { SavedLoginCreateBody, SavedLoginUpdateBody } from '../../stores/saved-logins.slice';
import { fieldsOf } from '../sessions/login-method-fields';
import { originOf } from './saved-login-format';

export const FORM_LABELS = {
  label: 'Label',
  loginUrl: 'Login page URL',
  origins: 'Origins',
  loginMethod: 'Login method',
  username: 'Username',
  password: 'Password',
  totpSecret: 'Authenticator (TOTP) secret',
  mailboxId: 'Mailbox',
  phone: 'Phone number',
  additionalFields: 'Additional fields',
  notes: 'Notes',
  shareWith: 'Sharing',
};

/** The form's fields that are not secret (kept as a draft). */
export interface SavedLoginDraft {
  label: string;
  loginUrl: string;
  /** Empty: the default (the login page's origin). */
  origins: string[];
  loginMethod: string;
  username: string;
  mailboxId: string;
  phone: string;
  share: 'all' | 'chosen';
  keyIds: string[];
}

export type TextSecret = 'password' | 'totpSecret' | 'notes';
export type FieldRow = { name: string; value: string };

/** What the person typed that is secret, and which saved secrets they asked to remove (edit only). */
export interface SecretsState {
  values: Record<TextSecret, string>;
  /** Name / value rows; on edit, the saved names with empty values. */
  fields: FieldRow[];
  removed: Partial<Record<TextSecret | 'additionalFields', true>>;
}

export function initialDraft(saved: SavedLogin | null): SavedLoginDraft {
  if (!saved) {
    return {
      label: '',
      loginUrl: '',
      origins: [],
      loginMethod: 'password',
      username: '',
      mailboxId: '',
      phone: '',
      share: 'all',
      keyIds: [],
    };
  }
  return {
    label: saved.label,
    loginUrl: saved.loginUrl,
    origins: [...saved.origins],
    loginMethod: saved.loginMethod,
    username: saved.username,
    mailboxId: saved.mailboxId ?? '',
    phone: saved.phone ?? '',
    share: saved.shareWith === 'all' ? 'all' : 'chosen',
    keyIds: saved.shareWith === 'all' ? [] : [...saved.shareWith],
  };
}

export function initialSecrets(saved: SavedLogin | null): SecretsState {
  return {
    values: { password: '', totpSecret: '', notes: '' },
    fields: saved ? saved.additionalFieldNames.map((name) => ({ name, value: '' })) : [],
    removed: {},
  };
}

/** Which secrets the method needs (so the form marks them required). */
export function neededSecrets(method: LoginMethodInfo | undefined): {
  password: boolean;
  totpSecret: boolean;
  phone: boolean;
} {
  const needed = new Set(
    fieldsOf(method)
      .filter((f) => f.required)
      .map((f) => f.key),
  );
  return {
    password: needed.has('cred.password'),
    totpSecret: needed.has('cred.totpSecret'),
    phone: needed.has('additionalFields.phone'),
  };
}

const filledRows = (rows: FieldRow[]) => rows.filter((r) => r.name.trim() || r.value);

/** Problems the form can see before sending, by field. */
export function checkForm(
  draft: SavedLoginDraft,
  secrets: SecretsState,
  saved: SavedLogin | null,
  method: LoginMethodInfo | undefined,
): FieldErrors {
  const found: FieldErrors = {};
  if (!draft.label.trim()) found.label = 'Give it a label agents will use, e.g. “Acme admin”';
  if (!originOf(draft.loginUrl)) found.loginUrl = 'Enter the full login page URL, starting with http:// or https://';
  const badOrigin = draft.origins.find((o) => o.trim() && !originOf(o));
  if (badOrigin !== undefined) found.origins = `“${badOrigin}” is not an http:// or https:// address`;
  const needs = neededSecrets(method);
  const has = (name: TextSecret) =>
    !!secrets.values[name] || (!!saved?.secrets.includes(name) && !secrets.removed[name]);
  if (needs.password && !has('password')) found.password = 'Needed for this login method';
  if (needs.totpSecret && !has('totpSecret')) found.totpSecret = 'Needed for this login method';
  if (needs.phone && !draft.phone.trim()) found.phone = 'Needed for this login method';
  if (!secrets.removed.additionalFields) {
    const rows = filledRows(secrets.fields);
    const names = rows.map((r) => r.name.trim());
    const hadFields = !!saved?.additionalFieldNames.length;
    // Saved values are never shown: rows without any value keep them as they are.
    const keeping = hadFields && rows.every((r) => !r.value);
    if (names.some((n) => !n)) found.additionalFields = 'Every value needs a field name';
    else if (new Set(names).size !== names.length) found.additionalFields = 'Each field name only once';
    else if (!keeping && rows.some((r) => !r.value))
      found.additionalFields = hadFields
        ? 'The saved values are replaced together: enter every value again'
        : 'Give every field a value (or remove its row)';
  }
  return found;
}

const shareOf = (draft: SavedLoginDraft) => (draft.share === 'all' ? ('all' as const) : draft.keyIds);
const originsOf = (draft: SavedLoginDraft) => draft.origins.map((o) => o.trim()).filter(Boolean);
const fieldsRecord = (rows: FieldRow[]) => Object.fromEntries(filledRows(rows).map((r) => [r.name.trim(), r.value]));

export function createBody(draft: SavedLoginDraft, secrets: SecretsState): SavedLoginCreateBody {
  const origins = originsOf(draft);
  const fields = fieldsRecord(secrets.fields);
  const { password, totpSecret, notes } = secrets.values;
  return {
    label: draft.label.trim(),
    loginUrl: draft.loginUrl.trim(),
    ...(origins.length ? { origins } : {}),
    loginMethod: draft.loginMethod,
    username: draft.username,
    ...(password ? { password } : {}),
    ...(totpSecret.trim() ? { totpSecret: totpSecret.trim() } : {}),
    ...(draft.mailboxId ? { mailboxId: draft.mailboxId } : {}),
    ...(draft.phone.trim() ? { phone: draft.phone.trim() } : {}),
    ...(Object.keys(fields).length ? { additionalFields: fields } : {}),
    ...(notes ? { notes } : {}),
    shareWith: shareOf(draft),
  };
}

/** PATCH: every plain field as it stands, and only the secrets the person changed or removed. */
export function updateBody(saved: SavedLogin, draft: SavedLoginDraft, secrets: SecretsState): SavedLoginUpdateBody {
  const origins = originsOf(draft);
  const body: SavedLoginUpdateBody = {
    label: draft.label.trim(),
    loginUrl: draft.loginUrl.trim(),
    loginMethod: draft.loginMethod,
    username: draft.username,
    mailboxId: draft.mailboxId || (saved.mailboxId ? null : undefined),
    phone: draft.phone.trim() || (saved.phone ? null : undefined),
    shareWith: shareOf(draft),
  };
  // No origin left: back to the default for the (possibly new) login page.
  const defaultOrigin = originOf(draft.loginUrl);
  body.origins = origins.length ? origins : defaultOrigin ? [defaultOrigin] : undefined;
  for (const name of ['password', 'totpSecret', 'notes'] as const) {
    const value = name === 'totpSecret' ? secrets.values[name].trim() : secrets.values[name];
    if (secrets.removed[name]) body[name] = null;
    else if (value) body[name] = value;
  }
  if (secrets.removed.additionalFields) body.additionalFields = null;
  else if (filledRows(secrets.fields).some((r) => r.value)) body.additionalFields = fieldsRecord(secrets.fields);
  else if (saved.additionalFieldNames.length && filledRows(secrets.fields).length === 0) body.additionalFields = null;
  return body;
}
