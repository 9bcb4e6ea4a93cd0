import { z } from 'zod';
import { PasskeyCreatedSchema } from './credentials.schema.js';
import { httpUrlString } from './http-url.schema.js';
import { StorageStateSchema } from './login.schema.js';

/** How the new account signs in: its password (the default), or a passkey the sign-up registers. */
export const SIGNUP_METHODS = ['password', 'passkey'] as const;

/** The sign-up page (or a login page that links to it); `min(1)` first so an empty string says "required". */
const signupUrl = z.string().trim().min(1, 'domain is required').pipe(httpUrlString('domain'));

/**
 * POST /api/signup: the body of POST /api/login without useCache (a sign-up is always done fresh in a
 * browser). The password is the new account's: it goes into every new-password field. loginMethod "passkey"
 * makes the account with a passkey kept in a saved login; the password is then optional.
 */
export const SignupRequestSchema = z
  .object({
    credential: z
      .string()
      .trim()
      .min(1)
      .max(200)
      .optional()
      .describe('A saved login (id or label) whose username, password and additional fields make the new account'),
    cred: z
      .object({
        username: z
          .string()
          .trim()
          .min(1, 'cred.username is required')
          .max(512)
          .describe('The new account: an email address (the verification mail goes there) or a user name'),
        password: z
          .string()
          .min(1, 'cred.password is required')
          .max(4096)
          .optional()
          .describe(
            'The new account password (required for loginMethod password; with passkey, used only when the form asks for one, else generated)',
          ),
      })
      .optional(),
    loginMethod: z
      .enum(SIGNUP_METHODS)
      .default('password')
      .describe(
        'password (default): the account signs in with cred.password. passkey: the sign-up registers a passkey in a ' +
          'virtual authenticator (the form\'s passkey control, or the site\'s "create a passkey" page after it) and ' +
          'keeps it in a saved login (the answer names it: credential, passkey)',
      ),
    domain: signupUrl
      .optional()
      .describe(
        'The sign-up page, or a login page with a "Sign up" / "Create account" link (with credential: default its loginUrl)',
      ),
    additionalFields: z
      .record(z.string().max(256), z.string().max(4096))
      .default({})
      .describe(
        'Other fields of the sign-up form, matched by key against name, id, label or placeholder: name (or ' +
          'firstName and lastName), company, phone …; email when cred.username is not an email address',
      ),
  })
  .superRefine((v, ctx) => {
    if (v.cred !== undefined && v.credential !== undefined)
      ctx.addIssue({ code: 'custom', path: ['credential'], message: 'give either cred or credential, not both' });
    else if (v.cred === undefined && v.credential === undefined)
      ctx.addIssue({ code: 'custom', path: ['cred'], message: 'cred is required (or credential: a saved login)' });
    else if (v.cred !== undefined && v.domain === undefined)
      ctx.addIssue({ code: 'custom', path: ['domain'], message: 'domain is required' });
    if (v.cred !== undefined && v.cred.password === undefined && v.loginMethod === 'password')
      ctx.addIssue({ code: 'custom', path: ['cred', 'password'], message: 'cred.password is required' });
  })
  .meta({ id: 'SignupRequest' });
/** The body of POST /api/signup as sent: inline `cred` or a saved login's reference. */
export type SignupRequestBody = z.infer<typeof SignupRequestSchema>;
/** A sign-up with the new account's credentials in hand (a passkey sign-up's password may be generated). */
export type SignupRequest = Omit<SignupRequestBody, 'cred' | 'credential' | 'domain'> & {
  cred: { username: string; password: string };
  domain: string;
};

/**
 * The answer: the new account's Playwright storageState; a passkey sign-up adds the saved login that keeps the
 * passkey and the passkey's metadata (never its key). Extra top-level keys are ignored by browser.newContext.
 */
export const SignupAnswerSchema = StorageStateSchema.extend({
  credential: z
    .string()
    .optional()
    .describe(
      'loginMethod passkey: the saved login (cred_…) holding the passkey; POST /api/login {credential} uses it',
    ),
  passkey: PasskeyCreatedSchema.optional().describe('loginMethod passkey: the passkey the site registered'),
}).meta({ id: 'SignupAnswer' });
export type SignupAnswer = z.infer<typeof SignupAnswerSchema>;
