import { KNOWN_LOGIN_METHODS, type LoginMethodInfo } from '../../../shared/login.schema.js';
import { AppError } from '../errors.js';
import { loginEmailAddress } from './codes/code-sources.js';

/**
 * The login methods this version serves, with what each needs (GET /api/login/methods): the
 * desktop app's method menu and agents read it instead of hard-coding the list.
 */
export const LOGIN_METHOD_INFO: readonly LoginMethodInfo[] = [
  {
    id: 'password',
    label: 'Password',
    description: 'Username and password on the site’s login form (identifier-first, iframes and HTTP auth included)',
    needs: ['cred.username', 'cred.password'],
    optional: ['cred.totpSecret', 'additionalFields'],
  },
  {
    id: 'otp_email',
    label: 'Email code',
    description: 'A one-time code the site emails; read from a mailbox (IMAP) or POST /api/login/inbox',
    needs: ['cred.username (an email) or additionalFields.email'],
    optional: ['cred.password', 'additionalFields'],
  },
  {
    id: 'magic_link',
    label: 'Magic link',
    description: 'A sign-in link the site emails; read from a mailbox (IMAP) or POST /api/login/inbox',
    needs: ['cred.username (an email) or additionalFields.email'],
    optional: ['additionalFields'],
  },
  {
    id: 'totp',
    label: 'Authenticator (TOTP)',
    description: 'Password, then a code computed from the authenticator secret',
    needs: ['cred.username', 'cred.password', 'cred.totpSecret'],
    optional: ['additionalFields'],
  },
  {
    id: 'otp_sms',
    label: 'SMS code',
    description: 'A code the site texts, forwarded to POST /api/login/inbox',
    needs: ['additionalFields.phone'],
    optional: ['cred.username', 'cred.password'],
  },
  {
    id: 'oauth_google',
    label: 'Sign in with Google',
    description: 'The site’s Google button, then Google’s pages (redirect or popup)',
    needs: ['cred.username', 'cred.password'],
    optional: ['cred.totpSecret'],
  },
  {
    id: 'oauth_github',
    label: 'Sign in with GitHub',
    description: 'The site’s GitHub button, then GitHub’s pages (redirect or popup)',
    needs: ['cred.username', 'cred.password'],
    optional: ['cred.totpSecret'],
  },
  {
    id: 'passkey',
    label: 'Passkey',
    description:
      'A passkey kept in a saved login (POST /api/credentials/{id}/passkeys), answered by a virtual authenticator: ' +
      '"Sign in with a passkey", autofill (conditional UI), username then passkey, or passkey after the password',
    needs: ['credential (a saved login holding a passkey; an inline cred is refused)'],
    optional: [
      'cred.username (the saved login’s: typed on an identifier-first page)',
      'cred.password (the saved login’s: a password step, or a site that falls back to its password)',
    ],
  },
];

/** Login methods whose strategy is built. The others answer 400 LOGIN_METHOD_NOT_AVAILABLE. */
export const BUILT_METHODS: ReadonlySet<string> = new Set(LOGIN_METHOD_INFO.map((m) => m.id));

/** What a login needs to be tried with a method: the same check for an inline login and a saved one. */
export interface LoginInput {
  loginMethod: string;
  username: string;
  password?: string;
  totpSecret?: string;
  additionalFields: Record<string, string>;
}

/**
 * 400 when the method is unknown or not built, or the input lacks what the method needs. `fields` names
 * the fields as the caller knows them (cred.password inline, password on a saved login).
 */
export function checkLoginInput(input: LoginInput, fields = INLINE_FIELDS): void {
  const method = input.loginMethod;
  const known = KNOWN_LOGIN_METHODS as readonly string[];
  if (known.includes(method) && !BUILT_METHODS.has(method)) {
    throw new AppError(
      400,
      'login_method_not_available',
      `The login method "${method}" is not available yet in this version. Available: ${[...BUILT_METHODS].join(', ')}.`,
      { loginMethod: method, available: [...BUILT_METHODS] },
    );
  }
  if (!BUILT_METHODS.has(method))
    throw new AppError(
      400,
      'validation_error',
      `Unknown loginMethod "${method}". Supported values: ${[...BUILT_METHODS].join(', ')}.`,
      { loginMethod: method },
    );
  const invalid = (field: string, message: string): AppError =>
    new AppError(400, 'validation_error', message, { field });
  if ((method === 'password' || method === 'totp' || method.startsWith('oauth_')) && !input.password)
    throw invalid(fields.password, `${fields.password} is required for loginMethod "${method}".`);
  if (method === 'totp' && !input.totpSecret)
    throw invalid(
      fields.totpSecret,
      `${fields.totpSecret} (base32 or an otpauth:// URI) is required for loginMethod "totp".`,
    );
  if ((method === 'otp_email' || method === 'magic_link') && !loginEmailAddress(input.username, input.additionalFields))
    throw invalid(
      fields.username,
      `loginMethod "${method}" needs an email address: ${fields.username}, or ${fields.email} when the username is not one.`,
    );
  if (method === 'otp_sms' && !input.additionalFields.phone)
    throw invalid(fields.phone, `${fields.phone} (E.164, e.g. +15550100) is required for loginMethod "otp_sms".`);
}

/** The fields checkLoginInput names, as POST /api/login's body spells them. */
export const INLINE_FIELDS = {
  username: 'cred.username',
  password: 'cred.password',
  totpSecret: 'cred.totpSecret',
  email: 'additionalFields.email',
  phone: 'additionalFields.phone',
};
