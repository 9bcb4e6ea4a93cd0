// The MCP server over stdio (src/main/mcp.ts as an agent host launches it), driven by the SDK's own client.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseConfig } from '../../../src/main/core/config/load-config.js';
import { createCore } from '../../../src/main/core/create-core.js';
import { startSite, type FixtureSite } from '../../fixtures/sites/index.js';
import { launchTestBrowser, opensProtectedPage } from '../../helpers/browser.js';
import {
  callTool,
  dataOf,
  expectMp4,
  generateThroughTools,
  loginArgs,
  saveSiteLogins,
  MCP_STDIO_TOOL_NAMES,
  textOf,
} from '../../helpers/mcp-agent.js';
import { tempDir } from '../../helpers/temp-dir.js';
import { REPO_ROOT } from '../../helpers/repo-root.js';

const ROOT = REPO_ROOT;
const ENTRY = ['--import', 'tsx', path.join(ROOT, 'src/main/mcp.ts')];

let dataDir: string;
/** The MCP files folder the host names with --files-dir: the only place tools read and write. */
let filesDir: string;
let keys: { full: string; sessionsOnly: string };
let site: FixtureSite;
let browser: Browser;
const clients: Client[] = [];
const stderr: string[] = [];

/** A data dir with an org, credits and two keys, made through the core as the CLI would. */
async function prepareDataDir(dir: string, site: FixtureSite) {
  fs.writeFileSync(
    path.join(dir, 'config.json'),
    JSON.stringify({ jobs: { renderConcurrency: 1 }, login: { timeoutMs: 30_000 } }),
  );
  const core = createCore(parseConfig({ dataDir: dir }));
  try {
    const org = core.orgs.create('agents');
    core.credits.grant(org.id, 10_000);
    await saveSiteLogins(core, org.id, site);
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
    args: [
      ...ENTRY,
      '--data-dir',
      dataDir,
      '--files-dir',
      filesDir,
      ...(keyEnv === 'AGENT_STUDIO_API_KEY' ? [] : ['--key-env', keyEnv]),
    ],
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
  filesDir = path.join(tempDir(), 'agent files');
  site = await startSite('classic-csrf');
  keys = await prepareDataDir(dataDir, site);
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
    expect(tools.map((x) => x.name).sort()).toEqual(MCP_STDIO_TOOL_NAMES);
    const upload = tools.find((x) => x.name === 'upload_file');
    expect(upload?.description).toContain(filesDir);
  });

  it('logs in to a local site: the returned storageState opens the protected page', async () => {
    const state = dataOf<{ cookies: unknown[] }>(await callTool(client, 'login', loginArgs(site)));
    expect(state.cookies.length).toBeGreaterThan(0);
    expect(await opensProtectedPage(browser, site, state)).toBe(true);
  });

  it('uploads a PNG, generates a video, waits with progress notifications and downloads the MP4', async () => {
    fs.mkdirSync(filesDir, { recursive: true });
    const video = await generateThroughTools(client, filesDir);
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
    const missing = await callTool(client, 'upload_file', { path: path.join(filesDir, 'nothing.png') });
    expect(textOf(missing)).toMatch(/^validation_error: No file at /);
  });

  it('a key without templates:read (named by --key-env) is not offered list_templates', async () => {
    const limited = await launch(keys.sessionsOnly, 'MY_STUDIO_KEY');
    expect((await limited.listTools()).tools.map((x) => x.name)).toEqual(['list_sessions']);
    const denied = await callTool(limited, 'list_templates');
    expect(denied.isError).toBe(true);
    expect(textOf(denied)).toMatch(/Tool list_templates not found/);
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

describe('MCP files: one folder, never the data dir, no overwrite unless asked', () => {
  let client: Client;
  let limited: Client;
  beforeAll(async () => {
    fs.mkdirSync(filesDir, { recursive: true });
    fs.writeFileSync(path.join(filesDir, 'photo.png'), 'bytes of a file in the folder');
    client = await launch(keys.full);
    limited = await launch(keys.sessionsOnly);
  });

  it('login writes the state inside the folder (0600); an existing file is replaced only with overwrite', async () => {
    const first = dataOf<{ path: string; cookie_count: number }>(
      await callTool(client, 'login', loginArgs(site, { path: 'states/site.json', useCache: true })),
    );
    const file = path.join(fs.realpathSync(filesDir), 'states', 'site.json');
    expect(first.path).toBe(file);
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    expect(await opensProtectedPage(browser, site, JSON.parse(fs.readFileSync(file, 'utf8')))).toBe(true);

    fs.writeFileSync(file, 'an older state');
    const again = await callTool(client, 'login', loginArgs(site, { path: file, useCache: true }));
    expect(textOf(again)).toMatch(/^INVALID_REQUEST: .*exists; pass overwrite: true/);
    expect(fs.readFileSync(file, 'utf8')).toBe('an older state');
    dataOf(await callTool(client, 'login', loginArgs(site, { path: file, overwrite: true, useCache: true })));
    expect(JSON.parse(fs.readFileSync(file, 'utf8'))).toHaveProperty('cookies');
  });

  it('refuses every path outside the folder: absolute, .., a symlink out, the data dir and its key file', async () => {
    const outside = tempDir();
    fs.symlinkSync(outside, path.join(filesDir, 'link-out'));
    const keyFile = path.join(dataDir, 'secrets.key');
    const keyBefore = fs.existsSync(keyFile) ? fs.readFileSync(keyFile) : null;
    for (const given of [
      path.join(outside, 'state.json'),
      '../state.json',
      'link-out/state.json',
      keyFile,
      path.join(dataDir, 'state.json'),
      filesDir,
    ]) {
      const res = await callTool(client, 'login', loginArgs(site, { path: given, overwrite: true, useCache: true }));
      expect(textOf(res), given).toMatch(/^INVALID_REQUEST: path must name a file inside /);
    }
    expect(fs.readdirSync(outside)).toEqual([]);
    expect(fs.existsSync(path.join(dataDir, 'state.json'))).toBe(false);
    expect(fs.existsSync(keyFile) ? fs.readFileSync(keyFile) : null).toEqual(keyBefore);

    const host = await callTool(client, 'upload_file', { path: '/etc/hostname' });
    expect(textOf(host)).toMatch(/^validation_error: path must name a file inside /);
    const viaLink = path.join(outside, 'photo.png');
    fs.copyFileSync(path.join(filesDir, 'photo.png'), viaLink);
    const linked = await callTool(client, 'upload_file', { path: 'link-out/photo.png' });
    expect(textOf(linked)).toMatch(/^validation_error: path must name a file inside /);
  });

  it('a key without templates:read learns nothing about files: the same refusal for a file and for none', async () => {
    const there = await callTool(limited, 'upload_file', { path: 'photo.png' });
    const notThere = await callTool(limited, 'upload_file', { path: 'no-such-file.png' });
    const elsewhere = await callTool(limited, 'upload_file', { path: '/etc/hostname' });
    // Not offered to it at all (mcp-tool-scopes.ts): the tool is unknown, whatever the path.
    expect(textOf(there)).toMatch(/Tool upload_file not found/);
    expect(textOf(notThere)).toBe(textOf(there));
    expect(textOf(elsewhere)).toBe(textOf(there));
    // The same for a login's path: a key that may not log in is refused before the path is looked at.
    fs.writeFileSync(path.join(filesDir, 'taken.json'), 'x');
    const taken = await callTool(limited, 'login', loginArgs(site, { path: 'taken.json' }));
    const free = await callTool(limited, 'login', loginArgs(site, { path: 'free.json' }));
    expect(textOf(taken)).toMatch(/Tool login not found/);
    expect(textOf(free)).toBe(textOf(taken));
    expect(fs.existsSync(path.join(filesDir, 'free.json'))).toBe(false);
  });

  it('will not start with a files folder inside the data dir', () => {
    const res = spawnSync(process.execPath, [...ENTRY, '--data-dir', dataDir, '--files-dir', path.join(dataDir, 'f')], {
      cwd: ROOT,
      env: { ...process.env, AGENT_STUDIO_API_KEY: keys.full },
      encoding: 'utf8',
      input: '',
    });
    expect(res.status).toBe(2);
    expect(res.stderr).toMatch(/must not be the data dir, inside it or around it/);
  });
});
