// Updates under the person's control, in plain Node (the Electron layer only supplies the platform's install step:
// electron/updater.ts). Reads the feed (update-feed.ts), compares versions, downloads and checks the installer
// (update-download.ts), and follows the policy: automatic — check at start and every few hours, download, install
// when the app quits or on Restart; ask — check and tell the window, download on request; off — nothing at all,
// not even a check. A restart never cuts off a login or a render: asked while one runs, it waits for it to end.
// One service for the app's life: a core restart (settings) does not reset it.
import path from 'node:path';
import { AppError } from '../errors.js';
import type { Logger } from '../logger.js';
import type { UpdateSettings, UpdateStatus, UpdateView } from '../../../shared/updates.schema.js';
import { downloadVerified } from './update-download.js';
import {
  channelFiles,
  compareVersions,
  isPrerelease,
  parseFeed,
  pickFile,
  type FeedFile,
  type FeedInfo,
  type Installation,
} from './update-feed.js';

/** The platform's part (electron-updater in the app): given a checked installer, it installs it on restart or quit. */
export interface UpdateInstaller {
  /** Hands the checked file over (its signature is checked there, where the platform has one). */
  stage(update: { file: string; info: FeedInfo; picked: FeedFile }): Promise<void>;
  /** Quits the app and installs the staged update; the app starts again in the new version. */
  install(): void;
}

export interface UpdateServiceDeps {
  currentVersion: string;
  /** `<data dir>/updates`: the one downloaded installer. */
  dir: string;
  installation: Installation;
  settings: UpdateSettings;
  /** automatic and ask check this often (and at start). */
  checkEveryMs: number;
  /** Why a restart must wait now (restart-blockers.ts), or null. */
  restartBlockedBy(): string | null;
  /** How often a waiting restart asks again (several sources, not all with an event). Default 5 s. */
  recheckMs?: number;
  installer: UpdateInstaller;
  log: Logger;
  now?: () => number;
}

const FEED_TIMEOUT_MS = 30_000;

/** A fetch failure as a person reads it: the address and what the network said. */
function reasonOf(err: unknown): string {
  const e = err as Error & { cause?: { code?: string; message?: string } };
  const cause = e.cause?.code ?? e.cause?.message;
  return cause ? `${e.message} (${cause})` : e.message;
}

export class UpdateService {
  private settings: UpdateSettings;
  private status: UpdateStatus;
  private found: { info: FeedInfo; picked: FeedFile; url: URL } | null = null;
  private running: Promise<void> | null = null;
  private restartPending = false;
  private timer: NodeJS.Timeout | null = null;
  private recheck: NodeJS.Timeout | null = null;
  private readonly listeners = new Set<(view: UpdateView) => void>();
  private readonly now: () => number;

  constructor(private readonly deps: UpdateServiceDeps) {
    this.settings = deps.settings;
    this.now = deps.now ?? Date.now;
    this.status = deps.settings.policy === 'off' ? { kind: 'off' } : { kind: 'not-checked' };
  }

  view(): UpdateView {
    return {
      settings: this.settings,
      currentVersion: this.deps.currentVersion,
      status: this.status,
      restartBlockedBy: this.status.kind === 'ready' ? this.deps.restartBlockedBy() : null,
      restartPending: this.restartPending,
    };
  }

  /** Told of every change of the view (the window, the Electron glue). */
  onChange(listener: (view: UpdateView) => void): () => void {
    this.listeners.add(listener);
    return () => void this.listeners.delete(listener);
  }

  /** At the app's start: the first check and the schedule (none while off). */
  start(): void {
    this.schedule();
  }

  /** New settings from Settings → Updates: off stops everything; another channel or feed forgets what was found. */
  async configure(next: UpdateSettings): Promise<UpdateView> {
    const before = this.settings;
    this.settings = next;
    if (next.channel !== before.channel || next.feedUrl !== before.feedUrl) {
      this.found = null;
      this.restartPending = false;
      this.setStatus({ kind: 'not-checked' });
    }
    if (next.policy === 'off') {
      this.stopTimers();
      this.restartPending = false;
      this.setStatus({ kind: 'off' });
    } else if (this.status.kind === 'off') this.setStatus({ kind: 'not-checked' });
    else this.emit();
    this.schedule();
    if (next.policy === 'automatic' && this.status.kind === 'available') await this.download().catch(() => undefined);
    return this.view();
  }

  /** Reads the feed now; under automatic a newer version is downloaded too. Refused while updates are off. */
  async check(): Promise<UpdateView> {
    this.refuseWhenOff();
    await (this.running ??= this.checkOnce().finally(() => (this.running = null)));
    if (this.settings.policy === 'automatic' && this.status.kind === 'available') await this.download();
    return this.view();
  }

  /** Downloads and checks the version found (the window's Download, or automatic). */
  async download(): Promise<UpdateView> {
    this.refuseWhenOff();
    if (this.running) await this.running;
    if (this.status.kind === 'ready') return this.view();
    const found = this.found;
    if (!found || this.status.kind !== 'available')
      throw new AppError(409, 'conflict', 'No newer version was found to download: check for updates first.');
    await (this.running = this.downloadOnce(found).finally(() => (this.running = null)));
    return this.view();
  }

  /** Restarts into the downloaded version now, or as soon as no login or render runs. */
  install(): UpdateView {
    if (this.status.kind !== 'ready')
      throw new AppError(409, 'conflict', 'No update is ready to install: download it first.');
    const blocked = this.deps.restartBlockedBy();
    if (!blocked) {
      this.installNow();
      return this.view();
    }
    this.deps.log.info({ blocked }, 'updates: restart deferred');
    this.restartPending = true;
    this.recheck ??= setInterval(() => {
      if (this.deps.restartBlockedBy() === null) this.installNow();
    }, this.deps.recheckMs ?? 5_000);
    this.recheck.unref();
    this.emit();
    return this.view();
  }

  dispose(): void {
    this.stopTimers();
    this.listeners.clear();
  }

  private installNow(): void {
    if (this.recheck) clearInterval(this.recheck);
    this.recheck = null;
    this.restartPending = false;
    this.deps.log.info({ version: this.found?.info.version }, 'updates: restarting to install');
    try {
      this.deps.installer.install();
    } catch (err) {
      this.setStatus({ kind: 'failed', step: 'install', reason: (err as Error).message, at: this.now() });
    }
    this.emit();
  }

  private refuseWhenOff(): void {
    if (this.settings.policy === 'off')
      throw new AppError(409, 'updates_off', 'Updates are off: turn them on in Settings → Updates to check.');
  }

  private schedule(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    if (this.settings.policy === 'off') return;
    const tick = () =>
      void this.check().catch((err: Error) => this.deps.log.warn({ err: err.message }, 'updates: check failed'));
    this.timer = setInterval(tick, this.deps.checkEveryMs);
    this.timer.unref();
    if (this.status.kind === 'not-checked') tick();
  }

  private stopTimers(): void {
    if (this.timer) clearInterval(this.timer);
    if (this.recheck) clearInterval(this.recheck);
    this.timer = this.recheck = null;
  }

  private async checkOnce(): Promise<void> {
    if (this.status.kind === 'ready' || this.status.kind === 'downloading') return;
    this.setStatus({ kind: 'checking' });
    const base = new URL(this.settings.feedUrl.endsWith('/') ? this.settings.feedUrl : `${this.settings.feedUrl}/`);
    try {
      let best: { info: FeedInfo; url: URL } | null = null;
      for (const name of channelFiles(this.settings.channel, this.deps.installation)) {
        const url = new URL(name, base);
        const res = await fetch(url, { signal: AbortSignal.timeout(FEED_TIMEOUT_MS), redirect: 'follow' });
        // A feed with no beta file yet: the stable file still counts on the beta channel.
        if (res.status === 404 && name.startsWith('beta')) continue;
        if (!res.ok) throw new Error(`${url.href} answered ${res.status} ${res.statusText}`.trim());
        const info = parseFeed(await res.text(), name);
        // The stable channel never takes a prerelease, even one a stable file names.
        if (this.settings.channel === 'stable' && isPrerelease(info.version)) continue;
        if (!best || compareVersions(info.version, best.info.version) > 0) best = { info, url };
      }
      const checkedAt = this.now();
      if (!best || compareVersions(best.info.version, this.deps.currentVersion) <= 0) {
        this.found = null;
        this.setStatus({ kind: 'up-to-date', checkedAt, latest: best?.info.version ?? this.deps.currentVersion });
        return;
      }
      const picked = pickFile(best.info, this.deps.installation);
      if (!picked)
        throw new Error(
          `version ${best.info.version} has no installer for ${this.deps.installation.platform} in the feed`,
        );
      this.found = { info: best.info, picked, url: new URL(picked.url, best.url) };
      this.deps.log.info({ version: best.info.version }, 'updates: a newer version is out');
      this.setStatus({ kind: 'available', version: best.info.version, checkedAt });
    } catch (err) {
      this.setStatus({ kind: 'failed', step: 'check', reason: reasonOf(err), at: this.now() });
    }
  }

  private async downloadOnce(found: { info: FeedInfo; picked: FeedFile; url: URL }): Promise<void> {
    const version = found.info.version;
    this.setStatus({ kind: 'downloading', version, received: 0, total: found.picked.size });
    try {
      const file = await downloadVerified({
        url: found.url,
        file: found.picked,
        dir: this.deps.dir,
        onProgress: (received, total) => {
          this.status = { kind: 'downloading', version, received, total };
        },
      });
      await this.deps.installer.stage({ file, info: found.info, picked: found.picked });
      this.deps.log.info({ version, file: path.basename(file) }, 'updates: downloaded and checked');
      this.setStatus({ kind: 'ready', version, checkedAt: this.now() });
    } catch (err) {
      this.deps.log.warn({ version, err: reasonOf(err) }, 'updates: download refused or failed');
      this.setStatus({ kind: 'failed', step: 'download', reason: reasonOf(err), at: this.now() });
    }
  }

  private setStatus(status: UpdateStatus): void {
    this.status = status;
    this.emit();
  }

  private emit(): void {
    const view = this.view();
    for (const listener of this.listeners) listener(view);
  }
}
