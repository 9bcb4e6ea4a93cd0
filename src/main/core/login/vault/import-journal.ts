import os from 'node:os';
import type { Db } from '../../db/database.js';
import { SettingsRepo } from '../../db/settings.repo.js';
import { processAlive } from '../../child-process.js';

/** The settings key of the imports under way: one JSON list for every process on the data dir. */
const KEY = 'vault_imports_under_way';
/** No import takes this long (the row limit bounds it): an entry this old is a dead process's, whatever its pid. */
const STALE_AFTER_MS = 60 * 60_000;

/**
 * What an import is about to write to the secret store, recorded (and committed) before it writes it, so that a
 * restart after kill -9 knows which secret-store entries to put right (saved-logins-import.ts `settle`). Ids only,
 * never a secret.
 */
export interface ImportJournalEntry {
  id: string;
  pid: number;
  host: string;
  /** This process's mark: a restarted server may be given the pid of the one that died. */
  owner: string;
  startedAt: number;
  /** Saved logins the import creates: their secrets are written before their rows. */
  created: string[];
  /** Saved logins it merges into, and the updated_at its transaction gives each (their `next` secrets' `at`). */
  merged: Array<[id: string, at: number]>;
}

/** The imports under way, in the settings table (the database is what every process of the data dir shares). */
export class ImportJournal {
  private readonly settings: SettingsRepo;

  constructor(
    private readonly db: Db,
    /** Random per vault: tells this process's entries from those of a dead one that had the same pid. */
    readonly owner: string,
  ) {
    this.settings = new SettingsRepo(db);
  }

  add(entry: ImportJournalEntry): void {
    this.change((list) => [...list, entry]);
  }

  remove(id: string): void {
    this.change((list) => list.filter((e) => e.id !== id));
  }

  /**
   * Entries no import is writing any more: this process's own that `live` does not name (one whose settling failed),
   * and others' whose process is gone (on this host by pid and mark; anywhere after STALE_AFTER_MS).
   */
  stale(live: (id: string) => boolean, now = Date.now()): ImportJournalEntry[] {
    return this.read().filter((e) => {
      if (e.owner === this.owner) return !live(e.id);
      if (now - e.startedAt > STALE_AFTER_MS) return true;
      if (e.host !== os.hostname()) return false;
      return e.pid === process.pid || !processAlive(e.pid);
    });
  }

  private read(): ImportJournalEntry[] {
    const raw = this.settings.get(KEY);
    try {
      const list = raw ? (JSON.parse(raw) as unknown) : [];
      return Array.isArray(list) ? (list as ImportJournalEntry[]) : [];
    } catch {
      return [];
    }
  }

  /** Read-modify-write under SQLite's write lock (IMMEDIATE), so two processes' imports never drop each other's. */
  private change(fn: (list: ImportJournalEntry[]) => ImportJournalEntry[]): void {
    this.db.transaction(() => this.settings.set(KEY, JSON.stringify(fn(this.read())))).immediate();
  }
}
