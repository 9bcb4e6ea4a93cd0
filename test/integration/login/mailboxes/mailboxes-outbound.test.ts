import net from 'node:net';
import pino from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import type { OutboundMode } from '../../../../src/main/core/config/config.schema.js';
import { AppError } from '../../../../src/main/core/errors.js';
import { MailboxError, MailboxesService, MailboxWatchers } from '../../../../src/main/core/login/mailboxes/index.js';
import { MailboxesRepo } from '../../../../src/main/core/login/mailboxes/mailboxes.repo.js';
import { passwordAccount } from '../../../../src/main/core/login/mailboxes/mailboxes.service.js';
import type { OutboundPolicy } from '../../../../src/main/core/net/outbound-policy.js';
import type { Mailbox } from '../../../../src/shared/mailboxes.schema.js';
import { startDovecot } from '../../../helpers/dovecot.js';
import { errorShapeProblem } from '../../../helpers/error-shape.js';
import { namedPolicy, type NameTable } from '../../../helpers/outbound-names.js';
import { runCli } from '../../../helpers/spawn.js';
import { startTestServer, type TestServer } from '../../../helpers/test-server.js';

/**
 * IMAP and the outbound policy: no password without TLS (unless loopback or allowInsecureAuth), and
 * mailbox hosts checked like every other outbound request. The fake IMAP server listens on 127.0.0.1;
 * a resolver hook makes names stand for other ranges (10.0.0.5, 169.254.169.254), so no packet leaves
 * the machine. Route tests use literal addresses, which are decided without connecting anywhere.
 */
const PASSWORD = 'imap-Pw-31xQ';
const cleanup: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const fn of cleanup.splice(0).reverse()) await fn();
});

interface FakeImap {
  port: number;
  connections: number;
  /** LOGIN and AUTHENTICATE commands received. */
  logins: number;
  /** Every byte the clients sent. */
  raw: string;
}

/** An IMAP server that offers no STARTTLS and refuses every login (it only records what it was sent). */
async function fakeImap(): Promise<FakeImap> {
  const caps = 'IMAP4rev1 AUTH=PLAIN';
  const fake: FakeImap = { port: 0, connections: 0, logins: 0, raw: '' };
  const sockets = new Set<net.Socket>();
  const server = net.createServer((socket) => {
    fake.connections++;
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => {});
    let buffered = '';
    let authTag: string | null = null;
    socket.write(`* OK [CAPABILITY ${caps}] fake ready\r\n`);
    socket.on('data', (chunk: Buffer) => {
      fake.raw += chunk.toString('latin1');
      buffered += chunk.toString('latin1');
      for (let i = buffered.indexOf('\r\n'); i >= 0; i = buffered.indexOf('\r\n')) {
        const line = buffered.slice(0, i);
        buffered = buffered.slice(i + 2);
        if (authTag) {
          socket.write(`${authTag} NO [AUTHENTICATIONFAILED] no\r\n`);
          authTag = null;
          continue;
        }
        const [tag, command = '', ...args] = line.split(' ');
        const cmd = command.toUpperCase();
        if (cmd === 'CAPABILITY') socket.write(`* CAPABILITY ${caps}\r\n${tag} OK done\r\n`);
        else if (cmd === 'ID') socket.write(`* ID NIL\r\n${tag} OK done\r\n`);
        else if (cmd === 'LOGIN' || cmd === 'AUTHENTICATE') {
          fake.logins++;
          if (cmd === 'AUTHENTICATE' && args.length < 2) {
            authTag = tag;
            socket.write('+ \r\n');
          } else socket.write(`${tag} NO [AUTHENTICATIONFAILED] no\r\n`);
        } else if (cmd === 'LOGOUT') socket.end(`* BYE\r\n${tag} OK bye\r\n`);
        else socket.write(`${tag} BAD unknown command\r\n`);
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  fake.port = (server.address() as net.AddressInfo).port;
  cleanup.push(
    () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  );
  return fake;
}

const NAMES: NameTable = {
  'imap.corp.test': [{ address: '10.0.0.5', family: 4 }],
  'imap.public.test': [{ address: '93.184.215.14', family: 4 }],
  'imap.loop.test': [{ address: '127.0.0.1', family: 4 }],
  'imap.meta.test': [{ address: '169.254.169.254', family: 4 }],
};

const policy = (mode: OutboundMode = 'private-ok'): OutboundPolicy => namedPolicy(NAMES, mode);

const mailbox = (host: string, port: number, over: Partial<Mailbox['imap']> = {}): Mailbox => ({
  id: 'mbx_test',
  name: 'Work',
  addresses: ['ada@example.com'],
  imap: { host, port, secure: false, username: 'ada', allowInsecureAuth: false, ...over },
  created_at: 1,
});

/** What subscribing to the mailbox ends in: the MailboxError (every case here fails). */
async function subscribeError(m: Mailbox, outbound: OutboundPolicy): Promise<MailboxError> {
  const watchers = new MailboxWatchers({ password: async () => PASSWORD, log: pino({ level: 'silent' }), outbound });
  cleanup.push(() => watchers.dispose());
  const outcome = await watchers.subscribe(m, { onMessage: () => {}, onError: () => {} }).then(
    (sub) => sub.close().then(() => null),
    (e: unknown) => e,
  );
  expect(outcome).toBeInstanceOf(MailboxError);
  return outcome as MailboxError;
}

const sentPassword = (fake: FakeImap) =>
  fake.raw.includes(PASSWORD) || fake.raw.includes(Buffer.from(`\0ada\0${PASSWORD}`).toString('base64'));

describe('IMAP without TLS', () => {
  it('a server without STARTTLS on a host that is not loopback gets no credentials', async () => {
    const fake = await fakeImap();
    const err = await subscribeError(mailbox('imap.corp.test', fake.port), policy());
    expect(fake.connections).toBe(1); // it connected, read the capabilities, and stopped there
    expect(fake.logins).toBe(0);
    expect(sentPassword(fake)).toBe(false);
    expect(err.kind).toBe('refused');
    expect(err.problem).toMatch(/offers no STARTTLS, so the password was not sent/);
    expect(err.message).not.toContain(PASSWORD);
  });

  it('logs in without TLS on loopback, or with allowInsecureAuth', async () => {
    for (const [host, over] of [
      ['imap.loop.test', {}], // a name resolving only to loopback
      ['127.0.0.1', {}],
      ['imap.corp.test', { allowInsecureAuth: true }],
    ] as const) {
      const fake = await fakeImap();
      const err = await subscribeError(mailbox(host, fake.port, over), policy());
      expect(fake.logins, host).toBe(1);
      expect(err.kind, host).toBe('auth'); // the fake refuses every login
    }
  });
});

describe('IMAP hosts and the outbound policy', () => {
  it('link-local is never connected to; public-only refuses loopback and private hosts', async () => {
    const fake = await fakeImap();
    const cases: [string, OutboundMode][] = [
      ['imap.meta.test', 'private-ok'],
      ['169.254.169.254', 'private-ok'],
      ['imap.loop.test', 'public-only'],
      ['127.0.0.1', 'public-only'],
      ['imap.corp.test', 'public-only'],
    ];
    for (const [host, mode] of cases) {
      const err = await subscribeError(mailbox(host, fake.port, { secure: true }), policy(mode));
      expect(err.kind, host).toBe('refused');
      expect(err.problem, host).toMatch(
        new RegExp(`^${host.replace(/\./g, '\\.')} is not connected to: its address is`),
      );
    }
    expect(fake.connections).toBe(0);
  });

  it('network failures of a host that is not public read the same; a public one is described', async () => {
    const closed = await new Promise<number>((resolve) => {
      const srv = net.createServer().listen(0, '127.0.0.1', () => {
        const { port } = srv.address() as net.AddressInfo;
        srv.close(() => resolve(port));
      });
    });
    const corp = await subscribeError(mailbox('imap.corp.test', closed, { secure: true }), policy());
    expect(corp.problem).toBe(`could not connect to an IMAP server at imap.corp.test:${closed}`);
    const pub = await subscribeError(mailbox('imap.public.test', closed, { secure: true }), policy());
    expect(pub.problem).toBe(`connection refused at imap.public.test:${closed}`);
  });
});

describe('/api/mailboxes: no password in clear, hosts the policy refuses are a 400', () => {
  async function server(config: Parameters<typeof startTestServer>[0] = {}): Promise<TestServer> {
    const s = await startTestServer(config);
    cleanup.push(() => s.close());
    return s;
  }
  const body = (imap: Record<string, unknown>) => ({
    name: 'Work',
    addresses: ['ada@example.com'],
    imap: { port: 143, username: 'ada', password: PASSWORD, ...imap },
  });
  async function add(s: TestServer, imap: Record<string, unknown>) {
    const res = await s.request('/api/mailboxes', { method: 'POST', json: body(imap) });
    return { status: res.status, json: (await res.json()) as Record<string, unknown> };
  }
  const expectInvalid = (r: { status: number; json: Record<string, unknown> }, path: string, message: RegExp) => {
    expect(r.status, JSON.stringify(r.json)).toBe(400);
    expect(errorShapeProblem(r.json, 'login')).toBeNull();
    expect(r.json).toMatchObject({ error: 'INVALID_REQUEST', details: { issues: [{ path }] } });
    expect(String(r.json.message)).toMatch(message);
    expect(JSON.stringify(r.json)).not.toContain(PASSWORD);
  };

  /** The service as the route runs it, with the resolver hook: imap.corp.test stands for 10.0.0.5. */
  const serviceOf = (s: TestServer) =>
    new MailboxesService({
      repo: new MailboxesRepo(s.core.db),
      secrets: s.core.secrets,
      log: pino({ level: 'silent' }),
      outbound: policy(),
    });
  const refusal = (err: unknown) => {
    expect(err).toBeInstanceOf(AppError);
    const { status, code, details, message } = err as AppError;
    expect({ status, code }).toEqual({ status: 400, code: 'validation_error' });
    expect(message).not.toContain(PASSWORD);
    return { path: (details as { issues: { path: string }[] }).issues[0].path, message };
  };

  it('on add: the login is checked first; no STARTTLS is refused on imap.secure (no password sent), allowInsecureAuth logs in', async () => {
    const s = await server();
    const fake = await fakeImap();
    const service = serviceOf(s);
    const add = (over: Record<string, unknown> = {}) =>
      service
        .create(s.orgId, {
          addresses: ['ada@example.com'],
          imap: {
            host: 'imap.corp.test',
            port: fake.port,
            secure: false,
            username: 'ada',
            password: PASSWORD,
            ...over,
          },
        })
        .catch((e: unknown) => e);

    const plain = refusal(await add());
    expect(plain.path).toBe('imap.secure');
    expect(plain.message).toMatch(
      /mailbox not saved: the server at .* offers no STARTTLS, so the password was not sent/,
    );
    expect(fake.logins).toBe(0);
    expect(sentPassword(fake)).toBe(false);

    // With leave to log in without TLS the password is tried: the fake refuses it, so it is a 400 on the password.
    const insecure = refusal(await add({ allowInsecureAuth: true }));
    expect(insecure).toEqual({
      path: 'imap.password',
      message: `Invalid body: imap.password: mailbox not saved: login failed: the server at imap.corp.test:${fake.port} rejected the username or password`,
    });
    expect(fake.logins).toBe(1);
    expect(service.list(s.orgId)).toEqual([]);
  });

  it('on add: a host the policy refuses is a 400 on imap.host, whatever secure says', async () => {
    const s = await server();
    for (const host of ['169.254.169.254', '::ffff:a9fe:a9fe', '0.0.0.0', 'metadata.google.internal'])
      expectInvalid(await add(s, { host, secure: true, port: 993 }), 'imap.host', /never connects to/);
    const strict = await server({ network: { outbound: 'public-only' } });
    for (const host of ['127.0.0.1', '10.0.0.5', 'localhost'])
      expectInvalid(await add(strict, { host, secure: true, port: 993 }), 'imap.host', /public-only/);
  });

  it('on test: a saved mailbox whose server no longer offers STARTTLS is a 400 on imap.secure, and gets no password', async () => {
    const s = await server();
    const fake = await fakeImap();
    const service = serviceOf(s);
    // Saved when its server still offered STARTTLS (written as create would: the password first, then the row).
    const saved = { ...mailbox('imap.corp.test', fake.port), orgId: s.orgId };
    await s.core.secrets.set(passwordAccount(saved.id), PASSWORD);
    new MailboxesRepo(s.core.db).insert(saved);
    const refused = refusal(await service.test(saved).catch((e: unknown) => e));
    expect(refused.path).toBe('imap.secure');
    expect(refused.message).toMatch(/offers no STARTTLS, so the password was not sent/);
    expect(fake.logins).toBe(0);
    expect(sentPassword(fake)).toBe(false);
  });

  it('the CLI checks the login before saving: a refused one is not saved and says why (never the password)', async () => {
    const s = await server();
    // A real server in its own process: the CLI runs synchronously, so a fake in this process could not answer.
    const dovecot = await startDovecot({ users: [{ user: 'ada', password: 'the-right-one' }] });
    cleanup.push(() => dovecot.close());
    const added = runCli(
      [
        'mailboxes',
        'add',
        '--address',
        'ada@example.com',
        '--host',
        '127.0.0.1',
        '--port',
        String(dovecot.port),
        '--username',
        'ada',
        '--org',
        'test-org',
        '--data-dir',
        s.dataDir,
      ],
      { MAILBOX_PASSWORD: PASSWORD },
    );
    expect(added.status, added.stderr).toBe(2);
    expect(added.stderr).toContain(
      `mailbox not saved: login failed: the server at 127.0.0.1:${dovecot.port} rejected the username or password`,
    );
    expect(added.stdout + added.stderr).not.toContain(PASSWORD);
    expect(s.core.login.mailboxes.service.list(s.orgId)).toEqual([]);
  });
});
