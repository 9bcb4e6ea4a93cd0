import type { Frame } from 'playwright-core';
import { matchAdditionalFields, tokens } from '../engine/field-matcher.js';
import { markedLocator } from '../engine/form-finder.js';
import type { SignupField, SignupForm } from './signup-scan.js';
import { signupEmail, SignupFlowError, type SignupContext } from './signup-types.js';

const FIRST = new Set(['firstname', 'givenname', 'forename', 'first', 'vorname', 'prenom']);
const LAST = new Set(['lastname', 'familyname', 'surname', 'last', 'nachname']);
const FULL = new Set(['name', 'fullname', 'displayname', 'yourname']);

function isNameKey(key: string): boolean {
  const k = tokens(key).join('');
  return FIRST.has(k) || LAST.has(k) || FULL.has(k);
}

function valueFor(extras: Record<string, string>, keys: Set<string>): string | undefined {
  for (const [k, v] of Object.entries(extras)) if (keys.has(tokens(k).join('')) && v.trim()) return v.trim();
  return undefined;
}

/**
 * The person's name from additionalFields for each kind of name field: `firstName`/`lastName`/`name`
 * (or `fullName`, `givenName`, `surname` …), each derived from the others when the form asks for a
 * kind the request did not give ("Ada Lovelace" -> "Ada" + "Lovelace", and back).
 */
export function nameValues(extras: Record<string, string>): { first?: string; last?: string; full?: string } {
  const first = valueFor(extras, FIRST);
  const last = valueFor(extras, LAST);
  const full = valueFor(extras, FULL);
  const parts = full ? full.split(/\s+/) : [];
  return {
    first: first ?? (parts.length > 1 ? parts.slice(0, -1).join(' ') : parts[0]),
    last: last ?? (parts.length > 1 ? parts[parts.length - 1] : undefined),
    full: full ?? ([first, last].filter(Boolean).join(' ') || undefined),
  };
}

const describe = (f: SignupField): string => f.label || f.name || f.placeholder || f.htmlId || f.kind;

/**
 * Fills a sign-up form like a person: the email and user name, the same password into every password
 * field (new and confirmation), additional fields by key, name fields (derived when needed), ticks the
 * terms/privacy checkboxes and never a newsletter or marketing one (a pre-ticked one is unticked unless
 * an additional field asks for it). Returns the password field (a passkey form's first identifier field), whose
 * fate tells whether the submit went through.
 */
export async function fillSignupForm(s: SignupContext, frame: Frame, form: SignupForm): Promise<SignupField> {
  const { req, filler } = s;
  const extras = req.additionalFields;
  const fields = form.fields;
  const passwords = fields.filter((f) => f.role === 'password');
  // A passkey sign-up form may have no password at all ("Email" + "Create a passkey").
  if (!passwords.length && !form.passkey)
    throw new SignupFlowError('signup_form_not_found', 'The sign-up form has no password field');
  const email = signupEmail(req);
  const emailFields = fields.filter((f) => f.role === 'email' && f.editable);
  const userFields = fields.filter((f) => f.role === 'username' && f.editable);
  const usedKeys = new Set<string>();
  const credentials = new Map<string, { value: string; what: string }>();
  for (const f of emailFields) credentials.set(f.id, { value: email ?? req.username, what: 'email' });
  if (email && email !== req.username && emailFields.length) usedKeys.add('email');
  for (const f of userFields) {
    // With an email field as well, the user name is the username when it is not the email address.
    let value = req.username;
    if (emailFields.length && req.username === email) {
      value = extras.username ?? email.split('@')[0].replace(/[^\w.-]/g, '');
      if (extras.username) usedKeys.add('username');
      else s.step(`no additionalFields.username: using the email's local part for '${describe(f)}'`);
    }
    credentials.set(f.id, { value, what: 'user name' });
  }
  if (!emailFields.length && !userFields.length) s.step('the sign-up form asks for no email or user name');
  for (const pw of passwords) credentials.set(pw.id, { value: req.password, what: 'password' });
  if (passwords.length) s.passwordTyped = true;

  for (const f of fields) {
    const c = credentials.get(f.id);
    if (!c) continue;
    await filler.fillText(frame, f.id, c.value);
    s.step(`filled ${c.what} (${f.kind} field '${describe(f)}')`);
  }

  // Additional fields by key (company, phone, selects, checkboxes), never over the credentials. Name keys
  // are not matched by key: "name" would fit "Last name" as well as "Full name".
  const reserved = new Set(credentials.keys());
  const usable = fields.filter(
    (f) => !reserved.has(f.id) && (f.editable || f.kind === 'checkbox' || f.kind === 'radio' || f.kind === 'select'),
  );
  const nameKeys = Object.keys(extras).filter((k) => isNameKey(k));
  const keys = Object.keys(extras).filter((k) => !usedKeys.has(k) && !isNameKey(k));
  const done = new Set(await filler.fillAdditional(frame, usable, extras, keys, reserved));
  const claimed = new Set(
    matchAdditionalFields(keys, usable)
      .filter((m) => done.has(m.key))
      .map((m) => m.field.id),
  );
  for (const k of keys) if (!done.has(k)) s.step(`additional field '${k}' not found on the sign-up form`);

  // Name fields by their kind, each value derived from the name keys given.
  const names = nameValues(extras);
  const nameOf = { firstName: names.first, lastName: names.last, fullName: names.full } as Record<string, string>;
  const filled = new Set([...reserved, ...claimed]);
  let namesFilled = 0;
  for (const f of fields) {
    const value = nameOf[f.role];
    if (!value || filled.has(f.id) || !f.editable || f.hasValue) continue;
    await filler.fillText(frame, f.id, value);
    filled.add(f.id);
    namesFilled++;
    s.step(
      `filled ${f.role === 'fullName' ? 'the name' : f.role === 'firstName' ? 'the first name' : 'the last name'} (field '${describe(f)}')`,
    );
  }
  if (!namesFilled) for (const k of nameKeys) s.step(`additional field '${k}' not found on the sign-up form`);

  for (const f of fields) {
    if (claimed.has(f.id)) continue;
    // Terms and privacy, and any other checkbox the site requires (e.g. "I am over 16"): a person ticks them.
    if ((f.role === 'terms' || (f.kind === 'checkbox' && f.required && f.role === 'other')) && !f.hasValue) {
      await filler.setChecked(markedLocator(frame, f.id), true);
      s.step(`ticked '${describe(f)}'`);
    } else if (f.role === 'marketing') {
      if (f.hasValue) await filler.setChecked(markedLocator(frame, f.id), false);
      s.step(`${f.hasValue ? 'unticked the pre-ticked' : 'left unticked'} '${describe(f)}'`);
    } else if (f.required && !f.hasValue && !filled.has(f.id) && f.kind !== 'checkbox') {
      s.step(`required field '${describe(f)}' has no value: pass it in additionalFields`);
    }
  }
  await filler.verifyFills();
  return passwords[0] ?? emailFields[0] ?? userFields[0] ?? fields.find((f) => f.editable) ?? fields[0];
}
