// Every order of first commands on a fresh data dir (CLI first, server first, MCP first), with and without an
// OS keychain: whichever runs first, the server's logins work afterwards (and the MCP server's, MCP first).
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSite, type FixtureSite } from '../../fixtures/sites/index.js';
import { callTool, dataOf, loginArgs, SITE_LOGIN } from '../../helpers/mcp-agent.js';
import { firstRunKey, runCli, spawnServer, type ServerProcess } from '../../helpers/spawn.js';
import { tempDir } from '../../helpers/temp-dir.js';
import { REPO_ROOT } from '../../helpers/repo-root.js';
import { keyringAvailable } from '../../helpers/requires.js';

const ROOT = REPO_ROOT;
const MCP_ENTRY = ['--import', 'tsx', path.join(ROOT, 'src/main/mcp.ts')];

/** Without D-Bus there is no Secret Service: what a server or a container without a desktop session has. */
const NO_KEYCHAIN = { DBUS_SESSION_BUS_ADDRESS: '', AGENT_STUDIO_SECRETS_BACKEND: '' };
const WITH_KEYCHAIN = { AGENT_STUDIO_SECRETS_BACKEND: '' };
const hasKeychain = keyringAvailable();

let site: FixtureSite;
const running: ServerProcess[] = [];
beforeAll(async () => {
  site = await startSite('classic-csrf');
});
afterAll(async () => {
  for (const s of running) if (s.child.exitCode === null) s.child.kill('SIGKILL');
  await site?.close();
});

async function serve(dataDir: string, env: NodeJS.ProcessEnv): Promise<ServerProcess> {
  const server = await spawnServer(['--port', '0', '--data-dir', dataDir], env);
  running.push(server);
  return server;
}

async function stop(server: ServerProcess): Promise<void> {
  server.child.kill('SIGTERM');
  expect(await server.exited).toBe(0);
}

/** A real login through the server: it needs the secret store (the session cache is sealed with a key kept there). */
async function loginThroughServer(server: ServerProcess, key: string): Promise<{ status: number; body: string }> {
  const res = await fetch(`${server.url}/api/login`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify({ cred: site.credentials, loginMethod: 'password', domain: site.loginUrl, useCache: true }),
  });
  return { status: res.status, body: await res.text() };
}

function createKey(dataDir: string, env: NodeJS.ProcessEnv, org: string): string {
  const res = runCli(['keys', 'create', '--org', org, '--data-dir', dataDir], env);
  expect(res.status, res.stderr).toBe(0);
  return res.stdout.trim().split('\n').at(-1) as string;
}

/** The MCP server over stdio, as an agent host launches it; resolves with its login tool's answer. */
async function loginThroughMcp(dataDir: string, env: NodeJS.ProcessEnv, key: string) {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [...MCP_ENTRY, '--data-dir', dataDir, '--files-dir', tempDir()],
    cwd: ROOT,
    env: { ...(process.env as Record<string, string>), ...(env as Record<string, string>), AGENT_STUDIO_API_KEY: key },
    stderr: 'pipe',
  });
  const client = new Client({ name: 'first-commands', version: '1.0.0' });
  await client.connect(transport);
  try {
    return dataOf<{ cookies: unknown[] }>(await callTool(client, 'login', loginArgs(site, { useCache: true })));
  } finally {
    await client.close();
  }
}

function mcpWithoutUsableKey(dataDir: string, env: NodeJS.ProcessEnv, key: string | undefined) {
  return spawnSync(process.execPath, [...MCP_ENTRY, '--data-dir', dataDir], {
    cwd: ROOT,
    env: { ...process.env, ...env, AGENT_STUDIO_API_KEY: key ?? '' },
    encoding: 'utf8',
    input: '',
  });
}

const modes: [string, NodeJS.ProcessEnv, boolean][] = [
  ['without a keychain', NO_KEYCHAIN, true],
  ['with the OS keychain', WITH_KEYCHAIN, hasKeychain],
];

describe.each(modes)('first commands on a fresh data dir, %s', (_mode, env, runs) => {
  it.runIf(runs)('CLI first (keys create, as docs/getting-started.md says), then the server: logins work', async () => {
    const dataDir = tempDir();
    const key = createKey(dataDir, env, 'acme');
    const server = await serve(dataDir, env);
    const login = await loginThroughServer(server, key);
    expect(login.status, login.body).toBe(200);
    // No first-run key either: the data dir already had an organization.
    expect(server.stdout()).not.toMatch(/Created organization/);
    await stop(server);
  });

  it.runIf(runs)('server first, then the CLI while it runs: logins work with both keys', async () => {
    const dataDir = tempDir();
    const server = await serve(dataDir, env);
    const first = firstRunKey(server);
    expect((await loginThroughServer(server, first)).status).toBe(200);
    const second = createKey(dataDir, env, 'acme');
    const login = await loginThroughServer(server, second);
    expect(login.status, login.body).toBe(200);
    await stop(server);
  });

  it.runIf(runs)('MCP first (refused without a key), then the CLI, MCP and the server: logins work', async () => {
    const dataDir = tempDir();
    const none = mcpWithoutUsableKey(dataDir, env, undefined);
    expect(none.status).toBe(2);
    expect(none.stderr).toMatch(/Set AGENT_STUDIO_API_KEY to an API key/);
    const wrong = mcpWithoutUsableKey(dataDir, env, `pk_${'x'.repeat(40)}`);
    expect(wrong.status).toBe(2);
    expect(wrong.stderr).toMatch(/is not a valid key of the data dir/);

    const key = createKey(dataDir, env, 'agents');
    // The person saves the site's login (MCP logs in by a saved login only), then the agent uses its label.
    const saved = runCli(
      [
        'credentials',
        'add',
        '--label',
        SITE_LOGIN,
        '--url',
        site.loginUrl,
        '--username',
        site.credentials.username,
        '--data-dir',
        dataDir,
      ],
      { ...env, CREDENTIAL_PASSWORD: site.credentials.password },
    );
    expect(saved.status, saved.stderr).toBe(0);
    expect((await loginThroughMcp(dataDir, env, key)).cookies.length).toBeGreaterThan(0);
    const server = await serve(dataDir, env);
    const login = await loginThroughServer(server, key);
    expect(login.status, login.body).toBe(200);
    await stop(server);
  });
});
