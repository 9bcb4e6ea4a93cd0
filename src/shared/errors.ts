// Error codes shared by the HTTP APIs, IPC and the renderer. Pure data: imports nothing.

/** Which documented error body a route renders. */
export type ErrorShape = 'login' | 'video';

/** Reasons a login can fail, carried in `details.reason` of the login-service error body. */
export const LOGIN_FAILURE_REASONS = [
  'invalid_credentials',
  'login_form_not_found',
  'mfa_required',
  'captcha_blocked',
  // a bot wall refused the browser as automated (its words in the message): nothing was said about the password
  'bot_detected',
  'account_locked',
  'site_unreachable',
  'timeout',
  'invalid_code',
  'code_timeout',
  'mailbox_unavailable',
  // a secret the login needs (a mailbox's password) is not in this computer's secret store
  'secrets_missing',
  'credentials_required',
  'unexpected_identity_provider',
  // POST /signup (account creation)
  'user_exists',
  'signup_rejected',
  'signup_form_not_found',
  'credential_origin_mismatch',
  // the submit had no visible effect: the form still there, no message, no new page, no refusal of the request
  'no_outcome',
] as const;
export type LoginFailureReason = (typeof LOGIN_FAILURE_REASONS)[number];

/** HTTP status and login-service code for each login failure reason (documented in docs/login-service.md#errors). */
export const LOGIN_FAILURE_STATUS: Record<LoginFailureReason, { status: number; code: string }> = {
  invalid_credentials: { status: 401, code: 'AUTHENTICATION_FAILED' },
  login_form_not_found: { status: 422, code: 'LOGIN_FORM_NOT_FOUND' },
  mfa_required: { status: 422, code: 'MFA_REQUIRED' },
  captcha_blocked: { status: 422, code: 'CAPTCHA_BLOCKED' },
  bot_detected: { status: 403, code: 'BOT_DETECTED' },
  account_locked: { status: 423, code: 'ACCOUNT_LOCKED' },
  site_unreachable: { status: 502, code: 'SITE_UNREACHABLE' },
  timeout: { status: 504, code: 'LOGIN_TIMEOUT' },
  invalid_code: { status: 401, code: 'AUTHENTICATION_FAILED' },
  code_timeout: { status: 504, code: 'LOGIN_TIMEOUT' },
  mailbox_unavailable: { status: 502, code: 'MAILBOX_UNAVAILABLE' },
  secrets_missing: { status: 409, code: 'SECRETS_MISSING' },
  credentials_required: { status: 422, code: 'CREDENTIALS_REQUIRED' },
  unexpected_identity_provider: { status: 422, code: 'UNEXPECTED_IDENTITY_PROVIDER' },
  user_exists: { status: 409, code: 'USER_EXISTS' },
  signup_rejected: { status: 422, code: 'SIGNUP_REJECTED' },
  signup_form_not_found: { status: 422, code: 'SIGNUP_FORM_NOT_FOUND' },
  credential_origin_mismatch: { status: 422, code: 'CREDENTIAL_ORIGIN_MISMATCH' },
  no_outcome: { status: 422, code: 'NO_OUTCOME' },
};

/**
 * The HTTP status of each error code that always answers with the same one (the core's lower_snake AppError code).
 * The core builds these errors with it (core/errors.ts, the login service's cancel, the vault's sharing check), and a
 * reader that holds only a rendered body reads the status back (the MCP login tools: a board entry keeps the body,
 * not the status). Codes whose status depends on the case (login failures: LOGIN_FAILURE_STATUS) are not here.
 */
export const ERROR_CODE_STATUS = {
  validation_error: 400,
  unauthorized: 401,
  forbidden: 403,
  credential_not_shared: 403,
  not_found: 404,
  login_cancelled: 409,
} as const satisfies Record<string, number>;
export type FixedStatusCode = keyof typeof ERROR_CODE_STATUS;

/** The login service's names of core codes that are not just the code in upper case. */
const LOGIN_CODE_NAMES: Readonly<Record<string, string>> = {
  validation_error: 'INVALID_REQUEST',
  unauthorized: 'AUTHENTICATION_FAILED',
};

/** How the login service spells a core error code in its body's `error` (docs/login-service.md#errors). */
export const loginCodeName = (code: string): string => LOGIN_CODE_NAMES[code] ?? code.toUpperCase();

/** The status of a login-service body's `error`, when its code is one of ERROR_CODE_STATUS. */
export function statusOfLoginCode(name: string): number | undefined {
  const code = (Object.keys(ERROR_CODE_STATUS) as FixedStatusCode[]).find((c) => loginCodeName(c) === name);
  return code && ERROR_CODE_STATUS[code];
}

/** The IPC result envelope. */
export type IpcResult<T> =
  { ok: true; value: T } | { ok: false; error: { code: string; message: string; details?: Record<string, unknown> } };

/**
 * 409 of PATCH /api/credentials/{id} (docs/saved-logins.md#who-may-move-a-secret): the change lets a saved login's secrets be
 * typed somewhere they could not be before, and the request does not carry every one of them (`details.fields`
 * names the missing ones). Login-service spelling; the core's AppError code is its lower case.
 */
export const SECRETS_REQUIRED = 'SECRETS_REQUIRED';
