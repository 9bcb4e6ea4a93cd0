import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLoginRecorder, type LoginRecorder } from '../../helpers/login-recorder-imap.js';
import { firstRunKey, spawnServer, type ServerProcess } from '../../helpers/spawn.js';
import { tempDir } from '../../helpers/temp-dir.js';
import { REPO_ROOT } from '../../helpers/repo-root.js';
import { keyringAvailable } from '../../helpers/requires.js';

/**
 * The headless server and the CLI on one data dir at the same time, as
 * docs/getting-started.md#the-headless-server-and-the-cli promises, with
 * secrets in the encrypted file (no keychain) and in the OS keychain (inside scripts/with-keyring.sh).
 * The file backend used to keep one copy per process and write it back whole: the CLI's webhook
 * secret and mailbox passwords were then replaced or lost by the server's next write.
 */
const ROOT = REPO_ROOT;
const hasKeychain = keyringAvailable();
const BACKENDS = [
  {
    name: 'encrypted file (no keychain)',
    env: { DBUS_SESSION_BUS_ADDRESS: '', AGENT_STUDIO_SECRETS_BACKEND: '' },
    interleaved: true,
  },
  // The keychain keeps entries one at a time itself: the long interleaving run would add time, not coverage.
  ...(hasKeychain
    ? [{ name: 'OS keychain', env: { AGENT_STUDIO_SECRETS_BACKEND: 'keychain' }, interleaved: false }]
    : []),
];
const SERVER_WRITES = 240;
const CLI_WRITES = 2;

interface Made {
  id: string;
  user: string;
  password: string;
  kept: boolean;
}

interface Run {
  status: number | null;
  stdout: string;
  stderr: string;
}

/** Runs a process without blocking this one (the server and several CLI runs work at the same time). */
function runAsync(script: string, args: string[], env: NodeJS.ProcessEnv): Promise<Run> {
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(ROOT, script), ...args], {
    cwd: ROOT,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d) => (stdout += d));
  child.stderr.on('data', (d) => (stderr += d));
  return new Promise((resolve) => child.on('close', (status) => resolve({ status, stdout, stderr })));
}

const lastLine = (r: Run) => r.stdout.trim().split('\n').pop() ?? '';

/** Runs `fn` over `items`, at most `n` at a time. */
async function pool<T, R>(items: T[], n: number, fn: (item: T) => Promise<R>): Promise<R[]> {
  const out: R[] = new Array(items.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: n }, async () => {
      while (next < items.length) {
        const i = next++;
        out[i] = await fn(items[i]);
      }
    }),
  );
  return out;
}

describe.each(BACKENDS)('server and CLI on one data dir, secrets in the $name', ({ env, interleaved }) => {
  const dataDir = tempDir();
  let server: ServerProcess;
  let imap: LoginRecorder;
  let key = '';
  let cliMailbox = '';
  let webhookSecret = '';

  const cli = (args: string[], extra: NodeJS.ProcessEnv = {}) =>
    runAsync('src/main/cli.ts', [...args, '--data-dir', dataDir], { ...env, ...extra });
  const api = async (method: string, url: string, body?: unknown) => {
    const res = await fetch(`${server.url}${url}`, {
      method,
      headers: { authorization: `Bearer ${key}`, ...(body ? { 'content-type': 'application/json' } : {}) },
      body: body ? JSON.stringify(body) : undefined,
    });
    const text = await res.text();
    return { status: res.status, json: text ? JSON.parse(text) : null };
  };
  const addByCli = async (user: string, password: string) => {
    const r = await cli(
      [
        'mailboxes',
        'add',
        '--address',
        `${user}@example.com`,
        '--host',
        '127.0.0.1',
        '--port',
        String(imap.port),
      ].concat(['--username', user, '--org', 'default']),
      { MAILBOX_PASSWORD: password },
    );
    expect(r.status, r.stderr).toBe(0);
    return lastLine(r);
  };
  /** The password the server logs in to the mailbox with (recorded by the IMAP server), or its problem. */
  const serverPassword = async (id: string, user: string): Promise<string> => {
    const before = imap.logins.get(user)?.length ?? 0;
    const res = await api('POST', `/api/mailboxes/${id}/test`);
    expect(res.status).toBe(200);
    return imap.logins.get(user)?.[before] ?? res.json.message;
  };
  const cliView = async (...orgs: string[]) => {
    const r = await runAsync('test/helpers/secrets-reader.ts', [dataDir, ...orgs], env);
    expect(r.status, r.stderr).toBe(0);
    return JSON.parse(lastLine(r)) as { backend: string; mailboxes: Record<string, string | null>; webhooks: object };
  };

  beforeAll(async () => {
    // It lets logins in: adding a mailbox checks its login first.
    imap = await startLoginRecorder({ accept: true });
    // Hundreds of requests in a few seconds: above the default per-key rate limit.
    const rateLimit = { perKeyPerSecond: 100_000, perKeyBurst: 100_000 };
    fs.writeFileSync(path.join(dataDir, 'config.json'), JSON.stringify({ server: { rateLimit } }));
    server = await spawnServer(['--port', '0', '--data-dir', dataDir], env);
    key = firstRunKey(server); // full scope, organization "default"
    expect(key).toMatch(/^pk_/);
  });
  afterAll(async () => {
    if (server && server.child.exitCode === null) {
      server.child.kill('SIGTERM');
      await server.exited;
    }
    await imap?.close();
  });

  it('the whsec_ secret the CLI prints is the one the server returns and signs with; rotations are seen both ways', async () => {
    // The server has used the store already (its first-run key). Now both make the organization's
    // first secret: the CLI once, the server on every request while the CLI runs.
    let cliDone = false;
    const fromCli = cli(['webhooks', 'secret', '--org', 'default']).finally(() => (cliDone = true));
    const fromServer = new Set<string>();
    while (!cliDone) {
      fromServer.add((await api('GET', '/api/webhooks/secret')).json.secret);
      await new Promise((r) => setTimeout(r, 20));
    }
    const printed = await fromCli;
    expect(printed.status, printed.stderr).toBe(0);
    expect(lastLine(printed)).toMatch(/^whsec_/);
    fromServer.add((await api('GET', '/api/webhooks/secret')).json.secret);
    expect([...fromServer]).toEqual([lastLine(printed)]);

    // The CLI rotates: the server signs with the new secret at once (the old one keeps signing 24 h).
    expect((await api('POST', '/api/webhooks/secret/rotate')).status).toBe(200);
    const byCli = lastLine(await cli(['webhooks', 'rotate', '--org', 'default']));
    expect(byCli).toMatch(/^whsec_/);
    expect((await api('GET', '/api/webhooks/secret')).json.secret).toBe(byCli);
    // The server rotates: the CLI's view is checked at the end (readable by both).
    webhookSecret = (await api('POST', '/api/webhooks/secret/rotate')).json.secret;
  });

  it('a mailbox the CLI adds while the server runs is usable by the server, also after its own writes', async () => {
    cliMailbox = await addByCli('cli-user', 'cli-password-1');
    const listed = (await api('GET', '/api/mailboxes')).json.data as { id: string }[];
    expect(listed.map((m) => m.id)).toContain(cliMailbox);
    expect(await serverPassword(cliMailbox, 'cli-user')).toBe('cli-password-1');

    // The server's own writes: a webhook rotation and a mailbox of its own.
    webhookSecret = (await api('POST', '/api/webhooks/secret/rotate')).json.secret;
    const own = await api('POST', '/api/mailboxes', {
      addresses: ['server-user@example.com'],
      imap: { host: '127.0.0.1', port: imap.port, username: 'server-user', password: 'server-password-1' },
    });
    expect(own.status).toBe(201);
    expect(await serverPassword(cliMailbox, 'cli-user')).toBe('cli-password-1');
    expect(await serverPassword(own.json.id, 'server-user')).toBe('server-password-1');
  });

  it.runIf(interleaved)(
    'hundreds of interleaved writes from the server and the CLI: every value readable by both',
    async () => {
      // The server keeps writing (slowly, past SERVER_WRITES) until every CLI run is done, so the writes
      // really interleave however long the CLI takes to start.
      let cliDone = false;
      const cliWrites = pool(
        Array.from({ length: CLI_WRITES }, (_, i) => i),
        CLI_WRITES,
        async (i) => ({
          id: await addByCli(`c${i}`, `cli-pw-${i}`),
          user: `c${i}`,
          password: `cli-pw-${i}`,
          kept: true,
        }),
      ).finally(() => (cliDone = true));
      let n = 0;
      const serverWrites = pool(Array.from({ length: 8 }), 8, async () => {
        const mine: Made[] = [];
        for (let i = n++; i < SERVER_WRITES || !cliDone; i = n++) {
          if (i >= SERVER_WRITES) await new Promise((r) => setTimeout(r, 400));
          const res = await api('POST', '/api/mailboxes', {
            addresses: [`s${i}@example.com`],
            imap: { host: '127.0.0.1', port: imap.port, username: `s${i}`, password: `server-pw-${i}` },
          });
          expect(res.status).toBe(201);
          // Deletes are writes too; every tenth mailbox goes again.
          if (i % 10 === 0) expect((await api('DELETE', `/api/mailboxes/${res.json.id}`)).status).toBe(204);
          mine.push({ id: res.json.id as string, user: `s${i}`, password: `server-pw-${i}`, kept: i % 10 !== 0 });
        }
        return mine;
      });
      const [fromServer, fromCli] = await Promise.all([serverWrites, cliWrites]);
      const made = [...fromServer.flat(), ...fromCli];
      expect(made.length).toBeGreaterThanOrEqual(SERVER_WRITES + CLI_WRITES);
      const kept = made.filter((m) => m.kept);
      kept.push({ id: cliMailbox, user: 'cli-user', password: 'cli-password-1', kept: true });

      const listed = new Set(((await api('GET', '/api/mailboxes')).json.data as { id: string }[]).map((m) => m.id));
      for (const m of made) expect(listed.has(m.id), m.user).toBe(m.kept);

      const seenByServer = await pool(kept, 8, async (m) => [m.user, await serverPassword(m.id, m.user)]);
      expect(Object.fromEntries(seenByServer)).toEqual(Object.fromEntries(kept.map((m) => [m.user, m.password])));

      const view = await cliView('default');
      for (const m of kept) expect(view.mailboxes[m.id], m.user).toBe(m.password);
      expect(view.webhooks).toEqual({ default: webhookSecret });
      expect(view.backend).toBe(env.AGENT_STUDIO_SECRETS_BACKEND === 'keychain' ? 'keychain' : 'file');
    },
  );
});
