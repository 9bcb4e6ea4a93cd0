import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { passwordAccount } from '../../../../src/main/core/login/mailboxes/mailboxes.service.js';
import {
  MailboxListSchema,
  MailboxSchema,
  MailboxTestResultSchema,
  type Mailbox,
} from '../../../../src/shared/mailboxes.schema.js';
import { startDovecot, type Dovecot } from '../../../helpers/dovecot.js';
import { errorShapeProblem } from '../../../helpers/error-shape.js';
import { runCli } from '../../../helpers/spawn.js';
import { startTestServer, type TestServer } from '../../../helpers/test-server.js';

/** /api/mailboxes over real HTTP: CRUD, scopes, errors, the password kept out of answers and files, the check. */
const PASSWORD = 'mbx-secret-Kw93pL';
const cleanup: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const fn of cleanup.splice(0).reverse()) await fn();
});

async function server(): Promise<TestServer> {
  const s = await startTestServer();
  cleanup.push(() => s.close());
  return s;
}

/** The IMAP server the mailboxes of most tests are saved against (saving checks the login). */
let shared: Dovecot;
beforeAll(async () => {
  shared = await startDovecot({ users: [{ user: 'ada', password: PASSWORD }] });
}, 60_000);
afterAll(async () => {
  await shared?.close();
});

async function dovecot(): Promise<Dovecot> {
  const d = await startDovecot({ users: [{ user: 'ada', password: PASSWORD }] });
  cleanup.push(() => d.close());
  return d;
}

/** A port with nothing listening on it (bound, then released). */
function closedPort(): Promise<number> {
  return new Promise((resolve) => {
    const srv = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as net.AddressInfo;
      srv.close(() => resolve(port));
    });
  });
}

const body = (over: Record<string, unknown> = {}, imap: Record<string, unknown> = {}) => ({
  name: 'Work',
  addresses: ['ada@example.com'],
  imap: { host: '127.0.0.1', port: shared.port, username: 'ada', password: PASSWORD, ...imap },
  ...over,
});

async function create(s: TestServer, json: unknown, key?: string): Promise<{ status: number; text: string }> {
  const res = await s.request('/api/mailboxes', { method: 'POST', json, key });
  return { status: res.status, text: await res.text() };
}

async function expectLoginError(res: Response, status: number, code: string): Promise<Record<string, unknown>> {
  const json = (await res.json()) as Record<string, unknown>;
  expect(res.status, JSON.stringify(json)).toBe(status);
  expect(errorShapeProblem(json, 'login')).toBeNull();
  expect(json.error).toBe(code);
  return json;
}

/** Every file of the database (main, -wal, -shm) and the log. */
function expectPasswordNotOnDisk(dataDir: string, password: string) {
  const files = fs
    .readdirSync(dataDir)
    .filter((f) => f.startsWith('agent-studio.db'))
    .concat(path.join('logs', 'agent-studio.log'));
  expect(files).toContain('agent-studio.db');
  for (const f of files)
    expect(fs.readFileSync(path.join(dataDir, f)).includes(Buffer.from(password)), `password in ${f}`).toBe(false);
}

describe('/api/mailboxes', () => {
  it('creates, lists and deletes per organization; the password goes to the secret store and nowhere else', async () => {
    const s = await server();
    const created = await create(
      s,
      body({ name: undefined, addresses: ['Ada@Example.com', '*@Corp.Example', 'ada@example.com'] }),
    );
    expect(created.status, created.text).toBe(201);
    expect(created.text).not.toContain(PASSWORD);
    const m = MailboxSchema.parse(JSON.parse(created.text));
    expect(m).toMatchObject({
      name: 'ada@example.com', // default: the first address
      addresses: ['ada@example.com', '*@corp.example'], // lower-cased, without duplicates
      // secure: false by default on any port but 993 (STARTTLS, not required on loopback)
      imap: { host: '127.0.0.1', port: shared.port, secure: false, username: 'ada', allowInsecureAuth: false },
    });
    expect(m.id).toMatch(/^mbx_[A-Za-z0-9]{16}$/);
    expect(Object.keys(JSON.parse(created.text)).sort()).toEqual(['addresses', 'created_at', 'id', 'imap', 'name']);
    expect(await s.core.secrets.get(passwordAccount(m.id))).toBe(PASSWORD);

    const plain = await create(s, body({ name: 'Plain' }));
    const p = MailboxSchema.parse(JSON.parse(plain.text));
    expect(p.imap.secure).toBe(false);

    const listed = await s.request('/api/mailboxes');
    const listText = await listed.text();
    expect(listed.status).toBe(200);
    expect(listText).not.toContain(PASSWORD);
    expect(MailboxListSchema.parse(JSON.parse(listText)).data.map((x) => x.id)).toEqual([m.id, p.id]);

    // Another organization sees none of it and cannot touch it.
    const other = s.newOrg('other-org');
    expect(MailboxListSchema.parse(await (await s.request('/api/mailboxes', { key: other.key })).json()).data).toEqual(
      [],
    );
    await expectLoginError(
      await s.request(`/api/mailboxes/${m.id}`, { method: 'DELETE', key: other.key }),
      404,
      'NOT_FOUND',
    );
    await expectLoginError(
      await s.request(`/api/mailboxes/${m.id}/test`, { method: 'POST', key: other.key }),
      404,
      'NOT_FOUND',
    );
    expect(s.core.login.mailboxes.service.match(other.orgId, 'ada@example.com')).toEqual([]);

    await s.core.logger.flush();
    expectPasswordNotOnDisk(s.dataDir, PASSWORD); // the WAL holds the new rows before a checkpoint
    s.core.db.pragma('wal_checkpoint(TRUNCATE)');
    expectPasswordNotOnDisk(s.dataDir, PASSWORD);

    const del = await s.request(`/api/mailboxes/${m.id}`, { method: 'DELETE' });
    expect(del.status).toBe(204);
    expect(await s.core.secrets.get(passwordAccount(m.id))).toBeNull();
    expect(MailboxListSchema.parse(await (await s.request('/api/mailboxes')).json()).data.map((x) => x.id)).toEqual([
      p.id,
    ]);
    await expectLoginError(await s.request(`/api/mailboxes/${m.id}`, { method: 'DELETE' }), 404, 'NOT_FOUND');
  });

  it('matches plus-addresses and whole domains, case-insensitively', async () => {
    const s = await server();
    const ada = MailboxSchema.parse(JSON.parse((await create(s, body({ name: 'Ada' }))).text));
    const corp = MailboxSchema.parse(
      JSON.parse((await create(s, body({ name: 'Corp', addresses: ['*@corp.example'] }))).text),
    );
    const match = (address: string) => s.core.login.mailboxes.service.match(s.orgId, address).map((x) => x.name);
    expect(match('ada@example.com')).toEqual([ada.name]);
    expect(match('ADA+shop@Example.COM')).toEqual([ada.name]);
    expect(match('ada.b@example.com')).toEqual([]);
    expect(match('bob@example.com')).toEqual([]);
    expect(match('bob+x@Corp.Example')).toEqual([corp.name]);
    expect(match('bob@sub.corp.example')).toEqual([]);
    expect(match('bob@corp.example.org')).toEqual([]);
  });

  it('enforces mailboxes:read and mailboxes:write', async () => {
    const s = await server();
    const m = MailboxSchema.parse(JSON.parse((await create(s, body())).text));
    const reader = s.newOrg('reader-org', ['mailboxes:read']);
    const readerSameOrg = s.core.keys.create(s.orgId, { scopes: ['mailboxes:read'] }).key;
    const loginOnly = s.core.keys.create(s.orgId, { scopes: ['login:write'] }).key;

    expect((await s.request('/api/mailboxes', { key: readerSameOrg })).status).toBe(200);
    expect((await s.request('/api/mailboxes', { key: reader.key })).status).toBe(200);
    const denied = [
      () => s.request('/api/mailboxes', { method: 'POST', json: body(), key: readerSameOrg }),
      () => s.request(`/api/mailboxes/${m.id}`, { method: 'DELETE', key: readerSameOrg }),
      () => s.request(`/api/mailboxes/${m.id}/test`, { method: 'POST', key: readerSameOrg }),
      () => s.request('/api/mailboxes', { key: loginOnly }),
    ];
    for (const call of denied) {
      const err = await expectLoginError(await call(), 403, 'FORBIDDEN');
      expect(String(err.message)).toMatch(/mailboxes:(read|write)/);
    }
    const anon = await expectLoginError(await s.request('/api/mailboxes', { key: null }), 401, 'AUTHENTICATION_FAILED');
    expect(anon.details).toMatchObject({ reason: 'invalid_api_key' });
    expect(MailboxListSchema.parse(await (await s.request('/api/mailboxes')).json()).data).toHaveLength(1);
  });

  it('answers bad input with 400 INVALID_REQUEST naming the field', async () => {
    const s = await server();
    const cases: [unknown, RegExp][] = [
      [body({ addresses: [] }), /addresses/],
      [body({ addresses: ['not-an-address'] }), /addresses\.0/],
      [body({ addresses: ['ada@'] }), /addresses\.0/],
      [body({ addresses: ['*@*.example'] }), /addresses\.0/],
      [body({ addresses: 'ada@example.com' }), /addresses/],
      [body({}, { host: 'imap://mail.example.com' }), /imap\.host/],
      [body({}, { host: '' }), /imap\.host/],
      [body({}, { port: 0 }), /imap\.port/],
      [body({}, { port: 70000 }), /imap\.port/],
      [body({}, { port: '993' }), /imap\.port/],
      [body({}, { secure: 'yes' }), /imap\.secure/],
      [body({}, { username: '' }), /imap\.username/],
      [body({}, { password: undefined }), /imap\.password/],
      [body({ imap: undefined }), /imap/],
      [body({ name: 'x'.repeat(101) }), /name/],
    ];
    for (const [json, field] of cases) {
      const res = await s.request('/api/mailboxes', { method: 'POST', json });
      const err = await expectLoginError(res, 400, 'INVALID_REQUEST');
      expect(String(err.message), JSON.stringify(json)).toMatch(field);
      expect(String(err.message)).not.toContain(PASSWORD);
    }
    const notJson = await s.request('/api/mailboxes', {
      method: 'POST',
      body: '{"addresses":',
      headers: { 'content-type': 'application/json' },
    });
    await expectLoginError(notJson, 400, 'INVALID_REQUEST');
    await expectLoginError(await s.request('/api/mailboxes/nope/test', { method: 'POST' }), 404, 'NOT_FOUND');
    expect(MailboxListSchema.parse(await (await s.request('/api/mailboxes')).json()).data).toEqual([]);
  });

  it('test: ok against Dovecot; ok:false with a plain reason for a wrong password, a closed port and TLS', async () => {
    const [s, d] = await Promise.all([server(), dovecot()]);
    await d.deliver('ada', 'From: a@shop.example\r\nTo: ada@example.com\r\nSubject: one\r\n\r\nbody\r\n');
    const add = async (imap: Record<string, unknown>) =>
      MailboxSchema.parse(JSON.parse((await create(s, body({}, { port: d.port, secure: false, ...imap }))).text));
    const check = async (m: Mailbox) => {
      const res = await s.request(`/api/mailboxes/${m.id}/test`, { method: 'POST' });
      const text = await res.text();
      expect(res.status, text).toBe(200);
      expect(text).not.toContain(PASSWORD);
      expect(text).not.toContain('wrong-Pw-55');
      return MailboxTestResultSchema.parse(JSON.parse(text));
    };

    const good = await check(await add({}));
    expect(good).toMatchObject({ ok: true, messages: 1 });
    expect(good.message).toBe(`connected to 127.0.0.1:${d.port}, logged in as ada and opened INBOX`);
    expect(good.ms).toBeGreaterThanOrEqual(0);

    // Saving checks the login first: a wrong password, a closed port and TLS against a plain port are not
    // saved, with the check's words on the field to change. For loopback every network failure reads the same
    // (docs/security.md#outbound-requests): it cannot be used to map what listens where.
    const refused = async (imap: Record<string, unknown>, field: string, message: string) => {
      const r = await create(s, body({}, { port: d.port, secure: false, ...imap }));
      const json = (await expectLoginError(new Response(r.text, { status: r.status }), 400, 'INVALID_REQUEST')) as {
        message: string;
      };
      expect(json).toMatchObject({ details: { issues: [{ path: field }] } });
      expect(json.message).toBe(`Invalid body: ${field}: mailbox not saved: ${message}`);
      expect(r.text).not.toContain(PASSWORD);
      expect(r.text).not.toContain('wrong-Pw-55');
    };
    const before = s.core.login.mailboxes.service.list(s.orgId).length;
    await refused(
      { password: 'wrong-Pw-55' },
      'imap.password',
      `login failed: the server at 127.0.0.1:${d.port} rejected the username or password`,
    );
    const port = await closedPort();
    await refused({ port }, 'imap.host', `could not connect to an IMAP server at 127.0.0.1:${port}`);
    await refused({ secure: true }, 'imap.host', `could not connect to an IMAP server at 127.0.0.1:${d.port}`);
    expect(s.core.login.mailboxes.service.list(s.orgId)).toHaveLength(before);

    // After saving, the check tells what changed since: the password (changed at the provider)...
    const changed = await add({});
    await s.core.secrets.set(passwordAccount(changed.id), 'wrong-Pw-55');
    const wrong = await check(changed);
    expect(wrong.ok).toBe(false);
    expect(wrong.message).toBe(`login failed: the server at 127.0.0.1:${d.port} rejected the username or password`);
    expect(wrong.messages).toBeUndefined();

    // The secret is gone (removed behind the API's back): a clear answer, not a 500.
    const orphan = await add({});
    await s.core.secrets.delete(passwordAccount(orphan.id));
    expect(await check(orphan)).toMatchObject({ ok: false, message: expect.stringMatching(/password is missing/) });

    // ...and a server that went away.
    const gone = await add({});
    await d.stop();
    expect(await check(gone)).toMatchObject({
      ok: false,
      message: `could not connect to an IMAP server at 127.0.0.1:${d.port}`,
    });

    await s.core.logger.flush();
    expectPasswordNotOnDisk(s.dataDir, PASSWORD);
    expectPasswordNotOnDisk(s.dataDir, 'wrong-Pw-55');
  });

  // 7 CLI processes, each compiling the CLI with tsx: on 2 busy cores they alone can take over a minute.
  it('the CLI adds (password from MAILBOX_PASSWORD, never argv), lists and removes', async () => {
    const s = await server();
    const args = ['--data-dir', s.dataDir];
    const add = runCli(
      [
        'mailboxes',
        'add',
        '--address',
        'ada@example.com',
        '--address',
        '*@corp.example',
        '--host',
        '127.0.0.1',
        '--port',
        String(shared.port),
        '--username',
        'ada',
        '--name',
        'From CLI',
        '--org',
        'test-org',
        ...args,
      ],
      { MAILBOX_PASSWORD: PASSWORD },
    );
    expect(add.status, add.stderr).toBe(0);
    expect(add.stdout + add.stderr).not.toContain(PASSWORD);
    const id = add.stdout.trim().split('\n').pop()!;
    expect(id).toMatch(/^mbx_/);
    const listed = MailboxListSchema.parse(await (await s.request('/api/mailboxes')).json()).data;
    expect(listed).toEqual([
      expect.objectContaining({
        id,
        name: 'From CLI',
        addresses: ['ada@example.com', '*@corp.example'],
        imap: { host: '127.0.0.1', port: shared.port, secure: false, username: 'ada', allowInsecureAuth: false },
      }),
    ]);
    expect(await s.core.secrets.get(passwordAccount(id))).toBe(PASSWORD);

    const list = runCli(['mailboxes', 'list', ...args]);
    expect(list.status, list.stderr).toBe(0);
    expect(list.stdout).toContain(
      `${id}  test-org  From CLI  ada@example.com,*@corp.example  ada@127.0.0.1:${shared.port}`,
    );

    const noPassword = runCli(
      [
        'mailboxes',
        'add',
        '--address',
        'b@example.com',
        '--host',
        'h',
        '--port',
        '143',
        '--username',
        'b',
        '--org',
        'test-org',
        ...args,
      ],
      { MAILBOX_PASSWORD: '' },
    );
    expect(noPassword.status).toBe(2);
    expect(noPassword.stderr).toMatch(/no password: set MAILBOX_PASSWORD or pipe it on stdin/);
    const asFlag = runCli(['mailboxes', 'add', '--password', PASSWORD, ...args]);
    expect(asFlag.status).toBe(2);
    const badPort = runCli(
      ['mailboxes', 'add', '--address', 'b@example.com', '--host', 'h', '--port', 'x', '--username', 'b', ...args],
      { MAILBOX_PASSWORD: PASSWORD },
    );
    expect(badPort.status).toBe(2);
    expect(badPort.stderr).toMatch(/--port/);

    const removed = runCli(['mailboxes', 'remove', id, ...args]);
    expect(removed.status, removed.stderr).toBe(0);
    expect(await s.core.secrets.get(passwordAccount(id))).toBeNull();
    expect(MailboxListSchema.parse(await (await s.request('/api/mailboxes')).json()).data).toEqual([]);
    const again = runCli(['mailboxes', 'remove', id, ...args]);
    expect(again.status).toBe(1);
    expect(again.stderr).toMatch(/No mailbox with id/);
  }, 150_000);
});
