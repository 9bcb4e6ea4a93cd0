import { z } from 'zod';
import { httpUrlString } from './http-url.schema.js';

export const LOGIN_METHODS = ['password', 'oauth_google', 'otp_email', 'magic_link'] as const;
/** Announced by the spec as "in development": answered with a clear 400, never a 500. */
export const ANNOUNCED_LOGIN_METHODS = ['oauth_github', 'otp_sms', 'totp'] as const;

/** The login page; `min(1)` first so an empty string says "required". */
const httpUrl = z.string().trim().min(1, 'domain is required').pipe(httpUrlString('domain'));

export const LoginRequestSchema = z
  .object({
    cred: z.object({
      username: z.string().max(512).default(''),
      password: z.string().max(4096).default(''),
      totpSecret: z
        .string()
        .max(2048)
        .optional()
        .describe('Authenticator secret (base32, or an otpauth:// URI) for loginMethod totp and sites that ask a TOTP'),
    }),
    loginMethod: z.string().min(1).default('password'),
    domain: httpUrl,
    additionalFields: z.record(z.string().max(256), z.string().max(4096)).default({}),
    useCache: z.boolean().default(true),
  })
  .meta({ id: 'LoginRequest' });
export type LoginRequest = z.infer<typeof LoginRequestSchema>;

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

export const OriginStateSchema = z
  .object({
    origin: z.string(),
    localStorage: z.array(z.object({ name: z.string(), value: z.string() })),
  })
  .meta({ id: 'OriginState' });

export const StorageStateSchema = z
  .object({ cookies: z.array(CookieSchema), origins: z.array(OriginStateSchema) })
  .meta({
    id: 'StorageState',
    description: 'Playwright storageState: pass it to browser.newContext({ storageState })',
  });
export type StorageState = z.infer<typeof StorageStateSchema>;

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
  })
  .meta({ id: 'SessionSummary' });
export type SessionSummary = z.infer<typeof SessionSummarySchema>;
export const SessionListSchema = z.object({ data: z.array(SessionSummarySchema) });
export const SessionIdParamsSchema = z.object({ id: z.string().min(1).max(64) });
export type SessionList = z.infer<typeof SessionListSchema>;

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
