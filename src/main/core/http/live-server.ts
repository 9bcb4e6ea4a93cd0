// Whether the server a data dir's server.json names is alive and really that data dir's: its process runs on this
// machine, and it answers a fresh health challenge with the data dir's proof (server-record.ts) — which another
// program that took the port, or a server of another data dir, cannot compute.
import crypto from 'node:crypto';
import http from 'node:http';
import os from 'node:os';
import { API_ROUTES, routeUrl } from '../../../shared/api/index.js';
import {
  dataDirProof,
  ownServerRecord,
  readServerRecord,
  writeServerRecord,
  type DataDirIdentity,
  type ServerRecord,
} from './server-record.js';
import { processAlive } from '../child-process.js';

/** A live local server answers /healthz in milliseconds; a port held by something that never answers is not one. */
const CHECK_TIMEOUT_MS = 2000;
/** The health answer is a few dozen bytes: more is not our server. */
const MAX_ANSWER_BYTES = 4096;

/** GET <url>/healthz?challenge=… straight to the loopback address (no proxy, no redirect); the body or null. */
function getHealth(base: string, challenge: string, timeoutMs: number): Promise<string | null> {
  const url = new URL(routeUrl(API_ROUTES.health, { query: { challenge } }), base);
  return new Promise((resolve) => {
    const req = http.get(url, { agent: false, timeout: timeoutMs }, (res) => {
      if (res.statusCode !== 200) {
        res.resume();
        resolve(null);
        return;
      }
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        body += chunk;
        if (body.length > MAX_ANSWER_BYTES) req.destroy();
      });
      res.on('end', () => resolve(body));
      res.on('error', () => resolve(null));
    });
    req.on('timeout', () => req.destroy());
    req.on('error', () => resolve(null));
    req.on('close', () => resolve(null)); // no-op once resolved
  });
}

/** The record's server runs on this machine and proves it serves this data dir. */
export async function isLiveServer(
  record: ServerRecord,
  id: DataDirIdentity,
  opts: { timeoutMs?: number } = {},
): Promise<boolean> {
  if (record.hostname !== os.hostname() || !processAlive(record.pid)) return false;
  const challenge = crypto.randomBytes(32).toString('hex');
  const body = await getHealth(record.url, challenge, opts.timeoutMs ?? CHECK_TIMEOUT_MS);
  if (body === null) return false;
  let proof: unknown;
  try {
    proof = (JSON.parse(body) as { data_dir_proof?: unknown }).data_dir_proof;
  } catch {
    return false;
  }
  if (typeof proof !== 'string' || !/^[0-9a-f]{64}$/.test(proof)) return false;
  return crypto.timingSafeEqual(Buffer.from(proof, 'hex'), Buffer.from(dataDirProof(id, challenge), 'hex'));
}

/**
 * Records a server that just started listening at `url` in its data dir's server.json, unless the file names
 * another server of the data dir that is alive (it keeps serving the links already handed out). A stale record
 * (its process gone, or nothing of this data dir answering) is replaced. Returns whether this server is recorded.
 */
export async function recordListeningServer(id: DataDirIdentity, url: string): Promise<boolean> {
  const existing = readServerRecord(id.dataDir);
  const own = ownServerRecord(url);
  const isOwn = existing?.pid === own.pid && existing.url === own.url;
  if (existing && !isOwn && (await isLiveServer(existing, id))) return false;
  writeServerRecord(id.dataDir, own);
  return true;
}
