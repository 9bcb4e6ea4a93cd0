// Moving to a new computer (docs/data-and-secrets.md#backup-restore-and-moving-to-a-new-computer), with real parts: a data dir made
// under one Secret Service keyring (npm test's), backed up by the CLI, restored by the CLI under a second, empty
// keyring (scripts/with-keyring.sh starts a new one) and served from there: every kind of secret works (a saved
// login's password and TOTP secret, a passkey, a mailbox password, the webhook signing secret, the session-cache key, the API key).
// A plain copy of the data dir under an empty keyring says what is missing and makes nothing new in its place.
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPasskeySite, type PasskeySite } from '../../fixtures/sites/passkey.site.js';
import { startSite, type FixtureSite } from '../../fixtures/sites/index.js';
import { startDovecot, type Dovecot } from '../../helpers/dovecot.js';
import { REPO_ROOT } from '../../helpers/repo-root.js';
import { keyringAvailable } from '../../helpers/requires.js';
import { runCli } from '../../helpers/spawn.js';
import { startTestServer, tempDir, type TestServer } from '../../helpers/test-server.js';
import { addMailbox, MAIL_USER, randomTotpSecret, saveLogin, type Json } from '../../helpers/vault-logins.js';
import { makePasskey, savePasskeyLogin } from '../login/passkeys/passkey-kit.js';

const PASSPHRASE = 'a long enough backup passphrase';
const MAIL_PASSWORD = 'imap-password-for-the-move';
const NODE_TS = `${JSON.stringify(process.execPath)} --import tsx`;

let site: FixtureSite;
let totpSite: FixtureSite;
let passkeySite: PasskeySite;
let dovecot: Dovecot;
let original: TestServer;
const TOTP_SECRET = randomTotpSecret();
const made: {
  password?: string;
  totp?: string;
  passkey?: string;
  mailbox?: string;
  webhook?: string;
  session?: string;
} = {};
const children: ChildProcess[] = [];

/** A shell command run under a new, empty keyring (its own D-Bus session); resolves once it prints `listening`. */
function underEmptyKeyring(script: string): Promise<{ url: string; stderr: () => string; stop(): Promise<void> }> {
  const child = spawn(path.join(REPO_ROOT, 'scripts/with-keyring.sh'), ['bash', '-c', script], {
    cwd: REPO_ROOT,
    env: { ...process.env, AGENT_STUDIO_BACKUP_PASSPHRASE: PASSPHRASE },
    detached: true, // its own process group: the keyring daemon and D-Bus go with it
  });
  children.push(child);
  let out = '';
  let err = '';
  const exited = new Promise<void>((resolve) => child.on('exit', () => resolve()));
  const stop = async () => {
    try {
      process.kill(-child.pid!, 'SIGTERM');
    } catch {
      // gone already
    }
    await exited;
  };
  return new Promise((resolve, reject) => {
    child.stderr!.on('data', (d) => (err += d));
    child.stdout!.on('data', (d) => {
      out += d;
      const m = /^listening (http:\/\/\S+)$/m.exec(out);
      if (m) resolve({ url: m[1], stderr: () => err, stop });
    });
    void exited.then(() => reject(new Error(`exited before listening:\n${out}\n${err}`)));
  });
}

const serve = (dataDir: string) =>
  `exec ${NODE_TS} src/main/headless.ts --port 0 --data-dir ${JSON.stringify(dataDir)}`;

function client(url: string, key: string) {
  return async (pathname: string, json?: unknown): Promise<{ status: number; body: Json }> => {
    const res = await fetch(url + pathname, {
      method: json === undefined ? 'GET' : 'POST',
      headers: {
        authorization: `Bearer ${key}`,
        ...(json === undefined ? {} : { 'content-type': 'application/json' }),
      },
      body: json === undefined ? undefined : JSON.stringify(json),
    });
    return { status: res.status, body: (await res.json()) as Json };
  };
}

/** GET /healthz until the first look at the secrets is in. */
async function secretsHealth(url: string): Promise<Json> {
  for (;;) {
    const health = (await (await fetch(`${url}/healthz`)).json()) as Json;
    if (health.secrets !== 'checking') return health;
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe.runIf(keyringAvailable())('moving a data dir to a computer whose keychain is empty', () => {
  beforeAll(async () => {
    [site, totpSite, passkeySite, dovecot] = await Promise.all([
      startSite('classic-csrf'),
      startSite('totp', { totpSecret: TOTP_SECRET }),
      startPasskeySite(),
      startDovecot({ users: [{ user: MAIL_USER, password: MAIL_PASSWORD }] }),
    ]);
    original = await startTestServer({ login: { timeoutMs: 30_000 } });
    const post = (pathname: string, json: unknown) => original.request(pathname, { method: 'POST', json });
    const saved = await saveLogin(post, {
      label: 'the site',
      loginUrl: site.loginUrl,
      username: site.credentials.username,
      password: site.credentials.password,
    });
    made.password = saved.id;
    made.totp = (
      await saveLogin(post, {
        label: 'with an authenticator',
        loginUrl: totpSite.loginUrl,
        username: totpSite.credentials.username,
        password: totpSite.credentials.password,
        totpSecret: TOTP_SECRET,
      })
    ).id;
    made.passkey = await savePasskeyLogin(original, passkeySite, passkeySite.loginUrls.button, [
      makePasskey(passkeySite),
    ]);
    made.mailbox = await addMailbox(original, dovecot, MAIL_PASSWORD);
    made.webhook = ((await (await original.request('/api/webhooks/secret')).json()) as Json).secret as string;
    const login = await post('/api/login', { credential: made.password });
    expect(login.status).toBe(200);
    made.session = login.headers.get('x-session-id')!;
    await original.close();
  });

  afterAll(async () => {
    for (const c of children) {
      try {
        process.kill(-c.pid!, 'SIGKILL');
      } catch {
        // exited
      }
    }
    await Promise.all([site?.close(), totpSite?.close(), passkeySite?.close(), dovecot?.close()]);
  });

  it('a backup restored under the empty keyring works: every kind of secret, the same webhook secret', async () => {
    const file = path.join(tempDir(), 'move.asb');
    const created = runCli(['backup', 'create', '--out', file, '--data-dir', original.dataDir], {
      AGENT_STUDIO_BACKUP_PASSPHRASE: PASSPHRASE,
    });
    expect(created.status, created.stderr).toBe(0);
    expect(fs.readFileSync(file).includes(site.credentials.password)).toBe(false);

    const target = path.join(tempDir(), 'on-the-new-computer');
    const restored = await underEmptyKeyring(
      `${NODE_TS} src/main/cli.ts backup restore ${JSON.stringify(file)} --data-dir ${JSON.stringify(target)} ` +
        `&& ${serve(target)}`,
    );
    try {
      const call = client(restored.url, original.key); // the API key works: its hash is in the database
      expect(await secretsHealth(restored.url)).toMatchObject({ secrets: 'ok', secrets_missing: 0 });
      expect((await call('/api/webhooks/secret')).body.secret).toBe(made.webhook);

      // the cached session opens with the restored session-cache key: a hit, the same session
      const cached = await fetch(`${restored.url}/api/login`, {
        method: 'POST',
        headers: { authorization: `Bearer ${original.key}`, 'content-type': 'application/json' },
        body: JSON.stringify({ credential: made.password }),
      });
      expect(cached.status).toBe(200);
      expect(cached.headers.get('x-session-cache')).toBe('hit');
      expect(cached.headers.get('x-session-id')).toBe(made.session);

      const attempts = site.stats().loginAttempts;
      const fresh = await call('/api/login', { credential: made.password, useCache: false });
      expect(fresh.status, JSON.stringify(fresh.body)).toBe(200);
      expect(site.stats().loginAttempts).toBe(attempts + 1);

      const withTotp = await call('/api/login', { credential: made.totp, useCache: false });
      expect(withTotp.status, JSON.stringify(withTotp.body)).toBe(200);
      expect(totpSite.stats().successfulLogins).toBe(1);

      const withPasskey = await call('/api/login', { credential: made.passkey, useCache: false });
      expect(withPasskey.status, JSON.stringify(withPasskey.body)).toBe(200);
      expect(passkeySite.stats()).toMatchObject({ passkeySignIns: 1 });

      const mailbox = await call(`/api/mailboxes/${made.mailbox}/test`, {});
      expect(mailbox.body, JSON.stringify(mailbox.body)).toMatchObject({ ok: true });
    } finally {
      await restored.stop();
    }
  });

  it('a copy without the backup says what is missing, answers 409 SECRETS_MISSING, and makes no new secret', async () => {
    const copy = path.join(tempDir(), 'copied');
    fs.cpSync(original.dataDir, copy, { recursive: true });
    const moved = await underEmptyKeyring(serve(copy));
    try {
      const call = client(moved.url, original.key);
      const health = await secretsHealth(moved.url);
      expect(health).toMatchObject({ secrets: 'missing' });
      // the webhook secret, the session-cache key, the vault key, the mailbox password (and API key copies)
      expect(health.secrets_missing).toBeGreaterThanOrEqual(4);
      expect(moved.stderr()).toMatch(/\d+ secrets this data dir stored are missing from this computer's secret store/);
      expect(moved.stderr()).toContain(`webhooks.secret:${original.orgId}`);

      for (let i = 0; i < 2; i++) {
        const webhook = await call('/api/webhooks/secret');
        expect(webhook.status).toBe(409);
        expect(webhook.body).toMatchObject({ error: 'secrets_missing' });
        expect(webhook.body.message).toMatch(/webhook signing secret .* missing .*backup create/);
      }
      const login = await call('/api/login', { credential: made.password, useCache: false });
      expect(login.status, JSON.stringify(login.body)).toBe(409);
      expect(login.body).toMatchObject({ error: 'SECRETS_MISSING', details: { credential: made.password } });
      expect(login.body.message).toContain('"the site"');

      const mailbox = await call(`/api/mailboxes/${made.mailbox}/test`, {});
      expect(JSON.stringify(mailbox.body)).toContain("missing from this computer's secret store");
      // nothing was made in place of what is missing
      expect((await secretsHealth(moved.url)).secrets_missing).toBe(health.secrets_missing);
    } finally {
      await moved.stop();
    }
  });
});
