// Which part of src/main/core may import which: the allow-list enforced by the ESLint rule `layers/core-folders`
// (scripts/eslint-layers.mjs), in the spirit of Chromium's DEPS files checked by check_deps.
//
// A key of CORE_DEPS is a "unit" of the core, named relative to src/main/core: a folder ('login/engine') or a
// single file ('errors.ts'). A file belongs to the longest key that contains it, so 'login/engine/form-finder.ts' is
// in 'login/engine' and 'login/login-types.ts' is its own unit, apart from the rest of 'login'.
// The value lists the units that the key's files may import. Files of one unit may always import each other;
// '*' means any unit of the core. `import type` counts like any other import: type circles are circles too.
// A file or folder of the core that no key covers is reported until it is added here.
// Imports from outside the core (src/shared, npm packages) are the business of `layers/boundaries`, not of this table.
//
// Besides the table: a route module (`*.routes.ts`) is imported only by the route list, ROUTE_LIST (routes.ts), and
// may also import the HTTP layer (ROUTE_MODULE_MAY_ALSO_IMPORT, at the end of this file), nothing more of its feature.
//
// The table describes the target (docs/architecture.md): composition at the top (create-core.ts, routes.ts,
// run-server.ts), then the in-process clients (mcp, desktop), the features (login, video), http, the low level
// (config, db, secrets, net, tenancy, jobs) and the kernel files at the bottom.

/** Kernel: imported by everything, imports no other unit of the core (only the kernel files before it). */
const KERNEL = ['lazy-module.ts', 'errors.ts', 'ids.ts', 'logger.ts', 'events.ts', 'child-process.ts', 'fs'];
/** Low level: imports the kernel and, where a real dependency exists, each other. */
const LOW = ['config', 'db', 'secrets', 'net', 'tenancy', 'jobs'];
/** Leaf files of login (they import no other part of login but codes): any part of login may use them. */
const LOGIN_LEAVES = ['login/login-types.ts', 'login/passkeys/passkey-types.ts', 'login/browser/browser-resolver.ts'];
/** What a feature (login, video) may use outside itself. */
const FEATURE_BASE = [...KERNEL, ...LOW, 'base-core.ts', 'http'];
/** The named groups above, as docs/architecture.md's generated table abbreviates them (largest first). */
export const UNIT_GROUPS = { FEATURE_BASE, KERNEL, LOW, 'login leaves': LOGIN_LEAVES };

export const CORE_DEPS = {
  // § kernel, in order: each may import only the ones above it here
  'lazy-module.ts': [], // optional libraries loaded on first use (imports no other part of the core)
  // AppError and its shorthands
  'errors.ts': [],
  // random base62 ids
  'ids.ts': ['errors.ts'],
  // pino to the data dir, redaction, LogSink
  'logger.ts': ['errors.ts', 'ids.ts'],
  // the core's event bus
  'events.ts': ['errors.ts', 'ids.ts', 'logger.ts'],
  // how child processes are started
  'child-process.ts': ['errors.ts', 'ids.ts', 'logger.ts'],
  // replacing and moving files with the retry Windows needs while another program holds one (imports nothing)
  fs: [],
  // V8's heap setting, imported only by the Electron entry (outside the core); imports nothing of the core
  'tune-heap.ts': [],
  // which signals mean a graceful shutdown, per platform: imported by the entries outside the core; imports nothing
  'shutdown-signals.ts': [],

  // § low level: storage, secrets, the network policy, organizations and keys, the job queue
  config: KERNEL,
  // SQLite and the migrations
  db: KERNEL,
  // the OS keychain or the encrypted file, the vault file
  secrets: [...KERNEL, 'config', 'db'],
  // where the server may connect (the outbound policy), its HTTP client and proxy
  net: [...KERNEL, 'config'],
  // organizations, API keys, credits
  tenancy: [...KERNEL, 'db'],
  // the persistent job queue
  jobs: [...KERNEL, 'db'],

  // backup and restore of a whole data dir with its secrets (the CLI builds the core; this never imports it)
  backup: [...KERNEL, 'db', 'secrets'],

  // the BaseCore type the features are built on: the kernel and the low level, never a feature
  'base-core.ts': [...KERNEL, ...LOW],

  // Standard Webhooks as both features send them: one deliveries table and one delivery job for every kind of event
  // (a feature supplies its kind: receiver, body, names), signing secrets, signing, one POST, the retry rule, URL masking
  webhooks: [...KERNEL, 'config', 'db', 'secrets', 'net', 'jobs'],

  // the HTTP server and its plugins: never a feature, never the composition (create-core.ts, routes.ts)
  http: [...KERNEL, 'base-core.ts', 'config', 'secrets', 'tenancy'],

  // § login: never video, mcp, desktop or the composition; rooms bottom up, each imports only rooms above it
  // the login's public types (requests, results, failures) and redaction
  'login/login-types.ts': [...KERNEL, 'login/codes', 'login/passkeys/passkey-types.ts'],
  // the login methods (LOGIN_METHODS) and what each needs
  'login/login-methods.ts': [...KERNEL, 'login/codes'],
  // a saved login's passkeys as the engine uses them
  'login/passkeys/passkey-types.ts': [],
  // passkeys: the virtual authenticator (CDP WebAuthn) and the page heuristics for passkey controls and settings pages
  'login/passkeys': [...KERNEL, ...LOW, ...LOGIN_LEAVES],
  // where the browser is on this computer: the login feature launches it, Settings says which one it found
  'login/browser/browser-resolver.ts': KERNEL,
  // the browser: the pool of isolated contexts, its priority and sandbox, the lazy start, the outbound URL check
  'login/browser': [...KERNEL, ...LOW, ...LOGIN_LEAVES],
  'login/codes': [...KERNEL, ...LOW], // never login/mailboxes: the mailboxes feed the codes, not the reverse
  // what a page is: forms, signals, storage, egress (used by the steps, the flow and every later check of a page)
  'login/engine': [...KERNEL, ...LOW, ...LOGIN_LEAVES],
  // one step of a login per file: identifier, password, code, link, OAuth, passkey, …
  'login/steps': [...KERNEL, ...LOW, ...LOGIN_LEAVES, 'login/engine', 'login/codes', 'login/passkeys'],
  // the login engine: one browser context's login (LoginEngine) and its step loop (LoginFlow)
  'login/flow': [...KERNEL, ...LOW, ...LOGIN_LEAVES, 'login/engine', 'login/steps', 'login/codes', 'login/passkeys'],
  // a person finishes a stopped login (the desktop window; the live page in takeover builds on it)
  'login/interactive': [...KERNEL, ...LOW, ...LOGIN_LEAVES, 'login/browser', 'login/engine', 'login/flow'],
  // a person finishes a stuck login from any browser: the live view's server side, and its page (pure strings)
  'login/takeover': [...FEATURE_BASE, ...LOGIN_LEAVES, 'login/engine', 'login/interactive', 'login/takeover/live-page'],
  // the live page's HTML, CSS and script
  'login/takeover/live-page': [],
  // a session: the encrypted cache of storage states, and the login service (a cache hit or a fresh login)
  'login/sessions': [
    ...KERNEL,
    ...LOW,
    ...LOGIN_LEAVES,
    'login/login-methods.ts',
    'login/browser',
    'login/codes',
    'login/engine', // the auth-cookie rule: which cookies a session is kept in
    'login/interactive',
  ],
  // IMAP mailboxes that otp_email and magic_link logins read codes and links from
  'login/mailboxes': [...FEATURE_BASE, 'login/codes'],
  // saved logins: the vault owns a site's credentials; the export parsers are pure (no core at all)
  'login/vault': [
    ...FEATURE_BASE,
    ...LOGIN_LEAVES,
    'login/login-methods.ts',
    'login/browser',
    'login/codes',
    'login/flow',
    'login/passkeys',
    'login/sessions',
    'login/vault/import',
  ],
  // the password managers' export parsers and the import plan
  'login/vault/import': [],
  // session validation, refresh with saved logins, background health checks
  'login/lifecycle': [
    ...FEATURE_BASE,
    ...LOGIN_LEAVES,
    'login/browser',
    'login/engine',
    'login/sessions',
    'login/vault',
  ],
  // logins with an id: POST /api/login as a whole, the board (GET /api/login/{id}), async logins, cancel
  'login/runs': [...FEATURE_BASE, ...LOGIN_LEAVES, 'login/lifecycle', 'login/sessions', 'login/vault'],
  // sessions from the person's own browsers: profiles read from a copy into the session cache, checked by lifecycle,
  // filed under a saved login (the vault) when the person names the account
  'login/profiles': [...FEATURE_BASE, ...LOGIN_LEAVES, 'login/lifecycle', 'login/sessions', 'login/vault'],
  // POST /api/signup: account creation with email verification
  'login/signup': [
    ...FEATURE_BASE,
    ...LOGIN_LEAVES,
    'login/browser',
    'login/engine',
    'login/steps',
    'login/flow',
    'login/codes',
    'login/runs',
    'login/sessions',
    'login/vault',
    // a passkey sign-up: the virtual authenticator, the passkey controls and the "create a passkey" pages
    'login/passkeys',
  ],
  // login events POSTed to the organization's login webhook URL (it listens to the bus, imports no other part of login)
  'login/webhooks': [...FEATURE_BASE, 'webhooks'],
  // login.routes.ts: POST /api/login, the sessions, the inbox, cancel
  login: [
    ...FEATURE_BASE,
    ...LOGIN_LEAVES,
    'login/login-methods.ts',
    'login/codes',
    'login/lifecycle',
    'login/runs',
    'login/sessions',
    'login/takeover',
  ],
  // the composition of the feature: builds every room (its only importer is create-core.ts)
  'login/login.feature.ts': [
    ...FEATURE_BASE,
    ...LOGIN_LEAVES,
    'login/login-methods.ts',
    'login/browser',
    'login/codes',
    'login/flow',
    'login/interactive',
    'login/lifecycle',
    'login/mailboxes',
    'login/runs',
    'login/sessions',
    'login/signup',
    'login/takeover',
    'login/vault',
  ],

  // § video: never login, mcp, desktop or the composition
  // the shipped templates and characters (the resources folder)
  'video/resources.ts': KERNEL,
  // what a generation costs: GET /api/pricing (templates) and every quote and charge (generations)
  'video/pricing.ts': KERNEL,
  // frame sizes of resolution names and aspect ratios, frame rates (pure)
  'video/pipeline/resolutions.ts': KERNEL,
  // the local renderer's measured speed on this machine (pure: the renderer records, the estimates read)
  'video/pipeline/renderers/ffmpeg/render-speed.ts': [...KERNEL, 'video/pipeline/resolutions.ts'],
  // what renders a template or generation (local renderer or hosted provider), as templates and generations show it,
  // and how long it takes there
  'video/renderer.ts': [...KERNEL, 'video/pipeline/resolutions.ts', 'video/pipeline/renderers/ffmpeg/render-speed.ts'],
  // what a file is, from its first bytes: the API's uploads and MCP's upload_file detect types alike
  'video/uploads/media-sniffer.ts': KERNEL,
  // signed callbacks of finished generations: deliveries, log, replay
  'video/webhooks': [...FEATURE_BASE, 'webhooks', 'video/resources.ts'],
  // templates with typed variables; GET /api/pricing
  'video/templates': [...FEATURE_BASE, 'video/resources.ts', 'video/pricing.ts', 'video/renderer.ts'],
  // presigned uploads, media ingest and probing, the blob stores
  'video/uploads': [...FEATURE_BASE, 'video/resources.ts', 'video/templates', 'video/uploads/media-sniffer.ts'],
  // the render and provider jobs, the local renderer and the hosted providers (no route modules, no http)
  'video/pipeline': [
    ...KERNEL,
    ...LOW,
    'video/resources.ts',
    'video/uploads',
    'video/uploads/media-sniffer.ts',
    'video/pipeline/resolutions.ts',
    'video/pipeline/renderers/ffmpeg/render-speed.ts',
  ],
  // characters: a name, a portrait, a voice
  'video/characters': [...FEATURE_BASE, 'video/resources.ts', 'video/templates', 'video/uploads'],
  // generate and quote, generation records, cancel, deadlines, idempotency
  'video/generations': [
    ...FEATURE_BASE,
    'webhooks',
    'video/resources.ts',
    'video/pricing.ts',
    'video/renderer.ts',
    'video/characters',
    'video/pipeline',
    'video/templates',
    'video/uploads',
    'video/webhooks',
  ],
  // the pipeline as the feature builds it: the render and provider jobs, settled through the generations service
  'video/create-pipeline.ts': [
    ...KERNEL,
    ...LOW,
    'base-core.ts',
    'video/resources.ts',
    'video/pipeline',
    'video/generations',
    'video/uploads',
  ],
  // video.feature.ts (the composition of the feature) and credits.routes.ts
  video: [
    // video.feature.ts: assembles the video feature
    ...FEATURE_BASE,
    'video/resources.ts',
    'video/pricing.ts',
    'video/characters',
    'video/generations',
    'video/pipeline',
    'video/create-pipeline.ts',
    'video/templates',
    'video/uploads',
    'video/webhooks',
  ],

  // § in-process clients of the API: http, the core's types, the low level; never a feature, none imported by one
  // MCP: the tools over stdio and POST /mcp, each calling a route in process
  mcp: [...KERNEL, ...LOW, 'base-core.ts', 'create-core.ts', 'http', 'video/uploads/media-sniffer.ts'],
  // what the Electron layer needs, in plain Node (browser-resolver: Settings says which browser it found)
  desktop: [...KERNEL, ...LOW, 'base-core.ts', 'create-core.ts', 'http', 'login/browser/browser-resolver.ts', 'backup'],

  // § composition: builds the core, lists the routes, runs the server
  'create-core.ts': ['*'],
  // the route list
  'routes.ts': ['*'],
  // listen, record the address, shut down
  'run-server.ts': ['*'],
};

/** The only file of the core that may import a route module (`*.routes.ts`). */
export const ROUTE_LIST = 'routes.ts';
export const ROUTE_MODULE = /\.routes\.[cm]?[jt]sx?$/;
/**
 * A route module sits right under the route list and takes the parts of its feature it uses as arguments
 * (`lifecycleRoutes(core.login.lifecycle)`): it imports what its own folder's allow-list names, plus these.
 */
export const ROUTE_MODULE_MAY_ALSO_IMPORT = ['http', 'base-core.ts'];
