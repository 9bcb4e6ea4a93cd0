// Replacing a file whole (a temp file beside it, fsynced, renamed over it) and moving files, with the short retry
// Windows needs. There a rename over a file, or of one, fails for a moment while another program has it open
// without sharing delete access: antivirus scanning a file just written, the search indexer, a backup or sync
// client, an editor. The error is EPERM, EACCES or EBUSY and goes away once that program lets go, usually within
// milliseconds. graceful-fs (npm's fs layer) retries renames on win32 for the same three codes; this does the
// same, bounded to about a second, because a caller is waiting (a request, the window). On macOS and Linux a
// rename replaces an open file without complaint, and these codes mean something lasting (a read-only folder, a
// mount point): they are thrown at once.
import crypto from 'node:crypto';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import { setTimeout as sleep } from 'node:timers/promises';

/** The codes of a file held open by another program on Windows (libuv's names for the sharing violations). */
export const LOCKED_FILE_CODES: readonly string[] = ['EPERM', 'EACCES', 'EBUSY'];

/** How many times a locked file is tried again before its error is thrown. */
export const MAX_RETRIES = 15;

/** The wait before retry `n` (1-based): 10 ms more each time, at most 100 ms; about 1 s over all the retries. */
export const retryDelayMs = (n: number): number => Math.min(10 * n, 100);

/** Whether `err` is one that waiting may cure on `platform`. */
export function isLockedFileError(err: unknown, platform: NodeJS.Platform): boolean {
  return platform === 'win32' && LOCKED_FILE_CODES.includes((err as NodeJS.ErrnoException | null)?.code ?? '');
}

export interface LockedFileRetry<Wait> {
  /** Whose rules apply (default: this process's platform). Only Windows retries. */
  platform?: NodeJS.Platform;
  /** How to wait between tries (default: a sleep; the sync variant's blocks the thread). */
  wait?: Wait;
}
export type SyncRetry = LockedFileRetry<(ms: number) => void>;
export type AsyncRetry = LockedFileRetry<(ms: number) => Promise<void>>;

/** Blocks this thread for `ms` without spinning: the program holding the file gets the CPU to finish with it. */
function blockFor(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

/** Runs `fn`; on Windows, while it fails because a file is held open, runs it again (bounded), else throws. */
export function retryWhileLockedSync<T>(fn: () => T, opts: SyncRetry = {}): T {
  const platform = opts.platform ?? process.platform;
  for (let retry = 1; ; retry++) {
    try {
      return fn();
    } catch (err) {
      if (retry > MAX_RETRIES || !isLockedFileError(err, platform)) throw err;
      (opts.wait ?? blockFor)(retryDelayMs(retry));
    }
  }
}

/** retryWhileLockedSync for a promise: the waits leave the event loop free. */
export async function retryWhileLocked<T>(fn: () => Promise<T>, opts: AsyncRetry = {}): Promise<T> {
  const platform = opts.platform ?? process.platform;
  for (let retry = 1; ; retry++) {
    try {
      return await fn();
    } catch (err) {
      if (retry > MAX_RETRIES || !isLockedFileError(err, platform)) throw err;
      await (opts.wait ?? sleep)(retryDelayMs(retry));
    }
  }
}

/** fs.renameSync that waits out another program holding either file on Windows. */
export function renameSyncRetrying(from: string, to: string, opts: SyncRetry = {}): void {
  retryWhileLockedSync(() => fs.renameSync(from, to), opts);
}

/** fs.promises.rename that waits out another program holding either file on Windows. */
export function renameRetrying(from: string, to: string, opts: AsyncRetry = {}): Promise<void> {
  return retryWhileLocked(() => fsp.rename(from, to), opts);
}

interface ReplaceOptions {
  /** The new file's permission bits (default 0o666, less the umask, as fs.writeFile makes files). */
  mode?: number;
}
export interface ReplaceFileSyncOptions extends ReplaceOptions, SyncRetry {
  rename?: (from: string, to: string) => void;
}
export interface ReplaceFileOptions extends ReplaceOptions, AsyncRetry {
  rename?: (from: string, to: string) => Promise<void>;
}

/** A new name beside `file`: the same folder, so the same file system, where a rename is atomic. */
const tempBeside = (file: string) => `${file}.${process.pid}.${crypto.randomBytes(4).toString('hex')}.tmp`;

/**
 * Replaces `file` with `data`: written to a temp file beside it and fsynced before it is renamed over, so a reader
 * sees the old file or the new one, never part of one, and the rename never publishes bytes that are not on disk
 * yet. The folder must exist. On failure the temp file is removed and `file` is as it was.
 */
export function replaceFileSync(file: string, data: string | Uint8Array, opts: ReplaceFileSyncOptions = {}): void {
  const temp = tempBeside(file);
  try {
    const fd = fs.openSync(temp, 'wx', opts.mode ?? 0o666);
    try {
      fs.writeFileSync(fd, data);
      fs.fsyncSync(fd);
    } finally {
      fs.closeSync(fd);
    }
    const rename = opts.rename ?? fs.renameSync;
    retryWhileLockedSync(() => rename(temp, file), opts);
  } catch (err) {
    fs.rmSync(temp, { force: true });
    throw err;
  }
}

/** replaceFileSync without blocking: for a large file, or where the event loop must go on meanwhile. */
export async function replaceFile(
  file: string,
  data: string | Uint8Array,
  opts: ReplaceFileOptions = {},
): Promise<void> {
  const temp = tempBeside(file);
  try {
    const handle = await fsp.open(temp, 'wx', opts.mode ?? 0o666);
    try {
      await handle.writeFile(data);
      await handle.sync();
    } finally {
      await handle.close();
    }
    const rename = opts.rename ?? fsp.rename;
    await retryWhileLocked(() => rename(temp, file), opts);
  } catch (err) {
    await fsp.rm(temp, { force: true });
    throw err;
  }
}
