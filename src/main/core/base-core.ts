// The services every feature builds on, as a type of its own: features (login/, video/) and their builders
// depend on this file, never on create-core.ts, which builds them (no type circle through the composition root).
import type { AppConfig } from './config/config.schema.js';
import type { Db } from './db/database.js';
import type { CoreEventBus } from './events.js';
import type { JobQueue } from './jobs/job-queue.js';
import type { AppLogger, Logger } from './logger.js';
import type { OutboundPolicy } from './net/outbound-policy.js';
import type { InventoriedSecretStore } from './secrets/secret-inventory.js';
import type { SecretStore } from './secrets/secret-store.js';
import type { ApiKeysService } from './tenancy/api-keys.service.js';
import type { CreditsService } from './tenancy/credits.service.js';
import type { OrgsService } from './tenancy/orgs.service.js';

/** The services every feature builds on. */
export interface BaseCore {
  config: AppConfig;
  log: Logger;
  logger: AppLogger;
  db: Db;
  /** Secrets of this installation (accounts are namespaced by the install id). */
  secrets: SecretStore;
  /**
   * The installation's own secret store (below the vault file) that knows the names of what it stored: whether every
   * secret is still there (secrets/secret-inventory.ts), `forgetMissing` for a person who starts over without the
   * missing ones, and what a backup copies.
   */
  secretsInventory: InventoriedSecretStore;
  /**
   * `npm run cli -- secrets forget-missing`: the names of the missing secrets are forgotten (new ones are made where
   * needed) and a vault file whose key is lost is set aside (its saved logins' secrets are then entered again).
   */
  forgetMissingSecrets(): Promise<{ forgotten: string[]; vaultSetAside: string | null }>;
  /** Messages for the person running the server (e.g. where secrets are kept); read once, then cleared. */
  takeNotices(): string[];
  installId: string;
  /**
   * Where the server may connect on a key's behalf (network.outbound): media URLs, webhooks, IMAP hosts,
   * provider result URLs and the login browser all use this one policy.
   */
  outbound: OutboundPolicy;
  /** Progress, status changes and webhook outcomes (the desktop app and streams subscribe). */
  events: CoreEventBus;
  /** The persistent job queue (renders, webhook deliveries); runs once a server calls `jobs.start()`. */
  jobs: JobQueue;
  orgs: OrgsService;
  keys: ApiKeysService;
  credits: CreditsService;
  /** Registers a resource to dispose (in reverse order of registration) when the core is disposed. */
  onDispose(fn: () => unknown | Promise<unknown>): void;
  dispose(): Promise<void>;
}
