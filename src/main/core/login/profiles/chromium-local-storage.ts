// A Chromium profile's localStorage (`Local Storage/leveldb`), read from a copy with classic-level. Entries are
// `_<origin>\x00<enc><key>` → `<enc><value>`, where <enc> 0 means UTF-16LE and 1 Latin-1 (DOMStorage's format).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { profileLocked } from './profile-copy.js';

export type OriginStorage = { origin: string; localStorage: { name: string; value: string }[] };

function decodeString(bytes: Uint8Array): string | null {
  if (!bytes.length) return null;
  const body = Buffer.from(bytes.subarray(1));
  if (bytes[0] === 0) return body.toString('utf16le');
  if (bytes[0] === 1) return body.toString('latin1');
  return null;
}

/** The localStorage of `origins` (exact origins), or [] when the profile has none. */
export async function chromiumLocalStorage(
  profileDir: string,
  profileName: string,
  origins: readonly string[],
): Promise<OriginStorage[]> {
  const source = path.join(profileDir, 'Local Storage', 'leveldb');
  if (!fs.existsSync(source) || !origins.length) return [];
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'agent-studio-ls-'));
  try {
    fs.chmodSync(dir, 0o700);
    const copy = path.join(dir, 'leveldb');
    try {
      // LOCK is the running browser's: the copy gets its own.
      fs.cpSync(source, copy, { recursive: true, filter: (src) => path.basename(src) !== 'LOCK' });
    } catch (err) {
      throw profileLocked(profileName, `copying its localStorage failed: ${(err as NodeJS.ErrnoException).code}`);
    }
    const { ClassicLevel } = await import('classic-level');
    const db = new ClassicLevel<Buffer, Buffer>(copy, {
      keyEncoding: 'buffer',
      valueEncoding: 'buffer',
      createIfMissing: false,
    });
    const found = new Map<string, { name: string; value: string }[]>();
    try {
      await db.open();
      for (const origin of origins) {
        const prefix = Buffer.from(`_${origin}\x00`, 'latin1');
        const items: { name: string; value: string }[] = [];
        for await (const [key, value] of db.iterator({
          gte: prefix,
          lt: Buffer.concat([prefix, Buffer.from([0xff])]),
        })) {
          const name = decodeString(key.subarray(prefix.length));
          const text = decodeString(value);
          if (name !== null && text !== null) items.push({ name, value: text });
        }
        if (items.length) found.set(origin, items);
      }
    } finally {
      await db.close();
    }
    return [...found].map(([origin, localStorage]) => ({ origin, localStorage }));
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
