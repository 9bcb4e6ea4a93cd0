import { spawn } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fs from 'node:fs';
import path from 'node:path';
import { firstRunKey, runCli, spawnServer, type ServerProcess } from '../../helpers/spawn.js';
import { tempDir } from '../../helpers/temp-dir.js';
import { REPO_ROOT } from '../../helpers/repo-root.js';

const auth = (key: string) => ({ headers: { authorization: `Bearer ${key}` } });

describe('headless server + CLI on one data dir', () => {
  const dataDir = tempDir();
  let server: ServerProcess;
  beforeAll(async () => {
    server = await spawnServer(['--port', '0', '--data-dir', dataDir]);
  });
  afterAll(() => {
    if (server.child.exitCode === null) server.child.kill('SIGKILL');
  });

  it('prints one listening line on loopback and, on first run, where its full-scope key is (not the key: stdout is no terminal)', async () => {
    expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    const key = firstRunKey(server);
    expect(key).toMatch(/^pk_[0-9A-Za-z]{40}$/);
    expect(server.stdout() + server.stderr()).not.toContain(key);
    const keyFile = path.join(dataDir, 'first-run-key.txt');
    expect(server.stdout()).toContain(keyFile);
    expect(fs.statSync(keyFile).mode & 0o777).toBe(0o600);
    expect((await fetch(`${server.url}/healthz`)).status).toBe(200);
    const credits = await fetch(`${server.url}/api/credits`, auth(key!));
    expect(credits.status).toBe(200);
    expect((await credits.json()).balance).toBe(1000);
    // the key was kept in the (throwaway) OS keychain, not printed as a failure
    if (process.env.DBUS_SESSION_BUS_ADDRESS) expect(server.stderr()).not.toMatch(/could NOT be saved/);
  });

  it('the agent-key one-liner: keys create without --org (one organization) prints the key alone; --json an object', async () => {
    // As a doc writes it: KEY=$(npm run -s cli -- keys create --name my-agent --scopes login:write,credentials:read)
    const args = ['keys', 'create', '--name', 'my-agent', '--scopes', 'login:write,credentials:read'];
    const created = runCli([...args, '--data-dir', dataDir]);
    expect(created.status, created.stderr).toBe(0);
    expect(created.stdout).toMatch(/^pk_[0-9A-Za-z]{40}\n$/);
    const key = created.stdout.trim();
    expect(created.stderr).toMatch(
      /^created key key_\w+ for default with scopes login:write,credentials:read \(shown once/,
    );
    expect((await fetch(`${server.url}/api/credentials`, auth(key))).status).toBe(200);
    expect((await fetch(`${server.url}/api/credits`, auth(key))).status).toBe(403);

    const json = runCli([...args, '--json', '--data-dir', dataDir]);
    expect(json.status, json.stderr).toBe(0);
    const made = JSON.parse(json.stdout) as { id: string; key: string; org_id: string; name: string; scopes: string[] };
    expect(made).toEqual({
      id: expect.stringMatching(/^key_/),
      key: expect.stringMatching(/^pk_[0-9A-Za-z]{40}$/),
      org_id: expect.any(String),
      name: 'my-agent',
      scopes: ['login:write', 'credentials:read'],
    });
    expect((await fetch(`${server.url}/api/credentials`, auth(made.key))).status).toBe(200);
    const listed = JSON.parse(runCli(['keys', 'list', '--json', '--data-dir', dataDir]).stdout) as { id: string }[];
    expect(listed.map((k) => k.id)).toContain(made.id);
  });

  it('keys create --org prints the key alone; it works at once and revoke stops it at once', async () => {
    const created = runCli(['keys', 'create', '--org', 'acme', '--scopes', 'credits:read', '--data-dir', dataDir]);
    expect(created.status).toBe(0);
    // A new organization is said on stderr: stdout is the key alone.
    expect(created.stderr).toMatch(/^created organization acme /);
    const key = created.stdout.trim();
    expect(key).toMatch(/^pk_[0-9A-Za-z]{40}$/);
    expect((await fetch(`${server.url}/api/credits`, auth(key))).status).toBe(200);
    expect((await fetch(`${server.url}/api/sessions`, auth(key))).status).toBe(403);

    const list = runCli(['keys', 'list', '--org', 'acme', '--json', '--data-dir', dataDir]);
    const keys = JSON.parse(list.stdout) as { id: string; prefix: string }[];
    expect(keys).toHaveLength(1);
    expect(list.stdout).not.toContain(key.slice(8));
    expect(runCli(['keys', 'revoke', keys[0].id, '--data-dir', dataDir]).status).toBe(0);
    const after = await fetch(`${server.url}/api/credits`, auth(key));
    expect(after.status).toBe(401);
    expect(runCli(['keys', 'revoke', keys[0].id, '--data-dir', dataDir]).status).toBe(1);
  });

  it('the usage text lists the options --data-dir and --json', () => {
    const help = runCli(['--help']);
    expect(help.status).toBe(0);
    expect(help.stdout).toMatch(/^usage: npm run -s cli -- <command> \[options\] \[--data-dir DIR\] \[--json\]/);
    expect(help.stdout).toMatch(/^ {2}--data-dir DIR {2,}the data dir to work on/m);
    expect(help.stdout).toMatch(/^ {2}--json {2,}JSON on stdout instead of text/m);
    expect(help.stdout).toMatch(/^ {2}keys create \[--org NAME\] \[--name LABEL\] \[--scopes a,b\] \[--json\]$/m);
  });

  it('orgs list and credits grant', () => {
    const grant = runCli(['credits', 'grant', '--org', 'acme', '--amount', '250', '--data-dir', dataDir]);
    expect(grant.status).toBe(0);
    expect(grant.stdout).toMatch(/balance 250/);
    const orgs = runCli(['orgs', 'list', '--data-dir', dataDir]);
    expect(orgs.stdout).toMatch(/default\s+credits=1000/);
    expect(orgs.stdout).toMatch(/acme\s+credits=250/);
  });

  it('bad usage exits 2 with a clear message', () => {
    // Two organizations now (default and acme): a new key must name its own.
    const which = runCli(['keys', 'create', '--data-dir', dataDir]);
    expect(which.status).toBe(2);
    expect(which.stderr).toMatch(/^--org NAME is required \(there are several organizations\)/);
    expect(which.stdout).toBe('');
    for (const args of [
      [],
      ['keys'],
      ['keys', 'create', 'extra'],
      ['frobnicate'],
      ['credits', 'grant', '--org', 'acme', '--amount', '-5'],
      ['keys', 'create', '--org', 'a', '--bogus'],
    ]) {
      const res = runCli([...args, '--data-dir', dataDir]);
      expect(res.status, args.join(' ')).toBe(2);
      expect(res.stderr).toMatch(/usage|required|unknown|must|Unknown/i);
    }
    expect(runCli(['keys', 'create', '--org', 'acme', '--scopes', 'root', '--data-dir', dataDir]).status).toBe(1);
  });

  // The clean exit (src/main/core/shutdown-signals.ts): code 0, the listener closed, and server.json, which tells
  // stdio MCP servers where this server listens, removed by the server itself (run-server.ts).
  it('SIGTERM shuts down cleanly with exit code 0 and removes its server.json', async () => {
    const record = path.join(dataDir, 'server.json');
    expect(JSON.parse(fs.readFileSync(record, 'utf8'))).toMatchObject({ url: server.url, pid: server.child.pid });
    server.child.kill('SIGTERM');
    expect(await server.exited).toBe(0);
    expect(server.stderr()).toMatch(/shutting down/);
    expect(fs.existsSync(record)).toBe(false);
    await expect(fetch(`${server.url}/healthz`)).rejects.toThrow();
  });

  it('a second start on the same data dir does not create another default key; SIGINT (Ctrl-C) stops it as cleanly; bad flags exit 2', async () => {
    const again = await spawnServer(['--port', '0', '--data-dir', dataDir]);
    expect(again.stdout()).not.toMatch(/pk_/);
    const record = path.join(dataDir, 'server.json');
    expect(JSON.parse(fs.readFileSync(record, 'utf8'))).toMatchObject({ url: again.url, pid: again.child.pid });
    again.child.kill('SIGINT');
    expect(await again.exited).toBe(0);
    expect(fs.existsSync(record)).toBe(false);
    const bad = runCli(['--port', 'x']); // cli ignores --port: unknown option
    expect(bad.status).toBe(2);
  });
});

describe('keys create on a data dir without any organization (the CLI before the first server start)', () => {
  it('makes the organization the first run would (default), and prints the key alone', () => {
    const dataDir = tempDir();
    const created = runCli(['keys', 'create', '--scopes', 'login:write', '--data-dir', dataDir]);
    expect(created.status, created.stderr).toBe(0);
    expect(created.stdout).toMatch(/^pk_[0-9A-Za-z]{40}\n$/);
    expect(created.stderr).toMatch(/^created organization default \(org_\w+\)\n/);
    const orgs = JSON.parse(runCli(['orgs', 'list', '--json', '--data-dir', dataDir]).stdout) as { name: string }[];
    expect(orgs.map((o) => o.name)).toEqual(['default']);
  });
});

describe('the first-run key on a terminal', () => {
  it('is shown once on the terminal, and no key file is written', async () => {
    const dataDir = tempDir();
    const root = REPO_ROOT;
    const command = [process.execPath, '--import', 'tsx', 'src/main/headless.ts', '--port', '0', '--data-dir', dataDir]
      .map((a) => `'${a.replaceAll("'", "'\\''")}'`)
      .join(' ');
    // util-linux `script` runs the server on a pseudo-terminal, as a person's shell would.
    const child = spawn('script', ['-qefc', command, '/dev/null'], { cwd: root, env: process.env });
    let out = '';
    await new Promise<void>((resolve, reject) => {
      child.stdout.on('data', (d) => {
        out += d;
        if (/listening http/.test(out)) resolve();
      });
      child.on('exit', () => reject(new Error(`exited before listening: ${out}`)));
    });
    child.kill('SIGTERM');
    expect(out).toMatch(/shown once; /);
    expect(out).toMatch(/^\s+pk_[0-9A-Za-z]{40}\s*$/m);
    expect(fs.existsSync(path.join(dataDir, 'first-run-key.txt'))).toBe(false);
  });
});
