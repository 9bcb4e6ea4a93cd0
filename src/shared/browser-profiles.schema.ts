// Zod schemas of the import from the person's own browsers (docs/own-browsers-and-passkeys.md#sessions-from-your-own-browsers): the profiles
// found on this machine, and an import of some sites' sessions from one of them. Pure: imports nothing but zod.
import { z } from 'zod';
import { httpUrlString, siteUrlString } from './http-url.schema.js';
import { SESSION_STATUSES, StorageStateSchema } from './login.schema.js';

export const BROWSER_KINDS = ['chrome', 'chromium', 'edge', 'brave', 'firefox'] as const;
export type BrowserKind = (typeof BROWSER_KINDS)[number];

export const BrowserProfileSchema = z
  .object({
    id: z.string().describe('Stable id of the profile (a hash of its browser and path): bp_…'),
    browser: z.enum(BROWSER_KINDS),
    name: z.string().describe('The name the browser shows for the profile'),
    path: z.string().describe("The profile's directory on this machine"),
    origins: z
      .array(z.string())
      .describe('Sites the profile holds cookies for (http and https origins of each cookie host); empty when locked'),
    error: z
      .string()
      .optional()
      .describe(
        'Why the sites could not be listed (e.g. the browser holds the file locked); the import may still work',
      ),
  })
  .meta({ id: 'BrowserProfile' });
export type BrowserProfile = z.infer<typeof BrowserProfileSchema>;

export const BrowserProfileListSchema = z.object({ data: z.array(BrowserProfileSchema) });

export const SessionImportRequestSchema = z
  .object({
    profile: z.string().min(1).max(200).describe('A profile id from GET /api/browser-profiles'),
    sites: z
      .array(siteUrlString('sites[]'))
      .min(1)
      .max(20)
      .describe(
        "The sites whose sessions to import: a URL, or a host as the profile listing shows it (github.com, 127.0.0.1:8080; a bare host is https://, a loopback one http://). Each site's origin; cookies of its registrable domain come along",
      ),
    checkUrl: httpUrlString('checkUrl')
      .optional()
      .describe('A page that needs the session, opened to validate it (default: the site URL given)'),
    credential: z
      .string()
      .min(1)
      .max(200)
      .optional()
      .describe(
        'The saved login (id or label) whose account the profile is signed in to. The session is then filed under ' +
          'that account: a later POST /api/login for the site with that saved login (or its username and password) ' +
          "is served it from the cache, and a refresh or health check renews it with the saved login. Each site's " +
          "origin must be one of the saved login's. Without it the session is kept under the profile's name and " +
          'only GET /api/sessions and its id reach it (the account is unknown).',
      ),
  })
  .strict()
  .meta({ id: 'SessionImportRequest' });
export type SessionImportRequest = z.infer<typeof SessionImportRequestSchema>;

export const ImportedSessionSchema = z
  .object({
    session_id: z.string().nullable().describe('The cached session (null when the check found it dead: not kept)'),
    origin: z.string(),
    valid: z.boolean(),
    status: z.enum(SESSION_STATUSES),
    evidence: z.array(z.string()).describe('What the session check saw (secret-free)'),
    state: StorageStateSchema,
  })
  .meta({ id: 'ImportedSession' });
export type ImportedSession = z.infer<typeof ImportedSessionSchema>;

export const SessionImportResultSchema = z.object({ sessions: z.array(ImportedSessionSchema) });
export type SessionImportResult = z.infer<typeof SessionImportResultSchema>;
