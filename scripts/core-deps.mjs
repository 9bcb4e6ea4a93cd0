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
// may itself import all of its feature (ROUTE_MODULE_MAY_ALSO_IMPORT, at the end of this file).
//
// The table describes the target (docs/architecture.md): composition at the top (create-core.ts, routes.ts,
// run-server.ts), then the in-process clients (mcp, desktop), the features (login, video), http, the low level
// (config, db, secrets, net, tenancy, jobs) and the kernel files at the bottom.

/** Kernel: imported by everything, imports no other unit of the core (only the kernel files before it). */
const KERNEL = ['lazy-module.ts', 'errors.ts', 'ids.ts', 'logger.ts', 'events.ts', 'child-process.ts', 'fs'];
/** Low level: imports the kernel and, where a real dependency exists, each other. */
const LOW = ['config', 'db', 'secrets', 'net', 'tenancy', 'jobs'];
/** Leaf files of login's root folder (they import no other part of login but codes): any part of login may use them. */
const LOGIN_LEAVES = [
  'login/login-types.ts',
  'login/auth-cookies.ts',
  'login/passkeys/passkey-types.ts',
  'login/browser-resolver.ts',
];
/** What a feature (login, video) may use outside itself. */
const FEATURE_BASE = [...KERNEL, ...LOW, 'base-core.ts', 'http'];

export const CORE_DEPS = {
  // kernel, in order: each may import only the ones above it here
  'lazy-module.ts': [], // optional libraries loaded on first use (imports no other part of the core)
  'errors.ts': [],
  'ids.ts': ['errors.ts'],
  'logger.ts': ['errors.ts', 'ids.ts'],
  'events.ts': ['errors.ts', 'ids.ts', 'logger.ts'],
  'child-process.ts': ['errors.ts', 'ids.ts', 'logger.ts'],
  // replacing and moving files with the retry Windows needs while another program holds one (imports nothing)
  fs: [],
  // V8's heap setting, imported only by the Electron entry (outside the core); imports nothing of the core
  'tune-heap.ts': [],
  // which signals mean a graceful shutdown, per platform: imported by the entries outside the core; imports nothing
  'shutdown-signals.ts': [],

  // low level
  config: KERNEL,
  db: KERNEL,
  secrets: [...KERNEL, 'config', 'db'],
  net: [...KERNEL, 'config'],
  tenancy: [...KERNEL, 'db'],
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

  // login: never video, mcp, desktop, create-core.ts, routes.ts, run-server.ts
  'login/login-types.ts': [...KERNEL, 'login/codes', 'login/passkeys/passkey-types.ts'],
  'login/passkeys/passkey-types.ts': [],
  // passkeys: the virtual authenticator (CDP WebAuthn) and the page heuristics for passkey controls and settings pages
  'login/passkeys': [...KERNEL, ...LOW, ...LOGIN_LEAVES],
  'login/auth-cookies.ts': KERNEL,
  // where the browser is on this computer: the login feature launches it, Settings says which one it found
  'login/browser-resolver.ts': KERNEL,
  'login/codes': [...KERNEL, ...LOW], // never login/mailboxes: the mailboxes feed the codes, not the reverse
  'login/engine': [...KERNEL, ...LOW, ...LOGIN_LEAVES], // never routes, lifecycle, signup, mailboxes
  'login/steps': [...KERNEL, ...LOW, ...LOGIN_LEAVES, 'login/engine', 'login/codes', 'login/passkeys'],
  login: [
    // the login service, engine runner, browser pool, session cache and the login route modules
    ...FEATURE_BASE,
    ...LOGIN_LEAVES,
    'login/engine',
    'login/steps',
    'login/codes',
    'login/interactive', // interactive also imports login-engine.ts: a folder-level circle (no file cycle)
  ],
  'login/interactive': [...KERNEL, ...LOW, ...LOGIN_LEAVES, 'login/engine', 'login'],
  'login/mailboxes': [...FEATURE_BASE, 'login/codes'],
  'login/lifecycle': [...KERNEL, ...LOW, ...LOGIN_LEAVES, 'login/engine', 'login', 'login/vault'],
  // saved logins: the vault owns a site's credentials; the export parsers are pure (no core at all)
  'login/vault': [...FEATURE_BASE, ...LOGIN_LEAVES, 'login', 'login/codes', 'login/vault/import', 'login/passkeys'],
  'login/vault/import': [],
  // sessions from the person's own browsers: profiles read from a copy into the session cache, checked by lifecycle,
  // filed under a saved login (the vault) when the person names the account
  'login/profiles': [...FEATURE_BASE, ...LOGIN_LEAVES, 'login', 'login/lifecycle', 'login/vault'],
  // a person finishes a stuck login from any browser: the live view's server side, and its page (pure strings)
  'login/takeover': [
    ...KERNEL,
    ...LOW,
    ...LOGIN_LEAVES,
    'login/engine',
    'login/interactive',
    'login/takeover/live-page',
  ],
  'login/takeover/live-page': [],
  // login events POSTed to the organization's login webhook URL (it listens to the bus, imports no other part of login)
  'login/webhooks': [...FEATURE_BASE, 'webhooks'],
  'login/signup': [
    ...KERNEL,
    ...LOW,
    ...LOGIN_LEAVES,
    'login/engine',
    'login/steps',
    'login/codes',
    'login',
    'login/vault',
    // a passkey sign-up: the virtual authenticator, the passkey controls and the "create a passkey" pages
    'login/passkeys',
  ],
  'login/login.feature.ts': [
    ...FEATURE_BASE,
    'login',
    ...LOGIN_LEAVES,
    'login/engine',
    'login/steps',
    'login/codes',
    'login/interactive',
    'login/mailboxes',
    'login/lifecycle',
    'login/signup',
    'login/vault',
    'login/takeover',
  ],

  // video: never login, mcp, desktop, create-core.ts, routes.ts, run-server.ts
  'video/resources.ts': KERNEL,
  'video/generations/pricing.ts': KERNEL,
  // what renders a template or generation (local renderer or hosted provider), as templates and generations show it
  'video/generations/renderer.ts': KERNEL,
  // what a file is, from its first bytes: the API's uploads and MCP's upload_file detect types alike
  'video/uploads/media-sniffer.ts': KERNEL,
  'video/webhooks': [...FEATURE_BASE, 'webhooks', 'video/resources.ts'],
  'video/templates': [
    ...FEATURE_BASE,
    'video/resources.ts',
    'video/generations/pricing.ts',
    'video/generations/renderer.ts',
  ],
  'video/uploads': [...FEATURE_BASE, 'video/resources.ts', 'video/templates', 'video/uploads/media-sniffer.ts'],
  // no route modules, no http
  'video/pipeline': [...KERNEL, ...LOW, 'video/resources.ts', 'video/uploads', 'video/uploads/media-sniffer.ts'],
  'video/characters': [...FEATURE_BASE, 'video/resources.ts', 'video/templates', 'video/uploads'],
  'video/generations': [
    ...FEATURE_BASE,
    'webhooks',
    'video/resources.ts',
    'video/generations/pricing.ts',
    'video/generations/renderer.ts',
    'video/characters',
    'video/pipeline',
    'video/templates',
    'video/uploads',
    'video/webhooks',
  ],
  'video/pipeline/create-pipeline.ts': [
    ...KERNEL,
    ...LOW,
    'base-core.ts',
    'video/resources.ts',
    'video/pipeline',
    'video/generations',
    'video/uploads',
  ],
  video: [
    // video.feature.ts: assembles the video feature
    ...FEATURE_BASE,
    'video/resources.ts',
    'video/generations/pricing.ts',
    'video/characters',
    'video/generations',
    'video/pipeline',
    'video/pipeline/create-pipeline.ts',
    'video/templates',
    'video/uploads',
    'video/webhooks',
  ],

  // in-process clients of the API: http, the core's types, the low level; never a feature, and no feature imports them
  mcp: [...KERNEL, ...LOW, 'base-core.ts', 'create-core.ts', 'http', 'video/uploads/media-sniffer.ts'],
  // (browser-resolver: Settings says which browser "Find one automatically" finds; a pure function of the disk)
  desktop: [...KERNEL, ...LOW, 'base-core.ts', 'create-core.ts', 'http', 'login/browser-resolver.ts', 'backup'],

  // composition
  'create-core.ts': ['*'],
  'routes.ts': ['*'],
  'run-server.ts': ['*'],
};

/** The only file of the core that may import a route module (`*.routes.ts`). */
export const ROUTE_LIST = 'routes.ts';
export const ROUTE_MODULE = /\.routes\.[cm]?[jt]sx?$/;
/**
 * A route module sits on top of its feature, right under the route list (`loginRoutes(core: LoginCore)`): besides the
 * allow-list of its own unit it may import every unit of its feature (the first folder of its path, e.g. all of
 * login/ for login/lifecycle/lifecycle.routes.ts, login.feature.ts included) and these.
 */
export const ROUTE_MODULE_MAY_ALSO_IMPORT = ['http', 'base-core.ts'];
