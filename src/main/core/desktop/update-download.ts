// Downloads an installer named by the update feed into `<data dir>/updates/` and keeps it only when it is what the
// feed says: the same size and the same SHA-512. Anything else is removed and refused: a file that is not the
// release is never offered for installing. The platform's signature checks come after this, in the install step
// (electron-updater: the Windows publisher, the macOS code signature; docs/desktop-app.md#updates).
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { Readable } from 'node:stream';
import { renameRetrying } from '../fs/replace-file.js';
import type { FeedFile } from './update-feed.js';

export class UpdateRefusedError extends Error {}

/** The file name an installer is kept under: the last part of its URL's path, nothing that could leave the folder. */
export function localName(url: URL): string {
  const name = path.basename(decodeURIComponent(url.pathname));
  if (!name || name === '.' || name === '..' || /[\\/]/.test(name))
    throw new UpdateRefusedError(`${url.href} names no file`);
  return name;
}

/**
 * Fetches `file` from `url` into `dir` (a `.part` file while it arrives), checks its size and SHA-512, and returns
 * the final path. Other files in `dir` (older downloads) are removed once it is there.
 */
export async function downloadVerified(opts: {
  url: URL;
  file: FeedFile;
  dir: string;
  signal?: AbortSignal;
  onProgress?: (received: number, total: number) => void;
}): Promise<string> {
  const { url, file, dir } = opts;
  fs.mkdirSync(dir, { recursive: true });
  const name = localName(url);
  const target = path.join(dir, name);
  const part = `${target}.part`;
  const res = await fetch(url, { signal: opts.signal, redirect: 'follow' });
  if (!res.ok || !res.body) throw new Error(`${url.href} answered ${res.status} ${res.statusText}`.trim());
  const hash = crypto.createHash('sha512');
  let received = 0;
  try {
    const out = fs.createWriteStream(part);
    try {
      for await (const chunk of Readable.fromWeb(res.body as import('node:stream/web').ReadableStream<Uint8Array>)) {
        const bytes = chunk as Buffer;
        received += bytes.length;
        // Never more than the feed announced: a larger answer is not the release (and could fill the disk).
        if (received > file.size)
          throw new UpdateRefusedError(
            `${name} is larger than the ${file.size} bytes the feed announced: refused and removed`,
          );
        hash.update(bytes);
        if (!out.write(bytes)) await new Promise<void>((resolve) => out.once('drain', resolve));
        opts.onProgress?.(received, file.size);
      }
    } finally {
      await new Promise<void>((resolve, reject) => out.end((err?: Error | null) => (err ? reject(err) : resolve())));
    }
    if (received !== file.size)
      throw new UpdateRefusedError(
        `${name} has ${received} bytes, not the ${file.size} the feed announced: refused and removed`,
      );
    if (hash.digest('base64') !== file.sha512)
      throw new UpdateRefusedError(
        `${name} does not match the SHA-512 checksum the feed announced: refused and removed`,
      );
    await renameRetrying(part, target);
  } catch (err) {
    fs.rmSync(part, { force: true });
    throw err;
  }
  for (const other of fs.readdirSync(dir))
    if (other !== name) fs.rmSync(path.join(dir, other), { force: true, recursive: true });
  return target;
}
