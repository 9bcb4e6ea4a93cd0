import type { BaseCore } from '../base-core.js';
import { defaultBrowserMode } from '../config/config.schema.js';
import { BrowserPool } from './browser/browser-pool.js';
import { modeLaunch } from './browser/browser-modes.js';
import { LazyBrowserPool } from './browser/lazy-browser-pool.js';
import { machineLocale, machineTimeZone } from './browser/machine-locale.js';
import { VirtualDisplay } from './browser/virtual-display.js';
import { InboxHub } from './codes/inbox-hub.js';
import { createLifecycle, type Lifecycle } from './lifecycle/index.js';
import { LoginEngine } from './flow/login-engine.js';
import type { InteractiveFinisher } from './interactive/interactive-finisher.js';
import { LoginService } from './sessions/login.service.js';
import { createMailboxes, type Mailboxes } from './mailboxes/index.js';
import { mailboxFeed } from './mailboxes/mailbox-feed.js';
import { SessionCache } from './sessions/session-cache.js';
import { createSignupService, type SignupService } from './signup/index.js';
import { createVault, type Vault } from './vault/index.js';
import { adoptStoredCredentials } from './vault/adopt-stored-credentials.js';
import { LoginBoard } from './runs/login-board.js';
import { LoginRuns } from './runs/login-runs.js';
import { RunningLogins } from './runs/running-logins.js';
import { TakeoverFinisher } from './takeover/takeover-finisher.js';

/** The login service's parts, built by the composition root. */
export interface LoginFeature {
  service: LoginService;
  cache: SessionCache;
  browsers: LazyBrowserPool;
  /** Logins waiting for a code or link; POST /api/login/inbox hands messages to it. */
  inbox: InboxHub;
  /** IMAP mailboxes that otp_email and magic_link logins read codes and links from. */
  mailboxes: Mailboxes;
  /** Session validation, refresh with stored credentials, background health checks. */
  lifecycle: Lifecycle;
  /** POST /api/signup: account creation with email verification. */
  signup: SignupService;
  /** Saved logins: agents log in by reference and never hold the secrets. */
  vault: Vault;
  /** Logins with an id: where each stands (GET /api/login/{id}), async logins. */
  runs: LoginRuns;
  /** The live pages where a person finishes a stopped login (with the desktop's own window as its fallback). */
  takeover: TakeoverFinisher;
  dispose(): Promise<void>;
}

/**
 * `interactive`: shows a login stopped at a CAPTCHA or second factor to a person (the desktop app gives
 * one, docs/person-in-the-loop.md); without it such logins answer their typed error.
 */
export function createLoginFeature(
  base: BaseCore,
  opts: { interactive?: InteractiveFinisher; browserEnv?: NodeJS.ProcessEnv } = {},
): LoginFeature {
  const { config, log, outbound } = base;
  const browserLog = log.child({ component: 'browser' });
  // Where headed login browsers draw their window (the app's own Xvfb on Linux without a display).
  const browserEnv = opts.browserEnv ?? process.env;
  const display = new VirtualDisplay({ env: browserEnv, log: browserLog });
  // One pool per browser mode, each made on its first use (docs/login-service.md#bot-walls).
  const browsers = new LazyBrowserPool({
    defaultMode: defaultBrowserMode(config.browser),
    outbound,
    make: async (mode) =>
      new BrowserPool({
        ...(await modeLaunch(mode, { browser: config.browser, display })),
        maxContexts: config.browser.maxContexts,
        locale: machineLocale(browserEnv),
        timezoneId: machineTimeZone(browserEnv),
        log: browserLog.child({ mode }),
        // In every network mode, not only public-only: link-local and metadata addresses are refused in each. The
        // proxy costs nothing measurable (interleaved logins of 8 fixture sites: within ±2%).
        outbound,
      }),
  });
  const cache = new SessionCache({ db: base.db, secrets: base.secrets, maxAgeSec: config.login.cacheMaxAgeSec });
  const inbox = new InboxHub();
  const mailboxes = createMailboxes({
    db: base.db,
    secrets: base.secrets,
    log,
    outbound,
  });
  const board = new LoginBoard();
  const running = new RunningLogins();
  // A stopped login gets a live page any browser (and the desktop window) can open; the desktop's own browser
  // window is the fallback while the server does not listen.
  const takeover = new TakeoverFinisher({
    browsers,
    log: log.child({ component: 'takeover' }),
    embedders: config.login.livePageEmbedders,
    fallback: opts.interactive,
  });
  const service = new LoginService({
    browsers,
    engine: new LoginEngine({ log: log.child({ component: 'login' }), blockResources: config.browser.blockResources }),
    cache,
    log: log.child({ component: 'login' }),
    timeoutMs: config.login.timeoutMs,
    codeTimeoutMs: config.login.codeTimeoutMs,
    oauthOrigins: { google: config.login.oauth.google.origins, github: config.login.oauth.github.origins },
    inbox,
    events: base.events,
    mailboxes: mailboxFeed(mailboxes.service, mailboxes.watchers),
    interactive: takeover,
    tracking: { board, running },
  });
  const vault = createVault({
    db: base.db,
    secrets: base.secrets,
    log,
    oauthOrigins: { google: config.login.oauth.google.origins, github: config.login.oauth.github.origins },
    hasMailbox: (orgId, id) => mailboxes.service.get(orgId, id) !== null,
    keyIds: (orgId) => base.keys.list(orgId).map((k) => k.id),
  });
  // Credentials storeCredentials kept before saved logins existed move onto saved logins (once, at start), and login
  // pages an older version kept in full (a token in the query) move to the secret store (answers mask them anyway).
  const ready = adoptStoredCredentials({ cache, vault, secrets: base.secrets, log })
    .catch((err: Error) =>
      log.warn({ err: err.message }, 'stored credentials could not be moved onto saved logins yet'),
    )
    .then(() => vault.savedLogins.hideLoginUrls())
    .catch((err: Error) => log.warn({ err: err.message }, 'saved login URLs could not be hidden yet'));
  // What an import left when its process was killed is settled (vault/saved-logins-import.ts); usually nothing.
  void vault.importer
    .recover()
    .catch((err: Error) => log.warn({ err: err.message }, 'an interrupted import could not be settled yet'));
  const lifecycle = createLifecycle({
    cache,
    logins: service,
    browsers,
    vault,
    ready,
    log,
    timeoutMs: config.login.timeoutMs,
  });
  const signup = createSignupService({
    config,
    log,
    browsers,
    cache,
    inbox,
    mailboxes: mailboxFeed(mailboxes.service, mailboxes.watchers),
    events: base.events,
    vault,
  });
  const dispose = async () => {
    board.dispose();
    await takeover.dispose();
    // The display after the browsers that draw on it.
    await Promise.all([mailboxes.dispose(), browsers.dispose().then(() => display.dispose())]);
  };
  const runs = new LoginRuns({
    board,
    running,
    lifecycle,
    events: base.events,
    log: log.child({ component: 'login' }),
  });
  const feature: LoginFeature = {
    service,
    cache,
    browsers,
    inbox,
    mailboxes,
    lifecycle,
    signup,
    vault,
    runs,
    takeover,
    dispose,
  };
  base.onDispose(() => feature.dispose());
  // Registered after the feature, so disposed before it: checks stop before the browsers close.
  base.onDispose(() => lifecycle.dispose());
  return feature;
}
