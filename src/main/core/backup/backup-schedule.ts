// Scheduled backups to a folder (desktop Settings → Backup): every day or week, a backup file into the folder the
// person chose, sealed with a passphrase kept in the secret store (so no one has to type it), the oldest removed
// beyond the number to keep. Any process that runs background work on the data dir may make it; one does (the run is
// claimed in the database first).
import fs from 'node:fs';
import path from 'node:path';
import type { Db } from '../db/database.js';
import { SettingsRepo } from '../db/settings.repo.js';
import type { Logger } from '../logger.js';
import type { SecretStore } from '../secrets/secret-store.js';
import { minPassphraseProblem } from './backup-crypto.js';
import { createBackup } from './create-backup.js';

export const BACKUP_PASSPHRASE_ACCOUNT = 'backup-passphrase';
const SCHEDULE_KEY = 'backup_schedule';
const LAST_KEY = 'backup_last';
/** How often a due backup is looked for. */
const CHECK_EVERY_MS = 10 * 60_000;
/** The files a schedule makes (and is the only one to remove): `agent-studio-backup-2026-12-07T12-00-00Z.asb`. */
const SCHEDULED_FILE = /^agent-studio-backup-\d{4}-\d{2}-\d{2}T\d{2}-\d{2}-\d{2}Z\.asb$/;

export interface BackupSchedule {
  folder: string;
  everyHours: number;
  keep: number;
  media: boolean;
}

export interface BackupLastRun {
  at: number;
  file: string | null;
  error: string | null;
  running?: boolean;
}

export interface BackupScheduleView {
  schedule: BackupSchedule | null;
  last: BackupLastRun | null;
  nextAt: number | null;
}

export class BackupScheduleError extends Error {
  override name = 'BackupScheduleError';
}

export const scheduledFileName = (at: number) =>
  `agent-studio-backup-${new Date(at).toISOString().slice(0, 19).replace(/:/g, '-')}Z.asb`;

export class BackupScheduler {
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<void> | null = null;
  private readonly settings: SettingsRepo;

  constructor(
    private readonly deps: {
      db: Db;
      dataDir: string;
      /** The core's store: the passphrase is kept there. */
      secrets: SecretStore;
      /** The installation's own store: what a backup copies (createBackup's `secrets`). */
      inventory: Pick<SecretStore, 'listAccounts' | 'get' | 'getMany'>;
      log: Logger;
      now?: () => number;
    },
  ) {
    this.settings = new SettingsRepo(deps.db);
  }

  private now() {
    return this.deps.now?.() ?? Date.now();
  }

  /** A JSON setting: its text as stored (for a compare-and-set) and its value (null when absent or unreadable). */
  private read<T>(key: string): { raw: string | null; value: T | null } {
    const raw = this.settings.get(key);
    try {
      return { raw, value: raw === null ? null : (JSON.parse(raw) as T) };
    } catch {
      return { raw, value: null };
    }
  }

  view(): BackupScheduleView {
    return this.state().view;
  }

  /** The schedule, the last run and when the next is due; `lastRaw`: the last run as stored (what a claim replaces). */
  private state(): { view: BackupScheduleView; lastRaw: string | null } {
    const schedule = this.read<BackupSchedule>(SCHEDULE_KEY).value;
    const { raw: lastRaw, value: last } = this.read<BackupLastRun>(LAST_KEY);
    const nextAt = schedule ? (last ? last.at + schedule.everyHours * 3_600_000 : this.now()) : null;
    return { view: { schedule, last, nextAt }, lastRaw };
  }

  /** Sets the schedule; `passphrase` replaces the kept one (needed the first time). Runs the first backup when due. */
  async set(schedule: BackupSchedule, passphrase: string | null): Promise<BackupScheduleView> {
    const folder = path.resolve(schedule.folder);
    let stat: fs.Stats;
    try {
      stat = fs.statSync(folder);
    } catch {
      throw new BackupScheduleError(`the folder ${folder} does not exist`);
    }
    if (!stat.isDirectory()) throw new BackupScheduleError(`${folder} is not a folder`);
    const inside = path.relative(path.resolve(this.deps.dataDir), folder);
    if (!inside.startsWith('..') && !path.isAbsolute(inside)) {
      throw new BackupScheduleError('choose a folder outside the data folder (a backup there would hold itself)');
    }
    if (passphrase !== null) {
      const problem = minPassphraseProblem(passphrase);
      if (problem) throw new BackupScheduleError(problem);
      await this.deps.secrets.set(BACKUP_PASSPHRASE_ACCOUNT, passphrase);
    } else if ((await this.deps.secrets.get(BACKUP_PASSPHRASE_ACCOUNT)) === null) {
      throw new BackupScheduleError('a passphrase is needed: scheduled backups are sealed with it');
    }
    this.settings.set(SCHEDULE_KEY, JSON.stringify({ ...schedule, folder }));
    await this.runIfDue();
    return this.view();
  }

  /** No more scheduled backups; the kept passphrase goes too (the files made stay). */
  async clear(): Promise<BackupScheduleView> {
    this.settings.delete(SCHEDULE_KEY, LAST_KEY);
    await this.deps.secrets.delete(BACKUP_PASSPHRASE_ACCOUNT);
    return this.view();
  }

  start(): void {
    if (this.timer) return;
    this.timer = setInterval(() => void this.runIfDue(), CHECK_EVERY_MS);
    this.timer.unref();
    void this.runIfDue();
  }

  async dispose(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.running;
  }

  /** Makes the scheduled backup when it is due and no other process has claimed it. */
  runIfDue(): Promise<void> {
    this.running ??= this.runOnce().finally(() => (this.running = null));
    return this.running;
  }

  private async runOnce(): Promise<void> {
    const {
      view: { schedule, nextAt },
      lastRaw,
    } = this.state();
    const at = this.now();
    if (!schedule || nextAt === null || nextAt > at) return;
    // Claimed only if the last run is still the one read here: of two processes that found it due, one makes it.
    const mark = JSON.stringify({ at, file: null, error: null, running: true });
    if (!this.settings.replace(LAST_KEY, lastRaw, mark)) return;
    let file: string | null = null;
    let error: string | null = null;
    try {
      const passphrase = await this.deps.secrets.get(BACKUP_PASSPHRASE_ACCOUNT);
      if (!passphrase) throw new Error('the passphrase of scheduled backups is not in the secret store');
      file = path.join(schedule.folder, scheduledFileName(at));
      await createBackup({
        dataDir: this.deps.dataDir,
        db: this.deps.db,
        secrets: this.deps.inventory,
        out: file,
        passphrase,
        media: schedule.media,
      });
      this.prune(schedule);
      this.deps.log.info({ file }, 'scheduled backup written');
    } catch (err) {
      error = (err as Error).message;
      file = null;
      this.deps.log.warn({ err: error }, 'scheduled backup failed');
    }
    this.settings.set(LAST_KEY, JSON.stringify({ at, file, error }));
  }

  /** Removes the oldest scheduled files beyond `keep` (only files this schedule names; nothing else in the folder). */
  private prune(schedule: BackupSchedule): void {
    const mine = fs
      .readdirSync(schedule.folder)
      .filter((n) => SCHEDULED_FILE.test(n))
      .sort();
    for (const name of mine.slice(0, Math.max(0, mine.length - schedule.keep))) {
      fs.rmSync(path.join(schedule.folder, name), { force: true });
    }
  }
}
