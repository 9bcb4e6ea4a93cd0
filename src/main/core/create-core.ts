import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { AppConfig } from './config/config.schema.js';
import { openDatabase, WRITTEN_BY_SETTING, type Db } from './db/database.js';
import { APP_VERSION } from '../../shared/version.js';
import { createLogger } from './logger.js';
import { SettingsRepo } from './db/settings.repo.js';
import { CoreEventBus } from './events.js';
import { JobQueue } from './jobs/job-queue.js';
import { createSecretStore } from './secrets/create-secret-store.js';
import { EnvelopeSecretStore, VAULT_FILE, VAULT_KEY_ACCOUNT } from './secrets/envelope-store.js';
import { InventoriedSecretStore } from './secrets/secret-inventory.js';
import { NamespacedSecretStore } from './secrets/namespaced-store.js';
import type { SecretStore } from './secrets/secret-store.js';
import { ApiKeysService } from './tenancy/api-keys.service.js';
import { CreditsService } from './tenancy/credits.service.js';
import { OrgsService } from './tenancy/orgs.service.js';
import type { InteractiveFinisher } from './login/interactive/interactive-finisher.js';
import { createLoginFeature, type LoginFeature } from './login/login.feature.js';
import { SAVED_LOGIN_ACCOUNT_PREFIX } from './login/vault/saved-logins.service.js';
import { createLoginWebhooks, type LoginWebhooks } from './login/webhooks/login-webhooks.feature.js';
import { OutboundPolicy, type OutboundPolicyOptions } from './net/outbound-policy.js';
import { BackupScheduler } from './backup/backup-schedule.js';
import type { BaseCore } from './base-core.js';
import { createVideoFeature, type VideoFeature } from './video/video.feature.js';

/** Everything: the base services plus the two feature services. */
export interface Core extends BaseCore {
  login: LoginFeature;
  video: VideoFeature;
  /** Login events POSTed to an organization's login webhook URL (login/webhooks). */
  loginWebhooks: LoginWebhooks;
  /** Scheduled backups to a folder (desktop Settings → Backup); run by a process that does background work. */
  backups: BackupScheduler;
  /**
   * Starts the background work a server does (renders, webhook deliveries, retention), after sweeping
   * what a crashed run left. The CLI never calls it: it shares the data dir with a running server.
   */
  startBackgroundWork(): void;
  /** Tests only (CoreOverrides.rateLimitNow): the server's rate-limit clock. */
  readonly rateLimitNow?: () => number;
}

export type { BaseCore };

export interface CoreOverrides {
  /** Replace the secret store (tests of the file backend, or the Electron shell's choice). */
  secrets?: SecretStore;
  /**
   * Lets a person finish logins stopped at a CAPTCHA or second factor (`interactive: true`): the desktop
   * app gives a visible-browser one; the headless server none (docs/person-in-the-loop.md#a-visible-browser-window).
   */
  interactiveFinisher?: (base: BaseCore) => InteractiveFinisher;
  /**
   * Tests only: the outbound policy's resolver and dial hooks (names standing for
   * other address ranges, connected to on 127.0.0.1; see OutboundPolicyOptions). Never set in production.
   */
  outboundHooks?: Pick<OutboundPolicyOptions, 'resolve' | 'dial'>;
  /**
   * Tests only: the clock of the templates service (created_at/updated_at and the sweep of scratch templates), so a
   * test can age a template by a day without waiting. Other services keep their own clocks. Never set in production.
   */
  now?: () => number;
  /**
   * Tests only: the clock of the API's rate limits (ms), so a test refills a bucket by moving it instead of waiting
   * (and a busy machine cannot refill one between two requests). Never set in production.
   */
  rateLimitNow?: () => number;
  /**
   * Tests only: the environment the login browsers are set up from (DISPLAY and the PATH Xvfb is found on; LANG,
   * LC_* and TZ for the language and time zone they present), so a test can stand for another machine. Never set in
   * production: there it is this process's.
   */
  browserEnv?: NodeJS.ProcessEnv;
}

function installIdOf(settings: SettingsRepo): string {
  const existing = settings.get('install_id');
  if (existing) return existing;
  const id = crypto.randomUUID();
  settings.set('install_id', id);
  return id;
}

/** The composition root: builds every service from the config and disposes them in reverse order. */
export function createCore(config: AppConfig, overrides: CoreOverrides = {}): Core {
  const disposers: (() => unknown | Promise<unknown>)[] = [];
  const logger = createLogger(config.dataDir, config.log.level);
  disposers.push(() => logger.dispose());
  let db: Db;
  try {
    db = openDatabase(config.dataDir);
  } catch (err) {
    logger.dispose();
    throw err;
  }
  disposers.push(() => db.close());
  const settings = new SettingsRepo(db);
  const installId = installIdOf(settings);
  // Names this version in the refusal an older version gives on this data dir (NewerDataDirError).
  if (settings.get(WRITTEN_BY_SETTING) !== APP_VERSION) settings.set(WRITTEN_BY_SETTING, APP_VERSION);
  const notices: string[] = [];
  const installSecrets = new NamespacedSecretStore(
    overrides.secrets ??
      createSecretStore(config, {
        settings,
        installId,
        notify: (message) => {
          notices.push(message);
          logger.log.info({ notice: message }, 'secrets backend');
        },
      }),
    installId,
  );
  // The names of the secrets stored are kept in the database, which moves with the data dir: a lost one is said.
  const secretsInventory = new InventoriedSecretStore(installSecrets, db, { selfChecked: [VAULT_KEY_ACCOUNT] });
  // Saved logins' secrets are many (an import brings thousands): sealed in one file, its key in the secret store.
  const secrets = new EnvelopeSecretStore({
    base: secretsInventory,
    file: path.join(config.dataDir, VAULT_FILE),
    keyAccount: VAULT_KEY_ACCOUNT,
    prefixes: [SAVED_LOGIN_ACCOUNT_PREFIX],
  });

  const jobs = new JobQueue({
    db,
    log: logger.log,
    concurrency: {
      render: config.jobs.renderConcurrency ?? Math.max(1, Math.floor(os.availableParallelism() / 2)),
      io: config.jobs.ioConcurrency,
    },
  });
  let disposed: Promise<void> | null = null;
  const base: BaseCore = {
    config,
    log: logger.log,
    logger,
    db,
    secrets,
    secretsInventory,
    async forgetMissingSecrets() {
      const forgotten = await secretsInventory.forgetMissing();
      return { forgotten, vaultSetAside: await secrets.setAsideLostVault() };
    },
    takeNotices: () => notices.splice(0),
    installId,
    outbound: new OutboundPolicy({ ...overrides.outboundHooks, mode: config.network.outbound }),
    events: new CoreEventBus(),
    jobs,
    orgs: new OrgsService({ db }),
    keys: new ApiKeysService({ db }),
    credits: new CreditsService({ db }),
    onDispose: (fn) => void disposers.push(fn),
    dispose() {
      disposed ??= (async () => {
        for (const fn of disposers.reverse()) {
          try {
            await fn();
          } catch (err) {
            logger.log.warn({ err: (err as Error).message }, 'dispose step failed');
          }
        }
      })();
      return disposed;
    },
  };
  try {
    const login = createLoginFeature(base, {
      interactive: overrides.interactiveFinisher?.(base),
      browserEnv: overrides.browserEnv,
    });
    const video = createVideoFeature(base, { now: overrides.now });
    const loginWebhooks = createLoginWebhooks(base);
    const backups = new BackupScheduler({
      db,
      dataDir: config.dataDir,
      secrets,
      inventory: secretsInventory,
      log: logger.log,
    });
    // Registered last, so disposed first: running jobs and a backup under way stop before the stores they use close.
    disposers.push(() => backups.dispose());
    disposers.push(() => jobs.dispose());
    let started = false;
    const startBackgroundWork = () => {
      if (started) return;
      started = true;
      video.start();
      jobs.start();
      login.lifecycle.healthChecks.start();
      backups.start();
    };
    return Object.assign(base, {
      login,
      video,
      loginWebhooks,
      backups,
      startBackgroundWork,
      rateLimitNow: overrides.rateLimitNow,
    });
  } catch (err) {
    void base.dispose();
    throw err;
  }
}

export const DEFAULT_ORG = 'default';
export const STARTER_CREDITS = 1000;

export interface FirstRunResult {
  created: boolean;
  orgId?: string;
  keyId?: string;
  /** The plaintext key, only on the first run, to print once. */
  key?: string;
  /** Why the key could not be saved to the secret store (it still works; it is just not kept). */
  secretStoreError?: string;
}

/**
 * First start with an empty data dir: a default org with starter credits and one full-scope key.
 * The key's plaintext goes to the secret store (so the desktop app can use it) and is returned once.
 */
export async function ensureFirstRun(core: Core): Promise<FirstRunResult> {
  if (core.orgs.list().length > 0) return { created: false };
  const org = core.orgs.create(DEFAULT_ORG);
  const { key, info } = core.keys.create(org.id, { name: 'default' });
  core.credits.grant(org.id, STARTER_CREDITS, 'starter credits');
  let secretStoreError: string | undefined;
  try {
    await core.secrets.set(`api-key:${info.id}`, key);
    await core.secrets.set('default-api-key-id', info.id);
  } catch (err) {
    secretStoreError = (err as Error).message;
  }
  core.log.info(
    { orgId: org.id, keyId: info.id, savedToSecrets: !secretStoreError },
    'first run: created default org and key',
  );
  return { created: true, orgId: org.id, keyId: info.id, key, secretStoreError };
}

export const FIRST_RUN_KEY_FILE = 'first-run-key.txt';

/**
 * Where a headless first run puts the key when its output is not a terminal: a new file (O_EXCL, mode 600)
 * in the data dir, never over an existing one. Returns the file's path.
 */
export function writeFirstRunKeyFile(dataDir: string, key: string): string {
  const file = path.join(dataDir, FIRST_RUN_KEY_FILE);
  fs.rmSync(file, { force: true }); // a leftover of an earlier data dir's first run holds a key that no longer exists
  fs.writeFileSync(file, `${key}\n`, { mode: 0o600, flag: 'wx' });
  return file;
}
