import type { Db } from '../db/database.js';
import { SettingsRepo } from '../db/settings.repo.js';
import {
  deleteMany,
  getMany,
  MISSING_SECRETS_WAY_OUT,
  SecretsMissingError,
  setIfAbsent,
  setMany,
  type SecretEntry,
  type SecretStore,
} from './secret-store.js';

/** Set once the inventory holds what an older version stored before it kept one (settings key). */
const SEEDED_SETTING = 'secret_inventory_seeded';

/** How long a computed health answer is reused (GET /healthz may be polled; listing a keychain is not free). */
const HEALTH_TTL_MS = 30_000;

export type SecretsHealth =
  | { state: 'ok'; missing: 0 }
  | { state: 'missing'; missing: number }
  | { state: 'unavailable'; missing: null; reason: string };

/**
 * The secret store of this installation that remembers, in the database, the names (never the values) of the
 * secrets it stored. The database travels with the data dir and the keychain does not: on another computer, or
 * after a restore without the secrets, the names say what is missing, and a secret made on first use is refused
 * (SecretsMissingError) rather than made again in place of the missing one (a new webhook secret would make every
 * receiver reject deliveries; a new session-cache key would hide the cached sessions).
 */
export class InventoriedSecretStore implements SecretStore {
  private health: { at: number; value: Promise<SecretsHealth> } | null = null;
  private readonly settings: SettingsRepo;
  private settled: SecretsHealth | null = null;

  /**
   * `selfChecked`: accounts whose owner tells a lost secret from an unneeded one itself (the vault key: lost only
   * when the vault file has entries), so a missing one may be made anew through setIfAbsent.
   */
  constructor(
    private readonly base: SecretStore,
    private readonly db: Db,
    private readonly opts: { selfChecked?: readonly string[]; now?: () => number } = {},
  ) {
    this.settings = new SettingsRepo(db);
  }

  private now() {
    return this.opts.now?.() ?? Date.now();
  }

  get backend() {
    return this.base.backend;
  }

  private record(accounts: readonly string[]): void {
    if (!accounts.length) return;
    const at = this.now();
    this.db
      .prepare('INSERT OR IGNORE INTO secret_inventory (account, recorded_at) SELECT value, ? FROM json_each(?)')
      .run(at, JSON.stringify(accounts));
    this.health = null;
  }

  private forget(accounts: readonly string[]): void {
    if (!accounts.length) return;
    this.db
      .prepare('DELETE FROM secret_inventory WHERE account IN (SELECT value FROM json_each(?))')
      .run(JSON.stringify(accounts));
    this.health = null;
  }

  private recorded(account: string): boolean {
    return !!this.db.prepare('SELECT 1 FROM secret_inventory WHERE account = ?').get(account);
  }

  get(account: string) {
    return this.base.get(account);
  }

  // Stored first, then named: a process that sees the name finds the value.
  async set(account: string, value: string) {
    await this.base.set(account, value);
    this.record([account]);
  }

  async setIfAbsent(account: string, value: string) {
    const existing = await this.base.get(account);
    if (existing === null && this.recorded(account) && !this.opts.selfChecked?.includes(account)) {
      // Named but absent: another process may have stored it a moment ago (it stores, then names), so look again.
      const again = await this.base.get(account);
      if (again !== null) return again;
      throw new SecretsMissingError(`The secret "${account}"`, { secret: account });
    }
    const stored = existing ?? (await setIfAbsent(this.base, account, value));
    this.record([account]);
    return stored;
  }

  async delete(account: string) {
    const deleted = await this.base.delete(account);
    this.forget([account]);
    return deleted;
  }

  async setMany(entries: readonly SecretEntry[]) {
    await setMany(this.base, entries);
    this.record(entries.map(([a]) => a));
  }

  getMany(accounts: readonly string[]) {
    return getMany(this.base, accounts);
  }

  async deleteMany(accounts: readonly string[]) {
    const deleted = await deleteMany(this.base, accounts);
    this.forget(accounts);
    return deleted;
  }

  check() {
    return this.base.check();
  }

  listAccounts(prefix: string) {
    return this.base.listAccounts(prefix);
  }

  /**
   * Forgets the names of missing secrets (`npm run cli -- secrets forget-missing`): the person starts over without
   * them, and the next use makes new ones. Names whose secret came back meanwhile are kept. How many were forgotten.
   */
  async forgetMissing(): Promise<string[]> {
    const gone = await this.missing();
    this.forget(gone);
    return gone;
  }

  /**
   * The names of the secrets stored here before that the store lacks now. The first call on a data dir of a
   * version without an inventory takes what the store holds as the inventory's start.
   */
  async missing(): Promise<string[]> {
    const present = await this.base.listAccounts('');
    if (this.settings.get(SEEDED_SETTING) === null) {
      this.record(present);
      this.settings.replace(SEEDED_SETTING, null, String(this.now()));
    }
    const have = new Set(present);
    const named = this.db.prepare('SELECT account FROM secret_inventory ORDER BY account').all() as {
      account: string;
    }[];
    return named.map((r) => r.account).filter((a) => !have.has(a));
  }

  /** For the start and the desktop: whether every secret named is there (computed at most every 30 s). */
  secretsHealth(): Promise<SecretsHealth> {
    const at = this.now();
    if (!this.health || at - this.health.at > HEALTH_TTL_MS) {
      const value = this.missing().then(
        (names): SecretsHealth =>
          names.length ? { state: 'missing', missing: names.length } : { state: 'ok', missing: 0 },
        (err: Error): SecretsHealth => ({ state: 'unavailable', missing: null, reason: err.message }),
      );
      void value.then((h) => (this.settled = h));
      this.health = { at, value };
    }
    return this.health.value;
  }

  /**
   * For GET /healthz, which answers in milliseconds whatever the keychain does: the last answer of secretsHealth
   * (starting a new one when it is old), or `checking` before the first is in.
   */
  peekHealth(): SecretsHealth | { state: 'checking'; missing: null } {
    void this.secretsHealth();
    return this.settled ?? { state: 'checking', missing: null };
  }
}

/**
 * What the start says (console, desktop) when stored secrets are missing: how many, their names (accounts, never
 * values: `webhooks.secret:org_…`, `mailboxes.password:…`), and the way out. Null when none is missing, or when the
 * store cannot be reached (the start says that on its own).
 */
export async function missingSecretsNotice(inventory: Pick<InventoriedSecretStore, 'missing'>): Promise<string | null> {
  const names = await inventory.missing().catch(() => []);
  if (!names.length) return null;
  const shown = names.slice(0, 8).join(', ') + (names.length > 8 ? ` and ${names.length - 8} more` : '');
  return (
    `${names.length === 1 ? 'A secret' : `${names.length} secrets`} this data dir stored ` +
    `${names.length === 1 ? 'is' : 'are'} missing from this computer's secret store (${shown}). ` +
    `${MISSING_SECRETS_WAY_OUT} Until then, what needs them answers 409 SECRETS_MISSING and nothing new is made in ` +
    'their place.'
  );
}
