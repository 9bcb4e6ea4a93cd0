// Which fields the login form shows for a login method, from what GET /api/login/methods says the
// method needs ("cred.password", "additionalFields.phone", "cred.username (an email) or
// additionalFields.email") and may use. Unknown entries are ignored rather than guessed at.
import type { LoginMethodInfo } from '../../../shared/ipc-contract.js';

export const LOGIN_FIELDS = {
  'cred.username': { label: 'Username', type: 'text' },
  'cred.password': { label: 'Password', type: 'password' },
  'cred.totpSecret': {
    label: 'Authenticator secret',
    type: 'password',
    hint: 'The base32 secret (or otpauth:// URI) behind the site’s authenticator QR code.',
  },
  'additionalFields.email': { label: 'Email address', type: 'email' },
  'additionalFields.phone': {
    label: 'Phone number',
    type: 'tel',
    hint: 'With the country code, e.g. +15550100. Forward the texted code to POST /api/login/inbox.',
  },
  additionalFields: {
    label: 'Other form fields',
    type: 'textarea',
    hint: 'One name=value per line, for extra fields the site asks for (e.g. company=acme).',
  },
} as const;

export type LoginFieldKey = keyof typeof LOGIN_FIELDS;

export interface MethodField {
  key: LoginFieldKey;
  required: boolean;
  /** The username stands for an email address (otp_email, magic_link). */
  email?: boolean;
}

const fieldIn = (entry: string): LoginFieldKey | null => {
  const m = /^(cred\.\w+|additionalFields(?:\.\w+)?)/.exec(entry.trim());
  return m && m[1] in LOGIN_FIELDS ? (m[1] as LoginFieldKey) : null;
};

/** The fields to show for a method, in a stable order; a needed one is required. */
export function fieldsOf(method: LoginMethodInfo | undefined): MethodField[] {
  // Without the server's list (not loaded yet, or it failed): what the password method needs.
  if (!method)
    return [
      { key: 'cred.username', required: true },
      { key: 'cred.password', required: true },
    ];
  const found = new Map<LoginFieldKey, MethodField>();
  for (const [entries, required] of [
    [method.needs, true],
    [method.optional, false],
  ] as const) {
    for (const entry of entries) {
      const key = fieldIn(entry);
      if (!key || found.has(key)) continue;
      found.set(key, { key, required, ...(/\(an email\)/.test(entry) ? { email: true } : {}) });
    }
  }
  const order = Object.keys(LOGIN_FIELDS) as LoginFieldKey[];
  return [...found.values()].sort((a, b) => order.indexOf(a.key) - order.indexOf(b.key));
}

/** "name=value" lines as additionalFields; a line without "=" is reported. */
export function parseExtraFields(text: string): { fields: Record<string, string>; bad: string | null } {
  const fields: Record<string, string> = {};
  for (const line of text
    .split('\n')
    .map((l) => l.trim())
    .filter(Boolean)) {
    const at = line.indexOf('=');
    if (at <= 0) return { fields, bad: `“${line}” is not name=value` };
    fields[line.slice(0, at).trim()] = line.slice(at + 1).trim();
  }
  return { fields, bad: null };
}
