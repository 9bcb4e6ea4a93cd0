import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import { setTimeout as sleep } from 'node:timers/promises';
import { processAlive } from '../child-process.js';

/** A holder keeps the lock for a few milliseconds of synchronous file work, so older than this is a crash. */
const STALE_MS = 10_000;

export interface FileLockOptions {
  /** Give up after this long (default 15 s): a stuck lock must end in an error, not a hang. */
  timeoutMs?: number;
  staleMs?: number;
  /** Called once, when the lock is first found held by another holder and this caller starts to wait for it. */
  onWait?: () => void;
}

interface Holder {
  pid: number;
  host: string;
  nonce: string;
}

/** The lock was not free within the time-out (its holder is stuck, or a foreign file sits there). */
export class FileLockTimeoutError extends Error {
  override name = 'FileLockTimeoutError';
  constructor(lockFile: string, holder: Holder | null) {
    super(
      `${lockFile} is held by another process${holder ? ` (pid ${holder.pid} on ${holder.host})` : ''}; ` +
        'remove it if that process is gone',
    );
  }
}

function readHolder(lockFile: string): Holder | null {
  try {
    const h = JSON.parse(fs.readFileSync(lockFile, 'utf8')) as Partial<Holder>;
    return typeof h.pid === 'number' && typeof h.host === 'string' && typeof h.nonce === 'string'
      ? (h as Holder)
      : null;
  } catch {
    return null; // gone, or its holder has not written it yet
  }
}

/** A lock file whose holder crashed: its process is gone (same host), or it is older than any real hold. */
function isStale(lockFile: string, staleMs: number): boolean {
  let age: number;
  try {
    age = Date.now() - fs.statSync(lockFile).mtimeMs;
  } catch {
    return false; // released meanwhile: just try again
  }
  if (age > staleMs) return true;
  const holder = readHolder(lockFile);
  // Written right after creation; a holder that has not written yet is given a second to do so.
  if (!holder) return age > 1000;
  return holder.host === os.hostname() && !processAlive(holder.pid);
}

/**
 * Removes a crashed holder's lock without ever removing a live one taken meanwhile: the lock is moved
 * aside first and only deleted when what was moved is the stale lock; a fresh lock is put back with
 * link(), which fails rather than overwrite a lock taken in between.
 */
function breakStale(lockFile: string, staleMs: number): boolean {
  const aside = `${lockFile}.${process.pid}.${crypto.randomBytes(4).toString('hex')}.stale`;
  try {
    fs.renameSync(lockFile, aside);
  } catch (err) {
    // ENOENT: released meanwhile. Else not ours to move now (on Windows: its holder has it open); not retried here
    // (fs/replace-file.ts) because the caller's wait loop tries the whole lock again anyway.
    return (err as NodeJS.ErrnoException).code === 'ENOENT';
  }
  if (isStale(aside, staleMs)) {
    fs.rmSync(aside, { force: true });
    return true;
  }
  try {
    fs.linkSync(aside, lockFile);
  } catch {
    // EEXIST: someone took the lock meanwhile; the moved-aside holder's release leaves it alone (nonce)
  }
  fs.rmSync(aside, { force: true });
  return true;
}

/**
 * Runs `fn` while holding an exclusive lock across processes: `lockFile` created with O_EXCL (works on
 * every OS and local file system, unlike flock, which Node lacks), holding this process's pid so a
 * crashed holder's lock is recovered. `fn` should be short; it runs after every earlier holder released.
 */
export async function withFileLock<T>(
  lockFile: string,
  fn: () => T | Promise<T>,
  opts: FileLockOptions = {},
): Promise<T> {
  const staleMs = opts.staleMs ?? STALE_MS;
  const deadline = Date.now() + (opts.timeoutMs ?? 15_000);
  const me: Holder = { pid: process.pid, host: os.hostname(), nonce: crypto.randomBytes(8).toString('hex') };
  let wait = 1;
  for (;;) {
    let fd: number | null = null;
    try {
      fd = fs.openSync(lockFile, 'wx', 0o600);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    }
    if (fd !== null) {
      try {
        fs.writeSync(fd, JSON.stringify(me));
      } finally {
        fs.closeSync(fd);
      }
      break;
    }
    if (isStale(lockFile, staleMs) && breakStale(lockFile, staleMs)) continue;
    if (wait === 1) opts.onWait?.();
    if (Date.now() > deadline) {
      throw new FileLockTimeoutError(lockFile, readHolder(lockFile));
    }
    // Randomized, growing pause: many waiting processes do not retry in lockstep.
    await sleep(wait + Math.random() * wait);
    wait = Math.min(wait * 2, 20);
  }
  try {
    return await fn();
  } finally {
    // Only our own lock: if it was (wrongly) broken as stale, the next holder's lock must stay.
    if (readHolder(lockFile)?.nonce === me.nonce) fs.rmSync(lockFile, { force: true });
  }
}
