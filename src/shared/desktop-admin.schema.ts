// Zod schemas of the desktop-only admin channels: API keys, organizations and credits of the whole
// installation, the core's settings (config.json), the theme and the agents' API status. They have no
// HTTP route on purpose: an API key belongs to one organization and must not mint keys for others or
// point the core at another browser program; only the person at the desktop window may. Pure: zod only.
import { z } from 'zod';
import { ALL_SCOPES, SCOPES } from './scopes.js';

export const THEMES = ['system', 'light', 'dark'] as const;
export type Theme = (typeof THEMES)[number];
export const ThemeSchema = z.enum(THEMES);

const Id = z.string().trim().min(1).max(64);

// ---------------------------------------------------------------------------------------------
// API keys and organizations

/** A key as listed: never its plaintext or hash. */
export const ApiKeySummarySchema = z.object({
  id: z.string(),
  org_id: z.string(),
  name: z.string(),
  /** `pk_` and the first characters, to recognise a key. */
  prefix: z.string(),
  scopes: z.array(z.string()),
  created_at: z.number(),
  last_used_at: z.number().nullable(),
  expires_at: z.number().nullable(),
  revoked_at: z.number().nullable(),
  /** The key this window uses: revoking it here is refused (the window would lock itself out). */
  desktop: z.boolean(),
});
export type ApiKeySummary = z.infer<typeof ApiKeySummarySchema>;

export const KEY_SCOPES = [ALL_SCOPES, ...SCOPES] as const;

export const KeyListArgsSchema = z.object({ orgId: Id }).strict();
export const KeyCreateArgsSchema = z
  .object({
    orgId: Id,
    name: z.string().trim().max(100, 'at most 100 characters').default(''),
    scopes: z.array(z.enum(KEY_SCOPES)).min(1, 'choose at least one scope').max(KEY_SCOPES.length),
    /** Days until the key stops working; null or absent: never. */
    expiresInDays: z.number().int().min(1).max(3650).nullable().optional(),
  })
  .strict();
export type KeyCreateArgs = z.input<typeof KeyCreateArgsSchema>;
/** The new key: `key` is its plaintext, shown this once and never again. */
export const CreatedKeySchema = z.object({ key: z.string(), info: ApiKeySummarySchema });
export const KeyRevokeArgsSchema = z.object({ id: Id }).strict();

export const OrgSummarySchema = z.object({
  id: z.string(),
  name: z.string(),
  created_at: z.number(),
  balance: z.number(),
  /** Keys that still work (not revoked, not expired). */
  active_keys: z.number(),
  /** The organization of this window's key: its mailboxes, templates and generations are the ones shown. */
  desktop: z.boolean(),
  /** The person lets its keys (with browser-profiles:read) read their browser profiles (docs/security.md#the-browser-profiles-are-the-persons). */
  browser_profiles: z.boolean(),
});
export type OrgSummary = z.infer<typeof OrgSummarySchema>;
export const OrgListSchema = z.object({ data: z.array(OrgSummarySchema) });
export const OrgCreateArgsSchema = z
  .object({
    name: z
      .string()
      .trim()
      .regex(/^[\w .@-]{1,64}$/, '1-64 letters, digits, spaces, dots, dashes, @ or underscores'),
  })
  .strict();
export const OrgRefArgsSchema = z.object({ orgId: Id }).strict();
export const CreditGrantArgsSchema = z
  .object({ orgId: Id, amount: z.number().int().min(1, 'at least 1').max(1_000_000_000) })
  .strict();

// ---------------------------------------------------------------------------------------------
// The core's settings (config.json in the data folder), applied by restarting the core

const S3View = z.object({
  bucket: z.string(),
  region: z.string(),
  endpoint: z.string().nullable(),
  forcePathStyle: z.boolean(),
});

/** What the Settings screen edits, as the running core uses it. */
export const CoreSettingsSchema = z.object({
  server: z.object({ port: z.number().int() }),
  storage: z.object({
    backend: z.enum(['local', 's3']),
    s3: S3View.nullable(),
    /** Whether an access key id and secret are kept in the secret store (they are never shown). */
    s3HasCredentials: z.boolean(),
  }),
  browser: z.object({
    executablePath: z.string().nullable(),
    connectEndpoint: z.string().nullable(),
    maxContexts: z.number().int(),
  }),
  jobs: z.object({
    /** Null: automatic (one per 2 cores, at least 1). */
    renderConcurrency: z.number().int().nullable(),
    renderConcurrencyAuto: z.number().int(),
  }),
});
export type CoreSettings = z.infer<typeof CoreSettingsSchema>;

export const DesktopSettingsSchema = z.object({
  core: CoreSettingsSchema,
  dataDir: z.string(),
  configFile: z.string(),
  /** Settings an environment variable fixes (`server.port` -> `AGENT_STUDIO_PORT`): edit the variable instead. */
  lockedByEnv: z.record(z.string(), z.string()),
  theme: ThemeSchema,
  /**
   * The browser "Find one automatically" finds on this computer now (a Playwright-installed one first, then
   * Chrome, Chromium, Edge or Brave), or null with why none was found.
   */
  autoBrowser: z.union([
    z.object({ found: z.literal(true), path: z.string(), source: z.enum(['playwright', 'system']) }),
    z.object({ found: z.literal(false), problem: z.string() }),
  ]),
});
export type DesktopSettings = z.infer<typeof DesktopSettingsSchema>;

const HOST_URL = /^(wss?|https?):\/\/[^\s/]+/i;

/** An S3 bucket for stored files (Settings > Storage, and its connection test). */
const S3SettingsSchema = z
  .object({
    bucket: z.string().trim().min(1, 'bucket is required').max(63),
    region: z.string().trim().min(1).max(64).default('us-east-1'),
    endpoint: z
      .string()
      .trim()
      .regex(/^https?:\/\/\S+$/i, 'must be an http:// or https:// address')
      .max(2048)
      .nullable()
      .optional(),
    forcePathStyle: z.boolean().default(false),
    /** Kept in the secret store, never in config.json; absent keeps the stored ones. */
    accessKeyId: z.string().min(1).max(256).optional(),
    secretAccessKey: z.string().min(1).max(256).optional(),
  })
  .strict();

/** A change to the core's settings; a field left out stays as it is, null goes back to the default. */
export const CoreSettingsPatchSchema = z
  .object({
    server: z
      .object({ port: z.number().int().min(0).max(65535) })
      .strict()
      .optional(),
    storage: z
      .object({
        backend: z.enum(['local', 's3']),
        s3: S3SettingsSchema.optional(),
      })
      .strict()
      .optional(),
    browser: z
      .object({
        executablePath: z.string().trim().min(1).max(4096).nullable().optional(),
        connectEndpoint: z
          .string()
          .trim()
          .regex(HOST_URL, 'must be a ws://, wss://, http:// or https:// address')
          .max(2048)
          .nullable()
          .optional(),
        maxContexts: z.number().int().min(1).max(32).optional(),
      })
      .strict()
      .optional(),
    jobs: z
      .object({ renderConcurrency: z.number().int().min(0).max(64).nullable() })
      .strict()
      .optional(),
  })
  .strict();
export type CoreSettingsPatch = z.input<typeof CoreSettingsPatchSchema>;

export const SettingsUpdateResultSchema = z.object({
  settings: DesktopSettingsSchema,
  /** Whether the core was restarted to apply the change (it is whenever something changed). */
  restarted: z.boolean(),
  serverUrl: z.string().nullable(),
  serverError: z.string().nullable(),
});

/** Testing S3 settings before saving them; absent keys mean the ones in the secret store. */
export const StorageTestArgsSchema = S3SettingsSchema;
export const StorageTestResultSchema = z.object({ ok: z.boolean(), message: z.string(), ms: z.number() });

// ---------------------------------------------------------------------------------------------
// The agents' API, as seen from outside the process

export const ApiStatusSchema = z.object({
  /** up: /healthz answered over HTTP; down: it did not (see message); off: not listening; restarting. */
  state: z.enum(['up', 'down', 'off', 'restarting']),
  url: z.string().nullable(),
  message: z.string().nullable(),
  checked_at: z.number(),
});
export type ApiStatus = z.infer<typeof ApiStatusSchema>;
