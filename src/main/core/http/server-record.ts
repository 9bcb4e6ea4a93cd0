// `<dataDir>/server.json`: where the API server of a data dir listens (headless `serve`/`npm start`, the desktop
// app). The MCP server on stdio, which only lives as long as its agent host keeps it, reads it to hand out links
// (upload_url, video_url) that point at that longer-lived server. It holds no secret: an address, a pid, a time.
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { z } from 'zod';
import { replaceFileSync } from '../fs/replace-file.js';
import { isLoopbackHost } from './plugins/host-guard.js';

export const SERVER_RECORD_FILE = 'server.json';

const ServerRecordSchema = z.object({
  /** Loopback base URL, e.g. `http://127.0.0.1:4780`. */
  url: z.url().refine((u) => {
    const url = new URL(u);
    return url.protocol === 'http:' && isLoopbackHost(url.host) && url.pathname === '/' && !url.search;
  }, 'url must be an http:// loopback address'),
  pid: z.number().int().positive(),
  /** os.hostname() of the writer: a data dir on a shared drive may be served by another machine's loopback. */
  hostname: z.string(),
  /** Unix milliseconds. */
  started_at: z.number().int(),
});
export type ServerRecord = z.infer<typeof ServerRecordSchema>;

/** What makes a data dir itself (not a copy elsewhere, not another install): see dataDirProof. */
export interface DataDirIdentity {
  /** The install id of the data dir's database (random, never served). */
  installId: string;
  dataDir: string;
}

const recordPath = (dataDir: string) => path.join(dataDir, SERVER_RECORD_FILE);

/** The record of this data dir, or null when there is none or it is not one (a foreign or broken file). */
export function readServerRecord(dataDir: string): ServerRecord | null {
  let text: string;
  try {
    text = fs.readFileSync(recordPath(dataDir), 'utf8');
  } catch {
    return null;
  }
  try {
    const parsed = ServerRecordSchema.safeParse(JSON.parse(text));
    return parsed.success ? { ...parsed.data, url: parsed.data.url.replace(/\/$/, '') } : null;
  } catch {
    return null;
  }
}

/**
 * Writes the record atomically: a new file beside it, created with mode 0600, renamed over the old one, so a
 * reader sees the old record or the new one, never half of one (and retried while Windows holds the old one open).
 */
export function writeServerRecord(dataDir: string, record: ServerRecord): void {
  replaceFileSync(recordPath(dataDir), `${JSON.stringify(record, null, 2)}\n`, { mode: 0o600 });
}

/** Removes the record only while it is still `own` (same pid and url): a later server's record stays. */
export function removeServerRecord(dataDir: string, own: Pick<ServerRecord, 'pid' | 'url'>): boolean {
  const current = readServerRecord(dataDir);
  if (!current || current.pid !== own.pid || current.url !== own.url.replace(/\/$/, '')) return false;
  fs.rmSync(recordPath(dataDir), { force: true });
  return true;
}

/** The record of a server listening at `url` in this process. */
export const ownServerRecord = (url: string): ServerRecord => ({
  url: url.replace(/\/$/, ''),
  pid: process.pid,
  hostname: os.hostname(),
  started_at: Date.now(),
});

/**
 * The answer to a health `challenge` only a process of this very data dir can give: an HMAC keyed by the database's
 * install id (random, never served) over the data dir's real path and the challenge. Another program on the
 * port, another install, or a copy of the data dir elsewhere answers something else; the path is never revealed.
 */
export function dataDirProof(id: DataDirIdentity, challenge: string): string {
  let where = path.resolve(id.dataDir);
  try {
    where = fs.realpathSync(where);
  } catch {
    // not there (yet): its resolved path stands for it, in the server and the checker alike
  }
  return crypto
    .createHmac('sha256', id.installId)
    .update(`agent-studio data-dir proof v1\n${where}\n${challenge}`)
    .digest('hex');
}
