// The API server records its address in <dataDir>/server.json (run-server.ts) and proves, on a health challenge,
// that it serves that data dir (live-server.ts): what the stdio MCP server relies on to point links at it.
import { spawnSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isLiveServer, recordListeningServer } from '../../../src/main/core/http/live-server.js';
import {
  dataDirProof,
  readServerRecord,
  SERVER_RECORD_FILE,
  writeServerRecord,
  type ServerRecord,
} from '../../../src/main/core/http/server-record.js';
import { startTestServer, tempDir, type TestServer } from '../../helpers/test-server.js';

const exitedPid = () => spawnSync(process.execPath, ['-e', '']).pid;

/** Something else on a loopback port that answers /healthz like a server, with a made-up proof. */
async function impostor(): Promise<{ url: string; close: () => Promise<void> }> {
  const server = http.createServer((_req, res) => {
    res.setHeader('content-type', 'application/json');
    res.end(JSON.stringify({ status: 'ok', version: '1', uptime_sec: 1, data_dir_proof: 'ab'.repeat(32) }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

describe('server.json of a running server', () => {
  let t: TestServer;
  let id: { installId: string; dataDir: string };
  beforeAll(async () => {
    t = await startTestServer();
    id = { installId: t.core.installId, dataDir: t.dataDir };
  });
  afterAll(() => t.close());

  it('names the server (url, pid, this machine), mode 0600', () => {
    const file = path.join(t.dataDir, SERVER_RECORD_FILE);
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    expect(readServerRecord(t.dataDir)).toMatchObject({ url: t.url, pid: process.pid });
  });

  it('/healthz answers a challenge with the data dir proof, and without one shows none', async () => {
    const plain = (await (await fetch(`${t.url}/healthz`)).json()) as Record<string, unknown>;
    expect(plain).not.toHaveProperty('data_dir_proof');
    const challenge = crypto.randomBytes(32).toString('hex');
    const proved = (await (await fetch(`${t.url}/healthz?challenge=${challenge}`)).json()) as Record<string, unknown>;
    expect(proved.data_dir_proof).toBe(dataDirProof(id, challenge));
    expect(JSON.stringify(proved)).not.toContain(t.dataDir);
    expect((await fetch(`${t.url}/healthz?challenge=not-hex`)).status).toBe(400);
  });

  it('is live for its own data dir only: not for another install, nor another data dir, nor an impostor', async () => {
    const record = readServerRecord(t.dataDir) as ServerRecord;
    expect(await isLiveServer(record, id)).toBe(true);
    expect(await isLiveServer(record, { ...id, installId: crypto.randomUUID() })).toBe(false);
    expect(await isLiveServer(record, { ...id, dataDir: tempDir() })).toBe(false);
    expect(await isLiveServer({ ...record, hostname: `not-${record.hostname}` }, id)).toBe(false);
    expect(await isLiveServer({ ...record, pid: exitedPid() }, id)).toBe(false);
    const other = await impostor();
    try {
      // A live pid and a /healthz answer on the recorded port are not enough: the proof is what counts.
      expect(await isLiveServer({ ...record, url: other.url }, id)).toBe(false);
    } finally {
      await other.close();
    }
  });

  it('a second server of the data dir keeps the live record', async () => {
    expect(await recordListeningServer(id, 'http://127.0.0.1:1')).toBe(false);
    expect(readServerRecord(t.dataDir)?.url).toBe(t.url);
  });
});

describe('stale records', () => {
  it('are replaced: a dead pid, nothing answering, or something else answering', async () => {
    const dir = tempDir();
    const id = { installId: crypto.randomUUID(), dataDir: dir };
    const base = { hostname: os.hostname(), started_at: Date.now() };
    const other = await impostor();
    try {
      for (const stale of [
        { ...base, url: 'http://127.0.0.1:4780', pid: exitedPid() },
        { ...base, url: 'http://127.0.0.1:1', pid: process.pid },
        { ...base, url: other.url, pid: process.pid },
      ]) {
        writeServerRecord(dir, stale);
        expect(await recordListeningServer(id, 'http://127.0.0.1:4999'), stale.url).toBe(true);
        expect(readServerRecord(dir)).toMatchObject({ url: 'http://127.0.0.1:4999', pid: process.pid });
      }
    } finally {
      await other.close();
    }
  });

  it('the server removes its record when it closes, but not one another server wrote meanwhile', async () => {
    const first = await startTestServer();
    expect(readServerRecord(first.dataDir)?.url).toBe(first.url);
    await first.close();
    expect(fs.existsSync(path.join(first.dataDir, SERVER_RECORD_FILE))).toBe(false);

    const second = await startTestServer();
    const theirs = { url: 'http://127.0.0.1:4999', pid: exitedPid(), hostname: 'elsewhere', started_at: 1 };
    writeServerRecord(second.dataDir, theirs);
    await second.close();
    expect(readServerRecord(second.dataDir)).toEqual(theirs);
  });
});
