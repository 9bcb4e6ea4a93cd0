import { z } from 'zod';
import { httpUrlString } from './http-url.schema.js';
import { BrowserChoiceSchema, LoginBrowserSchema } from './login-browser.schema.js';
import { PERSON_REASONS } from './person-task.js';

export const LOGIN_METHODS = ['password', 'oauth_google', 'otp_email', 'magic_link', 'passkey'] as const;
/** Announced by the spec as "in development": answered with a clear 400, never a 500. */
export const ANNOUNCED_LOGIN_METHODS = ['oauth_github', 'otp_sms', 'totp'] as const;
/** Every login method a request may name: the built ones, then the announced ones. */
export const KNOWN_LOGIN_METHODS = [...LOGIN_METHODS, ...ANNOUNCED_LOGIN_METHODS] as const;
export type KnownLoginMethod = (typeof KNOWN_LOGIN_METHODS)[number];

/** Storage a login can capture on request (`include`), besides cookies and localStorage. */
export const STORAGE_EXTRAS = ['indexedDB', 'sessionStorage'] as const;
export type StorageExtra = (typeof STORAGE_EXTRAS)[number];

/** The login page; `min(1)` first so an empty string says "required". */
const httpUrl = z.string().trim().min(1, 'domain is required').pipe(httpUrlString('domain'));

const CredSchema = z.object({
  username: z.string().max(512).default(''),
  password: z.string().max(4096).default(''),
  totpSecret: z
    .string()
    .max(2048)
    .optional()
    .describe('Authenticator secret (base32, or an otpauth:// URI) for loginMethod totp and sites that ask a TOTP'),
});

/**
 * A saved login named by id or label (GET /api/credentials): the reference form of a login. `whenMissing`: what a
 * parse says when there is none (where it is required, the caller's own explanation instead of zod's words).
 */
export const savedLoginRef = (whenMissing?: string) =>
  z
    .string({ error: (issue) => (issue.input === undefined ? whenMissing : undefined) })
    .trim()
    .min(1)
    .max(200)
    .describe('A saved login (its id cred_… or label): logs in with its secrets, which the caller never holds');
const credentialRef = savedLoginRef();

/** Exactly one of `cred` (inline secrets) and `credential` (a saved login); `domain` is required with `cred`. */
function oneSourceOfCredentials(v: { cred?: unknown; credential?: string; domain?: string }, ctx: z.RefinementCtx) {
  if (v.cred !== undefined && v.credential !== undefined)
    ctx.addIssue({ code: 'custom', path: ['credential'], message: 'give either cred or credential, not both' });
  else if (v.cred === undefined && v.credential === undefined)
    ctx.addIssue({ code: 'custom', path: ['cred'], message: 'cred is required (or credential: a saved login)' });
  else if (v.cred !== undefined && v.domain === undefined)
    ctx.addIssue({ code: 'custom', path: ['domain'], message: 'domain is required' });
}

export const LoginRequestSchema = z
  .object({
    cred: CredSchema.optional().describe('Inline credentials; or name a saved login with credential instead'),
    credential: credentialRef.optional(),
    // Bounded like a saved login's loginMethod: an unknown method is the service's 400, but not at any length.
    loginMethod: z.string().min(1).max(40).default('password'),
    domain: httpUrl.optional().describe('The login page (full http/https URL); with credential, default its loginUrl'),
    additionalFields: z.record(z.string().max(256), z.string().max(4096)).default({}),
    useCache: z.boolean().default(true),
    // Session lifecycle (docs/login-service.md#session-lifecycle).
    storeCredentials: z
      .boolean()
      .optional()
      .describe(
        'true: keep cred and additionalFields in the OS keychain so POST /refresh and health checks can log in again; ' +
          'false: forget any kept for this identity; omitted: leave as is',
      ),
    checkUrl: httpUrlString('checkUrl')
      .optional()
      .describe(
        'Page that only works logged in, opened to validate the session (default: the page the login landed on)',
      ),
    healthCheckIntervalSec: z
      .number()
      .int()
      .min(60)
      .max(30 * 86400)
      .nullable()
      .optional()
      .describe('Validate the session in the background this often (seconds, min 60); null turns it off'),
    include: z
      .array(z.enum(STORAGE_EXTRAS))
      .max(10)
      .default([])
      .describe(
        'Storage to capture besides cookies and localStorage: "indexedDB" (origins[].indexedDB, restored by ' +
          'browser.newContext({ storageState })) and "sessionStorage" (origins[].sessionStorage, restored by an init ' +
          'script; see docs/login-service.md#full-storage). A cached session is served only when it was captured with them.',
      ),
    // A person in the loop (docs/person-in-the-loop.md).
    interactive: z
      .boolean()
      .default(false)
      .describe(
        'true: when the login stops at a CAPTCHA or a second factor with no automatic way through, the desktop app ' +
          'shows it in a browser window for a person to finish, and the request waits (interactiveTimeoutSec). ' +
          'The headless server answers the typed error with details.interactive "unavailable"',
      ),
    interactiveTimeoutSec: z
      .number()
      .int()
      .min(5)
      .max(1800)
      .default(300)
      .describe('How long an interactive login waits for the person (seconds, 5 to 1800)'),
    browser: BrowserChoiceSchema.optional().describe(
      "The login browser (docs/login-service.md#bot-walls). Wins over the saved login's own choice, which wins over the " +
        "server's browser.mode (default headless)",
    ),
    async: z
      .boolean()
      .default(false)
      .describe(
        'true (or the header Prefer: respond-async): answer 202 {login_id, status_url} at once and run the login in ' +
          'the background; poll GET /api/login/{id}, then take the state from GET /api/login/{id}/state',
      ),
  })
  .superRefine(oneSourceOfCredentials)
  .meta({ id: 'LoginRequest' });
/** The body of POST /api/login as sent: inline `cred` or a saved login's reference. */
export type LoginRequestBody = z.infer<typeof LoginRequestSchema>;
/** A login with its credentials in hand (inline, or read from the saved login the body named). */
export type LoginRequest = Omit<LoginRequestBody, 'cred' | 'credential' | 'domain'> & {
  cred: z.infer<typeof CredSchema>;
  domain: string;
};

export const CookieSchema = z
  .object({
    name: z.string(),
    value: z.string(),
    domain: z.string(),
    path: z.string(),
    expires: z.number().describe('Unix time in seconds; -1 for a session cookie'),
    httpOnly: z.boolean(),
    secure: z.boolean(),
    sameSite: z.enum(['Strict', 'Lax', 'None']),
  })
  .meta({ id: 'Cookie' });

const NameValueSchema = z.object({ name: z.string(), value: z.string() });
const keyPath = {
  keyPath: z.string().optional(),
  keyPathArray: z.array(z.string()).optional(),
};

/** Exactly the entries of Playwright's `context.storageState({ indexedDB: true })` (playwright-core 1.65). */
export const IndexedDBDatabaseSchema = z
  .object({
    name: z.string(),
    version: z.number().int(),
    stores: z.array(
      z.object({
        name: z.string(),
        autoIncrement: z.boolean(),
        ...keyPath,
        records: z.array(
          z.object({
            key: z.unknown().optional().describe('The key when the store has no keyPath and it is plain JSON'),
            keyEncoded: z.unknown().optional().describe("Playwright's encoding of any other key (Date, binary…)"),
            value: z.unknown().optional().describe('The value when it is plain JSON'),
            valueEncoded: z.unknown().optional().describe("Playwright's encoding of any other value (Date, Map…)"),
          }),
        ),
        indexes: z.array(z.object({ name: z.string(), ...keyPath, multiEntry: z.boolean(), unique: z.boolean() })),
      }),
    ),
  })
  .meta({
    id: 'IndexedDBDatabase',
    description: "One IndexedDB database of an origin, in Playwright's storageState format",
  });
export type IndexedDBDatabase = z.infer<typeof IndexedDBDatabaseSchema>;

export const OriginStateSchema = z
  .object({
    origin: z.string(),
    localStorage: z.array(NameValueSchema),
    indexedDB: z
      .array(IndexedDBDatabaseSchema)
      .optional()
      .describe('Only with include "indexedDB" (then on every origin, possibly empty)'),
    sessionStorage: z
      .array(NameValueSchema)
      .optional()
      .describe(
        'Only with include "sessionStorage" (then on every origin, possibly empty). Playwright ignores this field: ' +
          'restore it with an init script (docs/login-service.md#full-storage)',
      ),
  })
  .meta({ id: 'OriginState' });

export const StorageStateSchema = z
  .object({
    cookies: z.array(CookieSchema),
    origins: z.array(OriginStateSchema),
    // Playwright ignores keys it does not know, so the answer still goes straight into newContext({ storageState }).
    browser: LoginBrowserSchema.optional(),
  })
  .meta({
    id: 'StorageState',
    description:
      'Playwright storageState: pass it to browser.newContext({ storageState }), with browser.userAgent, locale and ' +
      "timezoneId as that context's options",
  });
export type StorageState = z.infer<typeof StorageStateSchema>;

/** What the last look at a cached session found (see SessionSummary.status). */
export const SESSION_STATUSES = ['unchecked', 'valid', 'invalid', 'renewed'] as const;
export type SessionStatus = (typeof SESSION_STATUSES)[number];

export const SessionSummarySchema = z
  .object({
    id: z.string(),
    origin: z.string(),
    username: z.string(),
    login_method: z.string(),
    created_at: z.number().describe('Unix ms'),
    expires_at: z.number().nullable().describe('Unix ms when the first auth cookie expires, or the max-age cut-off'),
    last_used_at: z.number().nullable(),
    cookie_count: z.number(),
    origin_count: z.number(),
    cookie_names: z.array(z.string()),
    fresh: z.boolean().describe('Whether useCache:true would return it now'),
    status: z
      .enum(SESSION_STATUSES)
      .describe(
        'unchecked (never validated), valid / invalid (last validation), renewed (made by a re-login with stored credentials)',
      ),
    last_checked_at: z.number().nullable().describe('Unix ms of the last validation, or null'),
    health_check_interval_sec: z.number().nullable().describe('Background validation interval, or null (off)'),
    next_check_at: z.number().nullable().describe('Unix ms of the next background validation, or null'),
    stored_credentials: z
      .boolean()
      .describe('Whether a saved login renews it (POST /refresh, health checks): credential_id is set'),
    credential_id: z
      .string()
      .nullable()
      .describe('The saved login (GET /api/credentials/{id}) that renews it, or null'),
  })
  .meta({ id: 'SessionSummary' });
export type SessionSummary = z.infer<typeof SessionSummarySchema>;
export const SessionListSchema = z.object({ data: z.array(SessionSummarySchema) });
export const SessionIdParamsSchema = z.object({ id: z.string().min(1).max(64) });
export type SessionList = z.infer<typeof SessionListSchema>;

export const RefreshRequestSchema = z
  .object({
    credential: credentialRef
      .optional()
      .describe('A saved login (id or label): its site, username and method pick the session'),
    domain: httpUrl
      .optional()
      .describe('A URL of the site (its origin picks the session), e.g. the login page given to /api/login'),
    username: z.string().min(1, 'username is required').max(512).optional(),
    loginMethod: z.string().min(1).max(40).optional().describe('Default: password, or the saved login’s'),
    force: z
      .boolean()
      .default(false)
      .describe('true: log in again without first checking whether the cached session still works'),
  })
  .superRefine((v, ctx) => {
    if (v.credential !== undefined) return;
    if (v.domain === undefined) ctx.addIssue({ code: 'custom', path: ['domain'], message: 'domain is required' });
    if (v.username === undefined) ctx.addIssue({ code: 'custom', path: ['username'], message: 'username is required' });
  })
  .meta({ id: 'RefreshRequest' });
export type RefreshRequestBody = z.infer<typeof RefreshRequestSchema>;
/** The session a refresh is for, with the saved login's reference resolved. */
export interface RefreshRequest {
  domain: string;
  username: string;
  loginMethod: string;
  force: boolean;
}

export const SessionValidationSchema = z
  .object({
    session_id: z.string(),
    valid: z.boolean(),
    status: z.enum(SESSION_STATUSES),
    checked_url: z.string().describe('The page opened (origin and path; the query is left out)'),
    evidence: z.array(z.string()).describe('What the check saw, in order'),
    checked_at: z.number().describe('Unix ms'),
    dropped: z
      .boolean()
      .describe('true when the dead session was deleted (it had no stored credentials to renew it with)'),
  })
  .meta({ id: 'SessionValidation' });
export type SessionValidation = z.infer<typeof SessionValidationSchema>;

export const LoginErrorSchema = z
  .object({ error: z.string(), message: z.string(), details: z.record(z.string(), z.unknown()) })
  .meta({ id: 'LoginError' });

/** An email address or an E.164 phone number (+ and 7-15 digits; spaces, dashes and brackets allowed). */
const inboxAddress = z
  .string()
  .trim()
  .min(3)
  .max(320)
  .refine((s) => /^[^\s@]+@[^\s@]+$/.test(s) || /^\+[1-9][\d\s().-]{6,20}$/.test(s), {
    message: 'to must be an email address or an E.164 phone number (+ country code and number)',
  });

export const InboxMessageSchema = z
  .object({
    to: z.union([inboxAddress, z.array(inboxAddress).min(1).max(20)]),
    from: z.string().max(320).optional(),
    subject: z.string().max(2000).optional(),
    text: z.string().max(1_000_000).optional(),
    html: z.string().max(2_000_000).optional(),
  })
  .refine((m) => !!(m.text || m.html || m.subject), { message: 'a message needs text, html or a subject' })
  .meta({
    id: 'InboxMessage',
    description: 'An email or SMS for logins that wait for a code or sign-in link (POST /api/login/inbox)',
  });
export type InboxMessage = z.infer<typeof InboxMessageSchema>;

export const InboxReceiptSchema = z
  .object({
    delivered: z.number().int().describe('How many pending logins of this organization received it (0: none waits)'),
  })
  .meta({ id: 'InboxReceipt' });

export const LoginMethodInfoSchema = z
  .object({
    id: z.string().describe('The loginMethod value'),
    label: z.string(),
    description: z.string(),
    /** Request fields this method needs besides domain: e.g. cred.password, cred.totpSecret, additionalFields.phone. */
    needs: z.array(z.string()),
    /** Fields the method may use when the site asks for them. */
    optional: z.array(z.string()),
  })
  .meta({ id: 'LoginMethodInfo' });
export const LoginMethodListSchema = z.object({ data: z.array(LoginMethodInfoSchema) }).meta({ id: 'LoginMethodList' });
export type LoginMethodInfo = z.infer<typeof LoginMethodInfoSchema>;

/** A caller-chosen login id: sent as X-Login-Id with POST /api/login, it names the login's steps and its cancel. */
export const LoginIdSchema = z.string().regex(/^[\w.-]{1,64}$/, 'a login id is 1-64 letters, digits, _ . or -');
/** The request headers of POST /api/login a caller may send (the server ignores an id it does not accept). */
export const LoginRequestHeadersSchema = z.object({ 'x-login-id': LoginIdSchema }).partial().strict();
/** POST /api/login/:id/cancel (the route's own params: 1-64 characters). */
export const LoginCancelParamsSchema = z.object({ id: z.string().min(1).max(64) });
/** The login route's answer headers: where the session came from. */
export const LoginAnswerHeadersSchema = z.object({
  'x-session-cache': z.enum(['hit', 'miss']),
  'x-session-id': z.string(),
});
/** POST /api/refresh's answer headers: the session and how it was refreshed. */
export const RefreshAnswerHeadersSchema = z.object({ 'x-session-id': z.string(), 'x-session-refresh': z.string() });

/** Where a login with an id stands (GET /api/login/{id}). */
export const LOGIN_RUN_STATUSES = ['running', 'needs_person', 'succeeded', 'failed', 'cancelled'] as const;

export const LoginIdParamsSchema = z.object({
  id: z
    .string()
    .regex(/^[A-Za-z0-9_.-]{1,64}$/, 'a login id is 1-64 of A-Z a-z 0-9 _ . -')
    .describe('The login id: the X-Login-Id the request sent, or the login_id an answer gave'),
});

export const LoginRunSchema = z
  .object({
    login_id: z.string(),
    status: z.enum(LOGIN_RUN_STATUSES),
    steps: z.array(z.string()).describe('What the engine did so far (secret-free)'),
    takeover_url: z
      .string()
      .optional()
      .describe(
        'While needs_person, and only to the API key that started the login: the live page where a person finishes ' +
          'it (its #token is the key to it)',
      ),
    reason: z
      .enum(PERSON_REASONS)
      .optional()
      .describe(
        'While needs_person: where the login stopped (mfa_required: POST /api/login/{id}/code can type a code)',
      ),
    session_id: z.string().optional().describe('Once succeeded: the cache entry (GET /api/sessions)'),
    state_available: z
      .boolean()
      .describe('Once succeeded, for an async login: GET /api/login/{id}/state gives the storageState (once)'),
    error: LoginErrorSchema.optional().describe('Once failed or cancelled: the error body the login answered'),
    started_at: z.number(),
    finished_at: z.number().nullable(),
  })
  .meta({ id: 'LoginRun' });
export type LoginRun = z.infer<typeof LoginRunSchema>;

/** POST /api/login/{id}/code: a one-time code for a login that waits for a person at its second factor. */
export const LoginCodeSchema = z
  .object({
    code: z
      .string()
      .trim()
      .regex(/^[A-Za-z0-9 -]{4,12}$/, 'a one-time code is 4-12 letters or digits (spaces and dashes are dropped)')
      .describe('The code the person received (sent by SMS, email or shown by an authenticator app)'),
  })
  .strict()
  .meta({ id: 'LoginCode' });

export const LoginCodeReceiptSchema = z
  .object({
    typed: z.literal(true),
    field: z.string().describe('What the code went into, as the page labels it (secret-free)'),
    answer: z
      .enum(['rejected', 'went_on', 'silent'])
      .describe(
        "The page's answer, taken as soon as the page shows it: rejected (it still asks for a code and shows a new " +
          'error: type another), went_on (the code prompt is gone: the login goes on, see GET /api/login/{id}), ' +
          'silent (neither within 10 s)',
      ),
    message: z.string().optional().describe("When rejected: the page's own words (the code masked)"),
  })
  .meta({ id: 'LoginCodeReceipt' });

export const LoginAcceptedSchema = z
  .object({
    login_id: z.string(),
    status_url: z.string().describe('GET it for the status (same key)'),
  })
  .meta({ id: 'LoginAccepted' });
export type LoginAccepted = z.infer<typeof LoginAcceptedSchema>;
