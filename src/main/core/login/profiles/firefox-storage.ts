// A Firefox profile's localStorage, read from copies (profile-copy.ts) into storageState's `origins` shape.
// Firefox ≥ 68 ("LSNG") keeps one database per origin, `storage/default/<sanitized origin>/ls/data.sqlite`, table
// `data(key, utf16_length, conversion_type, compression_type, last_access_time, value)`; older profiles kept every
// origin in `webappsstore.sqlite` (table webappsstore2, rows keyed by a reversed-host `originKey`). An origin LSNG
// holds is read from there (Firefox moved it over from the legacy file on first use), any other from the legacy file.
import fs from 'node:fs';
import path from 'node:path';
import type Database from 'better-sqlite3';
import type * as Snappy from 'snappyjs';
import { lazyRequire } from '../../lazy-module.js';
import type { OriginStorage } from './chromium-local-storage.js';
import { readSqliteCopy } from './profile-copy.js';

type Item = { name: string; value: string };

/** Required by the first compressed value (decodeLsValue is synchronous), not at start. */
const loadSnappy = lazyRequire<typeof Snappy>('snappyjs');

/** Raw Snappy (not the framing format): what Firefox's SnappyCompress writes. Throws on malformed input. */
export function snappyUncompress(src: Buffer): Buffer {
  return loadSnappy().uncompress(src);
}

/** LSValue: compression 1 = Snappy; conversion 1 = stored as UTF-8, 0 = the string's raw UTF-16LE bytes. */
export function decodeLsValue(value: Buffer, conversionType: number, compressionType: number): string | null {
  if (compressionType !== 0 && compressionType !== 1) return null;
  let bytes: Buffer;
  if (compressionType === 1) loadSnappy(); // outside the try: a failed require is not a damaged value
  try {
    bytes = compressionType === 1 ? snappyUncompress(value) : value;
  } catch {
    return null; // a damaged value is left out, like one Firefox itself could not read
  }
  if (conversionType === 1) return bytes.toString('utf8');
  if (conversionType === 0) return bytes.toString('utf16le');
  return null;
}

/** QuotaManager's directory name for an origin: characters a file name cannot hold become '+'. */
export function lsngDirName(origin: string): string {
  return origin.replace(/[\\/:*?"<>|]/g, '+');
}

/** The web origin a `storage/default` directory stands for (http/https, default attributes only), or null. */
export function originOfLsngDir(name: string): string | null {
  const m = /^(https?)\+\+\+(\[[0-9a-fA-F+.]+\]|[^+^[\]]+)(?:\+(\d+))?$/.exec(name);
  if (!m) return null;
  const host = m[2].startsWith('[') ? m[2].replace(/\+/g, ':') : m[2];
  try {
    return new URL(`${m[1]}://${host}${m[3] ? `:${m[3]}` : ''}`).origin;
  } catch {
    return null;
  }
}

/** webappsstore2.originKey: reversed host, then `.:scheme:port` ("1.0.0.721.:http:8080"). */
export function originOfWebappsKey(originKey: string): string | null {
  const [reversed, scheme, port] = originKey.split(':');
  if (!reversed || (scheme !== 'http' && scheme !== 'https')) return null;
  const host = [...reversed].reverse().join('').replace(/^\./, '');
  try {
    return new URL(`${scheme}://${host}${port ? `:${port}` : ''}`).origin;
  } catch {
    return null;
  }
}

function lsngFile(profileDir: string, origin: string): string {
  return path.join(profileDir, 'storage', 'default', lsngDirName(origin), 'ls', 'data.sqlite');
}

function lsngItems(db: Database.Database): Item[] {
  const rows = db.prepare('SELECT key, conversion_type, compression_type, value FROM data').all() as {
    key: string;
    conversion_type: number;
    compression_type: number;
    value: Buffer | string;
  }[];
  const items: Item[] = [];
  for (const r of rows) {
    const raw = typeof r.value === 'string' ? Buffer.from(r.value, 'utf8') : r.value;
    const value = decodeLsValue(raw, r.conversion_type, r.compression_type);
    if (value !== null) items.push({ name: r.key, value });
  }
  return items;
}

function webappsItems(db: Database.Database, origins: readonly string[]): Map<string, Item[]> {
  const found = new Map<string, Item[]>();
  const rows = db
    .prepare("SELECT originKey, key, value FROM webappsstore2 WHERE originAttributes = '' OR originAttributes IS NULL")
    .all() as { originKey: string; key: string; value: string }[];
  for (const r of rows) {
    const origin = originOfWebappsKey(r.originKey);
    if (!origin || !origins.includes(origin)) continue;
    found.set(origin, [...(found.get(origin) ?? []), { name: r.key, value: String(r.value) }]);
  }
  return found;
}

/** The localStorage of `origins` (exact origins) in a Firefox profile; origins holding none are left out. */
export function firefoxLocalStorage(
  profileDir: string,
  profileName: string,
  origins: readonly string[],
): OriginStorage[] {
  const found = new Map<string, Item[]>();
  for (const origin of origins) {
    const file = lsngFile(profileDir, origin);
    if (!fs.existsSync(file)) continue;
    const items = readSqliteCopy(file, profileName, lsngItems);
    if (items.length) found.set(origin, items);
  }
  const legacy = path.join(profileDir, 'webappsstore.sqlite');
  const rest = origins.filter((o) => !found.has(o) && !fs.existsSync(lsngFile(profileDir, o)));
  if (rest.length && fs.existsSync(legacy)) {
    const hasTable = (db: Database.Database) =>
      !!db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'webappsstore2'").get();
    const legacyItems = readSqliteCopy(legacy, profileName, (db) => (hasTable(db) ? webappsItems(db, rest) : null));
    for (const [origin, items] of legacyItems ?? []) found.set(origin, items);
  }
  return origins.filter((o) => found.has(o)).map((origin) => ({ origin, localStorage: found.get(origin)! }));
}

/** The origins with an LSNG localStorage database in the profile (from the directory names: nothing is opened). */
export function firefoxStorageOrigins(profileDir: string): string[] {
  const root = path.join(profileDir, 'storage', 'default');
  let names: string[];
  try {
    names = fs.readdirSync(root);
  } catch {
    return [];
  }
  return names
    .filter((n) => fs.existsSync(path.join(root, n, 'ls', 'data.sqlite')))
    .map(originOfLsngDir)
    .filter((o): o is string => !!o);
}
