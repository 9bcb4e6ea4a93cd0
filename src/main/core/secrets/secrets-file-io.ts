// File I/O of the encrypted secrets file (encrypted-file-store.ts): reading it, and replacing it atomically (temp
// file, fsync, rename), each synchronously for a small file and asynchronously for a large one.
import crypto from 'node:crypto';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';

/**
 * A file smaller than this is read and written synchronously while the lock is held: a few milliseconds, in one turn
 * of the event loop, so the lock (other processes wait for it) is not held across many turns on a busy machine. A
 * larger file (a vault of hundreds of saved logins, an import) is read and written asynchronously: the server's
 * other requests go on meanwhile.
 */
export const SYNC_BYTES = 128 * 1024;

const isBusy = (err: unknown) => ['EPERM', 'EBUSY', 'EACCES'].includes((err as NodeJS.ErrnoException).code ?? '');

/** Windows refuses to replace or open a file another process has open for a moment: try again briefly. */
function retryBusy<T>(fn: () => T): T {
  for (let attempt = 0; ; attempt++) {
    try {
      return fn();
    } catch (err) {
      if (attempt >= 20 || !isBusy(err)) throw err;
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 5);
    }
  }
}

async function retryBusyAsync<T>(fn: () => Promise<T>): Promise<T> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await fn();
    } catch (err) {
      if (attempt >= 20 || !isBusy(err)) throw err;
      await sleep(5);
    }
  }
}

/** The file's text, or null when there is none. */
export function readTextSync(file: string): string | null {
  try {
    return retryBusy(() => fs.readFileSync(file, 'utf8'));
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw err;
  }
}

export async function readText(file: string): Promise<string | null> {
  try {
    return await retryBusyAsync(() => fsp.readFile(file, 'utf8'));
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw err;
  }
}

/**
 * Replaces `file` with `text` (mode 600): written to a temp file and fsynced before it is renamed over, so readers
 * never see a partial file and the rename never publishes bytes that are not on disk yet.
 */
export async function replaceFile(file: string, text: string): Promise<void> {
  const tmp = `${file}.${process.pid}.${crypto.randomBytes(4).toString('hex')}.tmp`;
  try {
    if (text.length < SYNC_BYTES) {
      fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
      const fd = fs.openSync(tmp, 'wx', 0o600);
      try {
        fs.writeFileSync(fd, text);
        fs.fsyncSync(fd);
      } finally {
        fs.closeSync(fd);
      }
      retryBusy(() => fs.renameSync(tmp, file));
    } else {
      await fsp.mkdir(path.dirname(file), { recursive: true, mode: 0o700 });
      const fh = await fsp.open(tmp, 'wx', 0o600);
      try {
        await fh.writeFile(text);
        await fh.sync();
      } finally {
        await fh.close();
      }
      await retryBusyAsync(() => fsp.rename(tmp, file));
    }
  } catch (err) {
    await fsp.rm(tmp, { force: true });
    throw err;
  }
}

/** scrypt on the thread pool (~50-100 ms of CPU that must not hold the event loop). */
export function scrypt(password: string, salt: Buffer, opts: crypto.ScryptOptions): Promise<Buffer> {
  return new Promise((resolve, reject) =>
    crypto.scrypt(password, salt, 32, opts, (err, key) => (err ? reject(err) : resolve(key))),
  );
}
