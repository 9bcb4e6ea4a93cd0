import crypto from 'node:crypto';
import os from 'node:os';
import type { Db } from '../../db/database.js';
import { AppError } from '../../errors.js';
import { newId } from '../../ids.js';
import type { Logger } from '../../logger.js';
import { deleteMany, getMany, setMany, type SecretEntry, type SecretStore } from '../../secrets/secret-store.js';
import type { ExistingLogin } from './import/import-plan.js';
import { ImportJournal, type ImportJournalEntry } from './import-journal.js';
import { decodeSecrets, encodeSecrets, parseSecrets } from './saved-login-payload.js';
import type { SavedLoginsRepo, StoredSavedLogin } from './saved-logins.repo.js';
import {
  originOf,
  savedLoginAccount,
  secretNames,
  type SavedLoginDraft,
  type SavedLoginSecrets,
  type SavedLoginsService,
} from './saved-logins.service.js';

/** A merge: the saved login as it is, as the import leaves it, the secrets it holds and the ones it gets. */
export interface MergeDraft {
  before: StoredSavedLogin;
  after: StoredSavedLogin;
  held: SavedLoginSecrets;
  secrets: SavedLoginSecrets;
}

type MergedFields = Pick<SavedLoginSecrets, 'password' | 'totpSecret' | 'notes'>;

export interface SavedLoginsImportDeps {
  saved: SavedLoginsService;
  repo: SavedLoginsRepo;
  secrets: SecretStore;
  journal: ImportJournal;
  log: Logger;
  now?: () => number;
}

/**
 * An import's saved logins, all or nothing, also when the process is killed at any point:
 *
 * 1. the journal (import-journal.ts) records, committed, which entries of the secret store it will write;
 * 2. the secrets are written in one batch (`setMany`: the encrypted file in one atomic write; the keychain one by
 *    one): a created saved login's under its new id, which no row has yet; a merged one's as `next` beside the
 *    secrets it holds (saved-login-payload.ts), in force only once its row has the import's updated_at;
 * 3. the rows are inserted and updated in one SQLite transaction: this is the moment the import happens;
 * 4. `settle` puts the secret store in order from the rows, whichever way step 3 went: a created id without a row
 *    loses its secrets, a merged entry keeps only the secrets its row's updated_at says are in force; then the
 *    journal entry goes.
 *
 * Killed before step 3 commits: no row of the import exists and every saved login opens the secrets it had;
 * killed after: all of them exist and open the imported secrets. Either way the leftovers are harmless (no row
 * points at them) and the next start, or the next import, settles the dead process's journal entries (`recover`).
 *
 * A saved login the import merges into that is changed while it runs fails the import at step 3 (its updated_at is
 * no longer the one read: 409, nothing imported). As between two concurrent changes of one saved login, the secrets
 * such a change wrote between the import's read of them and step 2 are replaced by what the import read.
 */
export class SavedLoginsImport {
  /** A recovery under way: a second caller (an import while the start's recovery runs) waits for it. */
  private recovering: Promise<number> | null = null;
  /** The journal entries of this process's imports being written now (recovery leaves them alone). */
  private readonly live = new Set<string>();

  constructor(private readonly deps: SavedLoginsImportDeps) {}

  private now() {
    return this.deps.now?.() ?? Date.now();
  }

  /** The organization's saved logins as an import plans against them (the columns it needs: thousands of rows). */
  existing(orgId: string): ExistingLogin[] {
    return this.deps.repo
      .planRows(orgId)
      .map((s) => ({ id: s.id, label: s.label, origin: originOf(s.loginUrl) ?? '', username: s.username }));
  }

  /** The secrets in force of the saved logins an import merges into, in one read of the store. */
  async heldSecrets(rows: readonly StoredSavedLogin[]): Promise<Map<string, SavedLoginSecrets>> {
    const raws = await getMany(
      this.deps.secrets,
      rows.map((r) => savedLoginAccount(r.id)),
    );
    const held = new Map<string, SavedLoginSecrets>();
    for (const r of rows) {
      const raw = raws.get(savedLoginAccount(r.id));
      let secrets: SavedLoginSecrets = {};
      try {
        if (raw) secrets = decodeSecrets<SavedLoginSecrets>(raw, r.updated_at);
      } catch {
        // an entry that is not JSON holds nothing usable (as readSecrets reads it)
      }
      held.set(r.id, secrets);
    }
    return held;
  }

  /** `fields` merged into a saved login, checked as a change is (400 when it could not log in then). */
  mergeDraft(before: StoredSavedLogin, held: SavedLoginSecrets, fields: MergedFields): MergeDraft {
    const secrets = { ...held, ...fields };
    const after: StoredSavedLogin = {
      ...before,
      secrets: secretNames(secrets),
      // strictly later: the new secrets are told apart from the held ones by this value alone
      updated_at: Math.max(this.now(), before.updated_at + 1),
    };
    this.deps.saved.check(after, secrets);
    return { before, after, held, secrets };
  }

  /** Saves the import (steps 1-4 above); 409 and nothing saved when a row it touches changed meanwhile. */
  async commit(orgId: string, creates: readonly SavedLoginDraft[], merges: readonly MergeDraft[]): Promise<void> {
    if (!creates.length && !merges.length) return;
    const entry: ImportJournalEntry = {
      id: newId('imp', 12),
      pid: process.pid,
      host: os.hostname(),
      owner: this.deps.journal.owner,
      startedAt: this.now(),
      created: creates.map((c) => c.saved.id),
      merged: merges.map((m) => [m.after.id, m.after.updated_at]),
    };
    this.live.add(entry.id);
    this.deps.journal.add(entry);
    try {
      await setMany(this.deps.secrets, [
        ...creates.map(({ saved, secrets }): SecretEntry => [savedLoginAccount(saved.id), encodeSecrets(secrets)]),
        ...merges.map(({ after, held, secrets }): SecretEntry => [
          savedLoginAccount(after.id),
          encodeSecrets(held, { at: after.updated_at, secrets }),
        ]),
      ]);
      this.applyRows(creates, merges);
    } finally {
      // Done or failed, the store is settled from the rows; if the store fails now, the journal entry stays and
      // the next import or start settles it (the secrets in force are right meanwhile).
      await this.settle(entry).then(
        () => this.deps.journal.remove(entry.id),
        (err: Error) => this.deps.log.warn({ importId: entry.id, err: err.message }, 'import not settled yet'),
      );
      this.live.delete(entry.id); // settled, or left to the next recovery
    }
    this.deps.log.info({ orgId, created: creates.length, merged: merges.length }, 'saved login added by import');
  }

  private applyRows(creates: readonly SavedLoginDraft[], merges: readonly MergeDraft[]): void {
    let applied: boolean;
    try {
      applied = this.deps.repo.applyImport(
        creates.map((c) => c.saved),
        merges.map((m) => ({ row: m.after, was: m.before.updated_at })),
      );
    } catch (err) {
      if ((err as { code?: string }).code !== 'SQLITE_CONSTRAINT_UNIQUE') throw err;
      throw new AppError(
        409,
        'credential_exists',
        'A saved login with a label this import gives was added while it ran; nothing was imported. Run it again.',
      );
    }
    if (!applied)
      throw new AppError(
        409,
        'import_conflict',
        'A saved login this import merges into was changed while it ran; nothing was imported. Run it again.',
      );
  }

  /** Settles the journal entries of imports whose process died (at start, and before each import). */
  recover(): Promise<number> {
    this.recovering ??= this.settleStale().finally(() => (this.recovering = null));
    return this.recovering;
  }

  private async settleStale(): Promise<number> {
    const stale = this.deps.journal.stale((id) => this.live.has(id), this.now());
    for (const entry of stale) {
      await this.settle(entry);
      this.deps.journal.remove(entry.id);
      this.deps.log.warn(
        { importId: entry.id, pid: entry.pid, created: entry.created.length, merged: entry.merged.length },
        'an interrupted import was settled',
      );
    }
    return stale.length;
  }

  /** Step 4: the secret store made to agree with the rows. Idempotent; touches only what `entry` wrote. */
  private async settle(entry: ImportJournalEntry): Promise<void> {
    const rows = this.deps.repo.updatedAt([...entry.created, ...entry.merged.map(([id]) => id)]);
    const orphans = entry.created.filter((id) => !rows.has(id));
    if (orphans.length) await deleteMany(this.deps.secrets, orphans.map(savedLoginAccount));
    if (!entry.merged.length) return;
    const raws = await getMany(
      this.deps.secrets,
      entry.merged.map(([id]) => savedLoginAccount(id)),
    );
    const settled: SecretEntry[] = [];
    for (const [id, at] of entry.merged) {
      const raw = raws.get(savedLoginAccount(id));
      let parsed;
      try {
        parsed = raw ? parseSecrets<SavedLoginSecrets>(raw) : null;
      } catch {
        continue;
      }
      // Not this import's `next` (none, or a later write's): nothing of this import is left in the entry.
      if (!parsed?.next || parsed.next.at !== at) continue;
      const inForce = rows.get(id) === at ? parsed.next.secrets : parsed.secrets;
      settled.push([savedLoginAccount(id), encodeSecrets(inForce)]);
    }
    if (settled.length) await setMany(this.deps.secrets, settled);
  }
}

/** The import batch of a vault; its journal's mark is random per instance (see ImportJournal). */
export function createSavedLoginsImport(deps: Omit<SavedLoginsImportDeps, 'journal'> & { db: Db }) {
  const { db, ...rest } = deps;
  return new SavedLoginsImport({ ...rest, journal: new ImportJournal(db, crypto.randomBytes(8).toString('hex')) });
}
