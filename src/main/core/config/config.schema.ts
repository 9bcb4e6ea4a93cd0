import { z } from 'zod';
import { BROWSER_MODES, type BrowserMode } from '../../../shared/login-browser.schema.js';
import { DEFAULT_UPDATE_FEED_URL, UPDATE_CHANNELS, UPDATE_POLICIES } from '../../../shared/updates.schema.js';

const loopbackHost = z
  .string()
  .refine(
    (h) => ['127.0.0.1', 'localhost', '::1'].includes(h),
    'server.host must be a loopback address (127.0.0.1, localhost or ::1)',
  );

/**
 * Where the server may connect on an API key's behalf (media URLs, webhooks, IMAP hosts, result URLs of
 * providers). `private-ok`: public, private and loopback addresses (a local tool whose callers share the
 * machine). `public-only`: public addresses only, for a server whose keys go to less-trusted agents. Both
 * always refuse link-local / cloud-metadata, unspecified, multicast and broadcast addresses (core/net).
 */
export const OUTBOUND_MODES = ['private-ok', 'public-only'] as const;
export type OutboundMode = (typeof OUTBOUND_MODES)[number];
export const DEFAULT_OUTBOUND_MODE: OutboundMode = 'private-ok';

export const ConfigSchema = z.object({
  dataDir: z.string().min(1),
  server: z
    .object({
      host: loopbackHost.default('127.0.0.1'),
      port: z.number().int().min(0).max(65535).default(4780),
      /** JSON body limit for ordinary routes. */
      bodyLimitBytes: z
        .number()
        .int()
        .positive()
        .default(1024 * 1024),
      rateLimit: z
        .object({
          /** Sustained requests per second for one API key, and the bucket size (burst). */
          perKeyPerSecond: z.number().positive().default(100),
          perKeyBurst: z.number().int().positive().default(200),
          /** Requests without a valid key share a much smaller bucket (slows key guessing). */
          unauthenticatedPerMinute: z.number().positive().default(60),
        })
        .default({ perKeyPerSecond: 100, perKeyBurst: 200, unauthenticatedPerMinute: 60 }),
    })
    .prefault({}),
  log: z
    .object({ level: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info') })
    .prefault({}),
  secrets: z
    .object({
      /**
       * `auto`: the OS keychain when reachable, else an AES-256-GCM file with a generated key in the data dir.
       * `keychain`: only the keychain. `file`: only the file (key from the environment, else generated).
       */
      backend: z.enum(['auto', 'keychain', 'file']).default('auto'),
      masterKeyEnv: z.string().default('AGENT_STUDIO_MASTER_KEY'),
      /**
       * Service name in the OS keychain. Unset, AGENT_STUDIO_SECRETS_SERVICE, else `agent-studio`: read when a config
       * is parsed (not only by loadConfig's environment layer), so every core of a process agrees on it, those built
       * from parseConfig too (the test suite gives its run a service of its own this way).
       */
      service: z.string().default(() => process.env.AGENT_STUDIO_SECRETS_SERVICE || 'agent-studio'),
    })
    .prefault({}),
  browser: z
    .object({
      executablePath: z.string().optional(),
      /**
       * The login browser of a request that names none, and whose saved login names none (docs/login-service.md#bot-walls):
       * headless, headed (a window kept off-screen; on Linux without a display, an Xvfb the app starts) or own-chrome
       * (the installed Chrome, Edge or Chromium). Unset: headless, or headed where an older config says headless: false.
       */
      mode: z.enum(BROWSER_MODES).optional(),
      /** Older spelling: false stands for mode "headed" when mode is not set (defaultBrowserMode). */
      headless: z.boolean().default(true),
      maxContexts: z.number().int().min(1).max(32).default(4),
      /** ws:// (Playwright server) or http(s):// (CDP) endpoint of a remote browser instead of launching one. */
      connectEndpoint: z.string().optional(),
      /**
       * Do not load images, media and fonts during a login (faster, less memory). URLs that name a
       * captcha still load. Turn off for a site that needs them to show its login form.
       */
      blockResources: z.boolean().default(true),
    })
    .prefault({}),
  login: z
    .object({
      timeoutMs: z.number().int().min(1000).max(600_000).default(60_000),
      /** How long a login waits for an emailed/texted code or sign-in link (not counted in timeoutMs). */
      codeTimeoutMs: z.number().int().min(1000).max(900_000).default(120_000),
      /**
       * The identity providers' own origins: their password is typed only there (a login that is sent
       * anywhere else stops with unexpected_identity_provider). Change for tests or a company proxy.
       */
      oauth: z
        .object({
          google: z
            .object({ origins: z.array(z.string().url()).min(1).default(['https://accounts.google.com']) })
            .prefault({}),
          github: z.object({ origins: z.array(z.string().url()).min(1).default(['https://github.com']) }).prefault({}),
        })
        .prefault({}),
      /**
       * Origins that may show the live takeover page in a frame (CSP frame-ancestors): the desktop app adds its
       * window's. Default none: the page refuses every frame.
       */
      livePageEmbedders: z
        .array(z.string().regex(/^[a-z][a-z0-9+.-]*:\/\/[^\s/;,'"*]+$/i, 'an origin: scheme://host[:port]'))
        .max(10)
        .default([]),
      /** A cached session older than this is never returned, even if its cookies live longer. */
      cacheMaxAgeSec: z
        .number()
        .int()
        .min(0)
        .default(24 * 3600),
    })
    .prefault({}),
  storage: z
    .object({
      backend: z.enum(['local', 's3']).default('local'),
      /** Lifetime of presigned upload and download URLs. */
      urlTtlSec: z
        .number()
        .int()
        .min(10)
        .max(7 * 24 * 3600)
        .default(900),
      /** Downloading media given as http(s) URLs (generate): total time limit and redirects followed. */
      download: z
        .object({
          timeoutMs: z.number().int().min(50).max(600_000).default(30_000),
          maxRedirects: z.number().int().min(0).max(10).default(3),
        })
        .prefault({}),
      s3: z
        .object({
          bucket: z.string(),
          region: z.string().default('us-east-1'),
          endpoint: z.string().optional(),
          forcePathStyle: z.boolean().default(false),
          /** Keychain account names holding the access key id and secret (never in the config file). */
          accessKeyIdSecret: z.string().default('s3.accessKeyId'),
          secretAccessKeySecret: z.string().default('s3.secretAccessKey'),
        })
        .optional(),
    })
    .prefault({}),
  jobs: z
    .object({
      /** Local renders (ffmpeg) at once; default one per 2 cores, at least 1. 0 pauses local rendering. */
      renderConcurrency: z.number().int().min(0).max(64).optional(),
      /** Jobs that only wait on HTTP (hosted providers, webhook deliveries) at once. */
      ioConcurrency: z.number().int().min(1).max(256).default(16),
    })
    .prefault({}),
  generation: z
    .object({
      /** Time limit of one attempt to make a video; past it the generation fails (refunded). */
      timeoutSec: z
        .number()
        .int()
        .min(1)
        .max(24 * 3600)
        .default(900),
      /** Finished videos and thumbnails are kept this long, then deleted (the record stays). */
      retentionDays: z.number().min(0).max(3650).default(30),
    })
    .prefault({}),
  webhooks: z
    .object({
      /**
       * Seconds before each attempt of a callback, counted from the previous failed one (Standard
       * Webhooks' schedule: at once, 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 14 h, 20 h, 24 h); its
       * length is the number of attempts. Each wait gets +-10 % jitter.
       */
      retryScheduleSec: z
        .array(
          z
            .number()
            .min(0)
            .max(7 * 24 * 3600),
        )
        .min(1)
        .max(50)
        .default([0, 5, 300, 1800, 7200, 18000, 36000, 50400, 72000, 86400]),
      /** A receiver that has not answered in this time counts as a failed attempt (retried). */
      timeoutMs: z.number().int().min(10).max(120_000).default(15_000),
    })
    .prefault({}),
  network: z.object({ outbound: z.enum(OUTBOUND_MODES).default(DEFAULT_OUTBOUND_MODE) }).prefault({}),
  mcp: z
    .object({
      /**
       * Whether the MCP login tool accepts inline `cred` (the password in the model's context). Off: agents log
       * in only by a saved login's id or label (docs/saved-logins.md).
       */
      allowInlineCredentials: z.boolean().default(false),
      /**
       * Whether the login tools also write a takeover link in their text content (what the model reads and hosts
       * keep in transcripts). Off: the link, which carries the live page's token, is only in structuredContent
       * (and the desktop window); the text says where to find it.
       */
      takeoverLinksInContent: z.boolean().default(true),
    })
    .prefault({}),
  /**
   * Where the person's own browser profiles are looked for (docs/own-browsers-and-passkeys.md#sessions-from-your-own-browsers): home
   * directories, each searched at every browser's usual per-OS paths. Default: this user's home.
   */
  browserProfiles: z.object({ roots: z.array(z.string().min(1)).max(20).optional() }).prefault({}),
  /** Video model providers (keys live in the secret store: `npm run -s cli -- providers set-key fal`). */
  providers: z
    .object({
      fal: z.object({ baseUrl: z.url().default('https://queue.fal.run') }).prefault({}),
      replicate: z.object({ baseUrl: z.url().default('https://api.replicate.com/v1') }).prefault({}),
      comfyui: z.object({ baseUrl: z.url().default('http://127.0.0.1:8188') }).prefault({}),
      /** Time between status polls of a running job. */
      pollIntervalMs: z.number().int().min(10).max(60_000).default(1000),
    })
    .prefault({}),
  /**
   * The desktop app's updates (core/desktop/update-service.ts; the headless server never updates itself). `policy`
   * and `channel` are set in Settings → Updates; `feedUrl` is the folder holding electron-updater's latest.yml /
   * beta.yml and the installers (default: the GitHub releases of the repository electron-builder.yml publishes to).
   */
  updates: z
    .object({
      policy: z.enum(UPDATE_POLICIES).default('ask'),
      channel: z.enum(UPDATE_CHANNELS).default('stable'),
      feedUrl: z.url({ protocol: /^https?$/ }).default(DEFAULT_UPDATE_FEED_URL),
      checkEveryHours: z.number().min(1).max(168).default(6),
    })
    .prefault({}),
});

export type AppConfig = z.infer<typeof ConfigSchema>;

/** The login browser's mode when neither the request nor its saved login chooses one (config `browser.mode`). */
export function defaultBrowserMode(browser: Pick<AppConfig['browser'], 'mode' | 'headless'>): BrowserMode {
  return browser.mode ?? (browser.headless ? 'headless' : 'headed');
}
/** What a user may write in config.json or pass programmatically (everything optional but dataDir). */
export type AppConfigInput = z.input<typeof ConfigSchema>;
