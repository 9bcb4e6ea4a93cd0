// File I/O of the encrypted secrets file (encrypted-file-store.ts): reading it, and replacing it atomically (temp
// file, fsync, rename), each synchronously for a small file and asynchronously for a large one, and each tried
// again while another program holds the file open on Windows (fs/replace-file.ts).
import crypto from 'node:crypto';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import {
  replaceFile as replaceFileAsync,
  replaceFileSync,
  retryWhileLocked,
  retryWhileLockedSync,
} from '../fs/replace-file.js';

/**
 * A file smaller than this is read and written synchronously while the lock is held: a few milliseconds, in one turn
 * of the event loop, so the lock (other processes wait for it) is not held across many turns on a busy machine. A
 * larger file (a vault of hundreds of saved logins, an import) is read and written asynchronously: the server's
 * other requests go on meanwhile.
 */
export const SYNC_BYTES = 128 * 1024;

/** The file's text, or null when there is none. */
export function readTextSync(file: string): string | null {
  try {
    return retryWhileLockedSync(() => fs.readFileSync(file, 'utf8'));
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw err;
  }
}

export async function readText(file: string): Promise<string | null> {
  try {
    return await retryWhileLocked(() => fsp.readFile(file, 'utf8'));
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw err;
  }
}

/**
 * Replaces `file` with `text` (mode 600), through replace-file.ts: written to a temp file and fsynced before it is
 * renamed over, so readers never see a partial file and the rename never publishes bytes that are not on disk yet.
 */
export async function replaceFile(file: string, text: string): Promise<void> {
  if (text.length < SYNC_BYTES) {
    fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
    replaceFileSync(file, text, { mode: 0o600 });
  } else {
    await fsp.mkdir(path.dirname(file), { recursive: true, mode: 0o700 });
    await replaceFileAsync(file, text, { mode: 0o600 });
  }
}

/** scrypt on the thread pool (~50-100 ms of CPU that must not hold the event loop). */
export function scrypt(password: string, salt: Buffer, opts: crypto.ScryptOptions): Promise<Buffer> {
  return new Promise((resolve, reject) =>
    crypto.scrypt(password, salt, 32, opts, (err, key) => (err ? reject(err) : resolve(key))),
  );
}
