// Zod schemas of saved logins (the vault): a site's login kept once by a person, used by agents by id or
// label. Secrets are write-only: no schema here has a field that carries one back. Pure: imports nothing but zod.
import { z } from 'zod';
import { httpUrlString, tryUrl } from './http-url.schema.js';
import { BrowserChoiceSchema } from './login-browser.schema.js';

/** A saved login's own login browser: used when a login request names none (the request's wins). */
const savedBrowser = BrowserChoiceSchema.describe(
  'The login browser of this site (docs/login-service.md#bot-walls): e.g. {"mode": "headed"} for a site that refuses headless ' +
    "browsers. A login request's own browser wins; neither: the server's browser.mode",
);

/** What a saved login can hold that is secret (kept in the OS keychain or the encrypted file, never in SQLite). */
export const SAVED_LOGIN_SECRETS = ['password', 'totpSecret', 'additionalFields', 'notes'] as const;
export type SavedLoginSecret = (typeof SAVED_LOGIN_SECRETS)[number];

/**
 * Where a saved login was made: added (API, CLI or the desktop app), imported from an export file, or kept by a
 * login's `storeCredentials` (only those are removed again when the session forgets its credentials).
 */
export const SAVED_LOGIN_SOURCES = ['api', 'import', 'stored_credentials'] as const;

/** The endpoints a saved login is used from (its use log). */
export const CREDENTIAL_USE_ENDPOINTS = [
  'login',
  'refresh',
  'signup',
  'health_check',
  'desktop_test',
  'add_passkey',
] as const;

export const MAX_ORIGINS = 20;

export const CredentialIdParamsSchema = z.object({
  id: z.string().min(1).max(200).describe('A saved login: its id (cred_…) or its label'),
});

/** An http(s) origin: scheme, host and port; a full URL is reduced to its origin. */
export const OriginSchema = httpUrlString('origin')
  .transform((u, ctx) => {
    // Runs only on a value the refinement above passed; still total, so no input can make it throw.
    const url = tryUrl(u);
    if (url) return url.origin;
    ctx.issues.push({ code: 'custom', message: 'origin must be a full http:// or https:// URL', input: u });
    return z.NEVER;
  })
  .describe('An origin (https://accounts.example.com) where the secrets may be typed');

const label = z.string().trim().min(1, 'label is required').max(120);

/** A saved login's page: no user name or password in the URL (those are secrets, and this is metadata). */
const loginUrl = httpUrlString('loginUrl').refine((value) => {
  // zod runs this even when the URL check before it failed, so it must not assume a URL: a value that is none was
  // refused there already (tryUrl's null passes here, leaving that one message).
  const url = tryUrl(value);
  return !url?.username && !url?.password;
}, 'loginUrl must not contain a user name or password (give them as username and password)');
const shareWith = z
  .union([z.literal('all'), z.array(z.string().min(1).max(64)).max(200)])
  .describe('"all": every key of the organization with login:write may use it; or the ids of the keys that may');

const secretFields = {
  password: z.string().max(4096).describe('Write-only: kept in the OS keychain, never returned'),
  totpSecret: z.string().max(2048).describe('Write-only. Authenticator secret: base32 or an otpauth:// URI'),
  additionalFields: z
    .record(z.string().max(256), z.string().max(4096))
    .describe('Write-only values (their names are listed): extra fields of the form, as in POST /api/login'),
  notes: z.string().max(20_000).describe('Write-only: the person’s notes (recovery codes, hints)'),
};

export const SavedLoginCreateSchema = z
  .object({
    label,
    loginUrl: loginUrl.describe('The login page (POST /api/login opens it when no domain is given)'),
    origins: z
      .array(OriginSchema)
      .min(1)
      .max(MAX_ORIGINS)
      .optional()
      .describe(
        'Origins where the secrets may be typed. Default: the login page’s origin, and for oauth_google / oauth_github ' +
          'also the identity provider’s configured origins (login.oauth.<provider>.origins)',
      ),
    loginMethod: z.string().min(1).max(40).default('password'),
    username: z.string().max(512).default(''),
    password: secretFields.password.optional(),
    totpSecret: secretFields.totpSecret.optional(),
    mailboxId: z
      .string()
      .min(1)
      .max(64)
      .optional()
      .describe('The mailbox (GET /api/mailboxes) codes and links come to'),
    phone: z.string().max(32).optional().describe('E.164 number SMS codes come to (loginMethod otp_sms)'),
    additionalFields: secretFields.additionalFields.optional(),
    notes: secretFields.notes.optional(),
    shareWith: shareWith.default('all'),
    browser: savedBrowser.optional(),
  })
  .meta({ id: 'SavedLoginCreate' });
export type SavedLoginCreate = z.infer<typeof SavedLoginCreateSchema>;

/** PATCH: only what is given changes; `null` removes an optional value (a secret, the mailbox, the phone). */
export const SavedLoginUpdateSchema = z
  .object({
    label: label.optional(),
    loginUrl: loginUrl.optional(),
    origins: z.array(OriginSchema).min(1).max(MAX_ORIGINS).optional(),
    loginMethod: z.string().min(1).max(40).optional(),
    username: z.string().max(512).optional(),
    password: secretFields.password.nullable().optional(),
    totpSecret: secretFields.totpSecret.nullable().optional(),
    mailboxId: z.string().min(1).max(64).nullable().optional(),
    phone: z.string().max(32).nullable().optional(),
    additionalFields: secretFields.additionalFields.nullable().optional(),
    notes: secretFields.notes.nullable().optional(),
    shareWith: shareWith.optional(),
    browser: savedBrowser.nullable().optional(),
  })
  .meta({ id: 'SavedLoginUpdate' });
export type SavedLoginUpdate = z.infer<typeof SavedLoginUpdateSchema>;

/** A passkey of a saved login as answers show it: where it works and its id, never its key. */
export const SavedPasskeySchema = z
  .object({
    rp_id: z.string().describe('The relying party id (a host name): the passkey works on it and its subdomains'),
    credential_id: z.string().describe('The WebAuthn credential id, base64url'),
    created_at: z.number(),
  })
  .meta({ id: 'SavedPasskey' });
export type SavedPasskey = z.infer<typeof SavedPasskeySchema>;

export const PasskeyCreateRequestSchema = z
  .object({
    domain: httpUrlString('domain')
      .optional()
      .describe('The page to log in on first (default: the saved login’s loginUrl)'),
  })
  .meta({ id: 'PasskeyCreateRequest' });

export const PasskeyCreatedSchema = z
  .object({ rp_id: z.string(), credential_id: z.string() })
  .meta({ id: 'PasskeyCreated', description: 'The passkey the site registered, kept in the saved login' });

export const SavedLoginSchema = z
  .object({
    id: z.string().describe('cred_…'),
    label: z.string(),
    loginUrl: z
      .string()
      .describe(
        'The login page, each query value and the fragment masked (***): the full URL is kept with the secrets, and ' +
          'logins open it. Sent back unchanged in a PATCH, it keeps the saved one',
      ),
    origins: z.array(z.string()),
    loginMethod: z.string(),
    username: z.string(),
    secrets: z.array(z.enum(SAVED_LOGIN_SECRETS)).describe('Which secrets it holds (never their values or lengths)'),
    additionalFieldNames: z.array(z.string()),
    passkeys: z
      .array(SavedPasskeySchema)
      .describe('Its passkeys (loginMethod passkey): metadata only; private keys stay in the secret store'),
    mailboxId: z.string().nullable(),
    phone: z.string().nullable(),
    shareWith: z.union([z.literal('all'), z.array(z.string())]),
    browser: savedBrowser.nullable(),
    source: z.enum(SAVED_LOGIN_SOURCES),
    created_at: z.number(),
    updated_at: z.number(),
    last_used_at: z.number().nullable(),
  })
  .meta({ id: 'SavedLogin', description: 'A saved login: metadata only; its secrets are never returned' });
export type SavedLogin = z.infer<typeof SavedLoginSchema>;

export const SavedLoginListSchema = z.object({ data: z.array(SavedLoginSchema) }).meta({ id: 'SavedLoginList' });

export const CredentialUseSchema = z
  .object({
    at: z.number(),
    keyId: z.string().nullable().describe('The API key that used it (null: the desktop app or a background check)'),
    endpoint: z.enum(CREDENTIAL_USE_ENDPOINTS),
    outcome: z.string().describe('"success", or the error code the use answered (AUTHENTICATION_FAILED…)'),
    origin: z.string().nullable().describe('The login page’s origin'),
  })
  .meta({ id: 'CredentialUse' });
export type CredentialUse = z.infer<typeof CredentialUseSchema>;

export const CredentialUseListSchema = z
  .object({ data: z.array(CredentialUseSchema) })
  .meta({ id: 'CredentialUseList', description: 'Uses, newest first (the last 200)' });

export const IMPORT_FORMATS = ['chrome', 'firefox', 'safari', 'bitwarden', '1password', 'keepassxc'] as const;

/**
 * What one import takes: entries of the file (logins and skipped entries alike; a browser's export of a few thousand
 * logins fits), and the request's body (about 1.5 KB an entry, JSON-escaped or base64, at that many).
 */
export const MAX_IMPORT_ENTRIES = 5000;
export const MAX_IMPORT_BODY_BYTES = 8 * 1024 * 1024;

export const CredentialImportRequestSchema = z
  .object({
    format: z.enum(IMPORT_FORMATS),
    content: z
      .string()
      .min(1, 'content is required')
      .max(MAX_IMPORT_BODY_BYTES)
      .describe(
        `The export file: its text, or base64 with encoding "base64" (a 1Password .1pux); at most ${MAX_IMPORT_ENTRIES} entries`,
      ),
    encoding: z.enum(['utf8', 'base64']).default('utf8'),
    dryRun: z.boolean().default(true).describe('true (default): only the preview; false: save what the preview lists'),
    shareWith: shareWith.default('all'),
  })
  .meta({ id: 'CredentialImportRequest' });
export type CredentialImportRequest = z.infer<typeof CredentialImportRequestSchema>;

export const CredentialImportResultSchema = z
  .object({
    dryRun: z.boolean(),
    created: z.number().int(),
    merged: z.number().int(),
    skipped: z.number().int(),
    items: z.array(
      z.object({
        at: z.string().describe('Where in the file: "line 7" or "item 3"'),
        label: z.string(),
        origin: z.string().nullable(),
        username: z.string(),
        action: z.enum(['create', 'merge', 'skip']),
        reason: z.string().optional(),
        id: z.string().optional().describe('The saved login made or merged into (not on a dry run’s creates)'),
      }),
    ),
  })
  .meta({ id: 'CredentialImportResult', description: 'What an import creates, merges and skips; never a secret' });
export type CredentialImportResult = z.infer<typeof CredentialImportResultSchema>;
