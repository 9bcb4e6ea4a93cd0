// The MCP server over stdio (src/main/mcp.ts as an agent host launches it), driven by the SDK's own client.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseConfig } from '../../src/main/core/config/load-config.js';
import { createCore } from '../../src/main/core/create-core.js';
import { startSite, type FixtureSite } from '../fixtures/sites/index.js';
import { launchTestBrowser, opensProtectedPage } from '../helpers/browser.js';
import {
  callTool,
  dataOf,
  expectMp4,
  generateThroughTools,
  loginArgs,
  MCP_TOOL_NAMES,
  textOf,
} from '../helpers/mcp-agent.js';
import { tempDir } from '../helpers/temp-dir.js';

const ROOT = path.resolve(import.meta.dirname, '..', '..');
const ENTRY = ['--import', 'tsx', path.join(ROOT, 'src/main/mcp.ts')];

let dataDir: string;
let keys: { full: string; sessionsOnly: string };
let site: FixtureSite;
let browser: Browser;
const clients: Client[] = [];
const stderr: string[] = [];

/** A data dir with an org, credits and two keys, made through the core as the CLI would. */
async function prepareDataDir(dir: string) {
  fs.writeFileSync(
    path.join(dir, 'config.json'),
    JSON.stringify({ jobs: { renderConcurrency: 1 }, login: { timeoutMs: 30_000 } }),
  );
  const core = createCore(parseConfig({ dataDir: dir }));
  try {
    const org = core.orgs.create('agents');
    core.credits.grant(org.id, 10_000);
    return {
      full: core.keys.create(org.id).key,
      sessionsOnly: core.keys.create(org.id, { scopes: ['sessions:read'] }).key,
    };
  } finally {
    await core.dispose();
  }
}

async function launch(key: string, keyEnv = 'AGENT_STUDIO_API_KEY'): Promise<Client> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [...ENTRY, '--data-dir', dataDir, ...(keyEnv === 'AGENT_STUDIO_API_KEY' ? [] : ['--key-env', keyEnv])],
    cwd: ROOT,
    env: { ...(process.env as Record<string, string>), [keyEnv]: key },
    stderr: 'pipe',
  });
  transport.stderr?.on('data', (d: Buffer) => stderr.push(d.toString()));
  const client = new Client({ name: 'mcp-stdio-test', version: '1.0.0' });
  await client.connect(transport);
  clients.push(client);
  return client;
}

beforeAll(async () => {
  dataDir = tempDir();
  keys = await prepareDataDir(dataDir);
  site = await startSite('classic-csrf');
  browser = await launchTestBrowser();
});
afterAll(async () => {
  await Promise.all(clients.map((c) => c.close()));
  await browser?.close();
  await site?.close();
});

describe('MCP over stdio (npm run -s mcp)', () => {
  let client: Client;
  beforeAll(async () => {
    client = await launch(keys.full);
  });

  it('lists the tools', async () => {
    const { tools } = await client.listTools();
    expect(tools.map((x) => x.name).sort()).toEqual(MCP_TOOL_NAMES);
  });

  it('logs in to a local site: the returned storageState opens the protected page', async () => {
    const state = dataOf<{ cookies: unknown[] }>(await callTool(client, 'login', loginArgs(site)));
    expect(state.cookies.length).toBeGreaterThan(0);
    expect(await opensProtectedPage(browser, site, state)).toBe(true);
  });

  it('uploads a PNG, generates a video, waits with progress notifications and downloads the MP4', async () => {
    const video = await generateThroughTools(client, tempDir());
    expect(video.progress.length).toBeGreaterThanOrEqual(1);
    // The final 100 is in the result (asserted by generateThroughTools); the SDK client may drop a last progress
    // notification that arrives in the same read as the result (it dispatches notifications a microtask later).
    // The process listens on 127.0.0.1 (any free port) so the presigned URLs it hands out work.
    expect(new URL(video.videoUrl).hostname).toBe('127.0.0.1');
    await expectMp4(video.videoUrl);
  });

  it('answers API errors as tool errors with the API code', async () => {
    const unknown = await callTool(client, 'generate_video', { template_id: 'no-such-template', variables: {} });
    expect(unknown.isError).toBe(true);
    expect(textOf(unknown)).toMatch(/^not_found: /);
    const missing = await callTool(client, 'upload_file', { path: path.join(tempDir(), 'nothing.png') });
    expect(textOf(missing)).toMatch(/^validation_error: No file at /);
  });

  it('a key without templates:read (named by --key-env) gets forbidden for list_templates', async () => {
    const limited = await launch(keys.sessionsOnly, 'MY_STUDIO_KEY');
    const denied = await callTool(limited, 'list_templates');
    expect(denied.isError).toBe(true);
    expect(textOf(denied)).toMatch(/^forbidden: /);
  });

  it('keeps stdout for MCP: nothing but protocol messages reached the client', () => {
    // A stray line on stdout would have failed the client's JSON-RPC parsing above; stderr carries no secret.
    const text = stderr.join('');
    expect(text).not.toContain(keys.full);
    expect(text).not.toContain(site.credentials.password);
  });
});

describe('stdio start-up', () => {
  it('refuses a wrong key at once, on stderr, with nothing on stdout', () => {
    const res = spawnSync(process.execPath, [...ENTRY, '--data-dir', dataDir], {
      cwd: ROOT,
      env: { ...process.env, AGENT_STUDIO_API_KEY: 'sk_wrong_key' },
      encoding: 'utf8',
      input: '',
    });
    expect(res.status).toBe(2);
    expect(res.stdout).toBe('');
    expect(res.stderr).toMatch(/AGENT_STUDIO_API_KEY is not a valid key/);
    expect(res.stderr).not.toContain('sk_wrong_key');
  });
});
