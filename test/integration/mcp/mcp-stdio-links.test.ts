// Links a stdio MCP server hands out (upload_url, video_url) point at the running API server of the same data dir
// (its <dataDir>/server.json), so they still work after the agent host ended the stdio process; without one they
// point at the process itself, and its instructions say they last only as long as it.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { parseConfig } from '../../../src/main/core/config/load-config.js';
import { createCore } from '../../../src/main/core/create-core.js';
import { processAlive } from '../../../src/main/core/child-process.js';
import { SERVER_RECORD_FILE, readServerRecord, writeServerRecord } from '../../../src/main/core/http/server-record.js';
import { startServer, type RunningServer } from '../../../src/main/core/run-server.js';
import { callTool, dataOf, expectMp4, generateThroughTools } from '../../helpers/mcp-agent.js';
import { media } from '../../helpers/media-fixtures.js';
import { REPO_ROOT } from '../../helpers/repo-root.js';
import { tempDir } from '../../helpers/temp-dir.js';

const ENTRY = ['--import', 'tsx', path.join(REPO_ROOT, 'src/main/mcp.ts')];

let dataDir: string;
let filesDir: string;
let key: string;
const open: { client: Client; pid: number }[] = [];

/** The stdio MCP server as an agent host launches it, on the shared data dir. */
async function launch(): Promise<{ client: Client; pid: number }> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [...ENTRY, '--data-dir', dataDir, '--files-dir', filesDir],
    cwd: REPO_ROOT,
    env: { ...(process.env as Record<string, string>), AGENT_STUDIO_API_KEY: key },
    stderr: 'pipe',
  });
  const client = new Client({ name: 'mcp-stdio-links-test', version: '1.0.0' });
  await client.connect(transport);
  const launched = { client, pid: transport.pid as number };
  open.push(launched);
  return launched;
}

/** The host ends the stdio process (stdin closed); resolves once the process is gone. */
async function end(launched: { client: Client; pid: number }): Promise<void> {
  await launched.client.close();
  await vi.waitFor(() => expect(processAlive(launched.pid)).toBe(false), { timeout: 15_000, interval: 50 });
}

/** The API server as headless `serve` runs it: the data dir's config, 127.0.0.1, a free port. */
async function startApiServer(): Promise<RunningServer> {
  const core = createCore(parseConfig({ dataDir, server: { port: 0 }, jobs: { renderConcurrency: 1 } }));
  return startServer(core, { host: '127.0.0.1', port: 0 });
}

async function presign(client: Client) {
  const result = await callTool(client, 'presign_upload', { content_type: 'image/png', file_name: 'photo.png' });
  const text = (result.content as { type: string; text?: string }[]).map((c) => c.text ?? '').join(' ');
  return { ...dataOf<{ s3_key: string; upload_url: string; content_type: string }>(result), text };
}

/** What a result says when its links die with the stdio process. */
const SHORT_LIVED = /work only while this MCP process runs/;

const put = (url: string) =>
  fetch(url, { method: 'PUT', headers: { 'content-type': 'image/png' }, body: new Uint8Array(media.png()) });

beforeAll(async () => {
  dataDir = tempDir();
  filesDir = path.join(tempDir(), 'agent files');
  fs.mkdirSync(filesDir, { recursive: true });
  fs.writeFileSync(path.join(dataDir, 'config.json'), JSON.stringify({ jobs: { renderConcurrency: 1 } }));
  const core = createCore(parseConfig({ dataDir }));
  try {
    const org = core.orgs.create('agents');
    core.credits.grant(org.id, 10_000);
    key = core.keys.create(org.id).key;
  } finally {
    await core.dispose();
  }
});
afterAll(async () => {
  await Promise.all(open.map((l) => l.client.close()));
});

describe('a running API server on the data dir', () => {
  let api: RunningServer;
  beforeAll(async () => {
    api = await startApiServer();
  });
  afterAll(() => api?.close());

  it('links point at it and still work after the stdio process ended', async () => {
    expect(readServerRecord(dataDir)?.url).toBe(api.url);
    const stdio = await launch();
    expect(stdio.client.getInstructions()).toContain(`Right now they point at the running server ${api.url}.`);
    // The stdio process does not record its own listener.
    expect(readServerRecord(dataDir)?.url).toBe(api.url);

    const video = await generateThroughTools(stdio.client, filesDir); // upload_file PUTs to the API server
    expect(new URL(video.videoUrl).origin).toBe(api.url);
    const kept = await presign(stdio.client);
    expect(new URL(kept.upload_url).origin).toBe(api.url);

    await end(stdio);
    await expectMp4(video.videoUrl);
    expect((await put(kept.upload_url)).status).toBe(200);
  });
});

describe('no running API server', () => {
  it('the server removed its record when it closed', () => {
    expect(fs.existsSync(path.join(dataDir, SERVER_RECORD_FILE))).toBe(false);
  });

  it('links point at the stdio process and the instructions say so; a server started later is used at once', async () => {
    const stdio = await launch();
    expect(stdio.client.getInstructions()).toMatch(/Right now no such server runs: links handed out now die with/);
    const own = await presign(stdio.client);
    expect(own.text).toMatch(SHORT_LIVED);
    const ownUrl = new URL(own.upload_url);
    expect(ownUrl.hostname).toBe('127.0.0.1');
    expect((await put(own.upload_url)).status).toBe(200);

    const api = await startApiServer();
    try {
      expect(new URL(api.url).port).not.toBe(ownUrl.port);
      const later = await presign(stdio.client);
      expect(new URL(later.upload_url).origin).toBe(api.url);
      expect(later.text).not.toMatch(SHORT_LIVED);
      await end(stdio);
      expect((await put(later.upload_url)).status).toBe(200);
    } finally {
      await api.close();
    }
  });

  it('a stale server.json (its process gone) is ignored', async () => {
    const gone = spawnSync(process.execPath, ['-e', '']).pid;
    writeServerRecord(dataDir, { url: 'http://127.0.0.1:9', pid: gone, hostname: os.hostname(), started_at: 1 });
    const stdio = await launch();
    expect(stdio.client.getInstructions()).toMatch(/Right now no such server runs/);
    const own = await presign(stdio.client);
    expect(new URL(own.upload_url).port).not.toBe('9');
    expect((await put(own.upload_url)).status).toBe(200);
    await end(stdio);
  });
});
