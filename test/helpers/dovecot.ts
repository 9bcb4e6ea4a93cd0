/**
 * A real Dovecot IMAP server on 127.0.0.1 for tests: its own temp dir (config, passwd-file, Maildirs,
 * base_dir and state_dir), so several can run at once. Plain IMAP (ssl = no) with plain-text passwords.
 */
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { ImapFlow } from 'imapflow';
import MailComposer from 'nodemailer/lib/mail-composer';
import { tempDir } from './temp-dir.js';

/**
 * Where a Dovecot program is: on PATH, or in the sbin folders packages put it in (Debian/Fedora /usr/sbin, a source
 * build /usr/local/sbin, Homebrew /opt/homebrew/sbin and /usr/local/sbin), or null.
 */
export function findDovecotProgram(
  name: 'dovecot' | 'doveadm',
  env: NodeJS.ProcessEnv = process.env,
  exists: (file: string) => boolean = fs.existsSync,
): string | null {
  const dirs = [
    ...(env.PATH ?? '').split(path.delimiter).filter(Boolean),
    '/usr/sbin',
    '/usr/local/sbin',
    '/opt/homebrew/sbin',
    '/usr/bin',
  ];
  return dirs.map((dir) => path.join(dir, name)).find((file) => exists(file)) ?? null;
}

/** The program's path, or an error that says how to get it (a bare spawn ENOENT names nothing). */
function dovecotProgram(name: 'dovecot' | 'doveadm'): string {
  const found = findDovecotProgram(name);
  if (!found)
    throw new Error(
      `${name} is not installed (looked on PATH and in /usr/sbin, /usr/local/sbin, /opt/homebrew/sbin): the mailbox ` +
        'tests need a real Dovecot IMAP server (Debian/Ubuntu: apt install dovecot-imapd; Fedora: dnf install dovecot; ' +
        '`node scripts/bootstrap.mjs --test` installs it where it may)',
    );
  return found;
}
const run = promisify(execFile);

/** Masters still running when the test process exits get SIGTERM (a master then stops its own children). */
const running = new Set<ChildProcess>();
process.once('exit', () => running.forEach((p) => p.kill('SIGTERM')));

export interface DovecotUser {
  user: string;
  password: string;
}

export interface Dovecot {
  host: '127.0.0.1';
  port: number;
  /** Adds a message to the user's INBOX: IMAP APPEND while running, else straight into the Maildir's new/. */
  deliver(user: string, rfc822: string | Buffer): Promise<void>;
  /** Stops the server (its IMAP sessions are dropped). */
  stop(): Promise<void>;
  /** Starts it again on the same port, with the same mail. */
  start(): Promise<void>;
  restart(): Promise<void>;
  /** Drops every IMAP session of the user (doveadm kick); the server keeps running. */
  kick(user: string): Promise<void>;
  /** The user's open IMAP sessions (doveadm who). */
  connections(user: string): Promise<number>;
  /**
   * Changes a user's password. Dovecot re-reads the passwd-file at most once a second, so restart() to be
   * sure the next login sees it.
   */
  setPassword(user: string, password: string): void;
  /** Dovecot's own log, for failure messages. */
  log(): string;
  /** Stops the server and removes its temp dir. */
  close(): Promise<void>;
}

interface Account {
  uid: number;
  gid: number;
  name: string;
}

/** An account from /etc/passwd (Dovecot refuses root for its login processes and for mail access). */
function systemAccount(name: string): Account | null {
  const line = fs
    .readFileSync('/etc/passwd', 'utf8')
    .split('\n')
    .find((l) => l.startsWith(`${name}:`));
  if (!line) return null;
  const [, , uid, gid] = line.split(':');
  return { name, uid: Number(uid), gid: Number(gid) };
}

function accounts(): { login: string; internal: string; mail: Account } {
  const me = os.userInfo();
  if (me.uid !== 0) {
    const self = { name: me.username, uid: me.uid, gid: me.gid };
    return { login: self.name, internal: self.name, mail: self };
  }
  const nobody = systemAccount('nobody') ?? { name: 'nobody', uid: 65534, gid: 65534 };
  return {
    login: systemAccount('dovenull')?.name ?? nobody.name,
    internal: systemAccount('dovecot')?.name ?? nobody.name,
    mail: nobody,
  };
}

/** A port nobody listens on right now (Dovecot cannot take port 0); the caller retries when it is taken meanwhile. */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as net.AddressInfo;
      srv.close(() => resolve(port));
    });
  });
}

const instanceName = (dir: string) => `agent-studio-test-${path.basename(dir)}`;

/**
 * Processes of one Dovecot instance (their titles start with "dovecot-<instance_name>/"). Its IMAP sessions
 * outlive a stopped master, so stop() ends them itself: a stop must drop the connections.
 */
function instancePids(dir: string): number[] {
  const prefix = `dovecot-${instanceName(dir)}/`;
  const pids: number[] = [];
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (fs.readFileSync(`/proc/${entry}/cmdline`, 'latin1').startsWith(prefix)) pids.push(Number(entry));
    } catch {
      // gone meanwhile, or not ours to read
    }
  }
  return pids;
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    const state = /\) (\S)/.exec(fs.readFileSync(`/proc/${pid}/stat`, 'latin1'))?.[1];
    return state !== 'Z';
  } catch {
    return false;
  }
}

function config(dir: string, port: number, greeting: string, who: ReturnType<typeof accounts>): string {
  return `
base_dir = ${dir}/run
state_dir = ${dir}/state
instance_name = ${instanceName(dir)}
log_path = ${dir}/dovecot.log
protocols = imap
listen = 127.0.0.1
ssl = no
disable_plaintext_auth = no
auth_mechanisms = plain login
auth_failure_delay = 0
login_greeting = ${greeting}
default_internal_user = ${who.internal}
default_internal_group = ${who.internal}
default_login_user = ${who.login}
first_valid_uid = ${Math.min(who.mail.uid, 500)}
mail_location = maildir:${dir}/mail/%u
mail_fsync = never
passdb {
  driver = passwd-file
  args = scheme=PLAIN username_format=%u ${dir}/passwd
}
userdb {
  driver = static
  args = uid=${who.mail.uid} gid=${who.mail.gid} home=${dir}/mail/%u
}
protocol imap {
  mail_max_userip_connections = 100
}
service imap-login {
  inet_listener imap {
    address = 127.0.0.1
    port = ${port}
  }
  inet_listener imaps {
    port = 0
  }
}
`;
}

/** Resolves once the server greets with `greeting` (so it is ours, not whoever took the port meanwhile). */
function waitForGreeting(port: number, greeting: string, child: ChildProcess, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  return new Promise((resolve, reject) => {
    const attempt = () => {
      if (child.exitCode !== null || child.signalCode !== null) return reject(new Error('dovecot exited'));
      if (Date.now() > deadline) return reject(new Error(`dovecot did not greet on port ${port}`));
      const socket = net.connect(port, '127.0.0.1');
      let text = '';
      socket.setEncoding('utf8');
      socket.on('data', (d) => {
        text += d;
        if (!text.includes('\r\n')) return;
        socket.destroy();
        if (text.includes(greeting)) resolve();
        else reject(new Error(`another server answers on port ${port}`));
      });
      socket.on('error', () => {
        socket.destroy();
        setTimeout(attempt, 25); // not listening yet: the master binds right after reading its config
      });
    };
    attempt();
  });
}

/** Starts Dovecot with these users (each with an empty INBOX) and resolves once it greets. */
export async function startDovecot(opts: { users: DovecotUser[] }): Promise<Dovecot> {
  const dir = tempDir('agent-studio-dovecot-');
  fs.chmodSync(dir, 0o755); // Dovecot's login and mail processes run as other users and must reach their dirs
  const who = accounts();
  const passwords = new Map(opts.users.map((u) => [u.user, u.password]));
  const writePasswd = () => {
    for (const [user, pw] of passwords)
      if (/[:\n]/.test(user + pw)) throw new Error('test users and passwords cannot contain ":" or newlines');
    const body = [...passwords].map(([user, pw]) => `${user}:{PLAIN}${pw}::::::\n`).join('');
    // Readable by Dovecot's auth process (another user); replaced whole, so no login reads half a file.
    fs.writeFileSync(`${dir}/passwd.tmp`, body, { mode: 0o644 });
    fs.renameSync(`${dir}/passwd.tmp`, `${dir}/passwd`);
  };
  writePasswd();
  const maildir = (user: string) => path.join(dir, 'mail', user);
  for (const d of ['run', 'state']) fs.mkdirSync(path.join(dir, d));
  for (const user of passwords.keys())
    for (const sub of ['', 'new', 'cur', 'tmp']) {
      const p = path.join(maildir(user), sub);
      fs.mkdirSync(p, { recursive: true });
      fs.chownSync(p, who.mail.uid, who.mail.gid);
    }
  fs.chownSync(path.join(dir, 'mail'), who.mail.uid, who.mail.gid);

  const greeting = `agent-studio-test-${crypto.randomBytes(6).toString('hex')}`;
  let port = 0;
  let child: ChildProcess | null = null;
  let exited: Promise<void> = Promise.resolve();

  const launch = async (onPort: number) => {
    fs.writeFileSync(`${dir}/dovecot.conf`, config(dir, onPort, greeting, who));
    const proc = spawn(dovecotProgram('dovecot'), ['-F', '-c', `${dir}/dovecot.conf`], {
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    proc.stderr?.on('data', (d) => (stderr += d));
    running.add(proc);
    exited = new Promise((resolve) =>
      proc.once('exit', () => {
        running.delete(proc);
        resolve();
      }),
    );
    try {
      await waitForGreeting(onPort, greeting, proc);
    } catch (err) {
      proc.kill('SIGTERM');
      await exited;
      const taken = /Address already in use/.test(stderr + readLog()) || /another server/.test((err as Error).message);
      throw Object.assign(err as Error, { inUse: taken });
    }
    child = proc;
  };
  const readLog = () => (fs.existsSync(`${dir}/dovecot.log`) ? fs.readFileSync(`${dir}/dovecot.log`, 'utf8') : '');
  /** Retries while the port is taken: another process may grab a free port before Dovecot binds it. */
  const launchRetrying = async (pickPort: () => Promise<number>) => {
    for (let attempt = 1; ; attempt++) {
      const candidate = await pickPort();
      try {
        await launch(candidate);
        port = candidate;
        return;
      } catch (err) {
        if (!(err as { inUse?: boolean }).inUse || attempt >= 20)
          throw new Error(`${(err as Error).message}\n${readLog()}`);
      }
    }
  };
  await launchRetrying(freePort);

  const stop = async () => {
    const proc = child;
    child = null;
    if (!proc) return;
    proc.kill('SIGTERM');
    await exited;
    const left = instancePids(dir);
    for (const pid of left.filter(alive)) process.kill(pid, 'SIGTERM');
    const deadline = Date.now() + 5_000;
    while (left.some(alive)) {
      if (Date.now() > deadline) throw new Error(`dovecot processes ${left.filter(alive).join(', ')} did not exit`);
      await new Promise((r) => setTimeout(r, 20));
    }
  };
  // The same port again: the dropped sessions' processes may hold it a moment longer, hence the retries.
  const start = () => launchRetrying(async () => port);

  let seq = 0;
  return {
    host: '127.0.0.1',
    port,
    async deliver(user, rfc822) {
      const password = passwords.get(user);
      if (password === undefined) throw new Error(`no test user ${user}`);
      if (child) {
        const client = new ImapFlow({
          host: '127.0.0.1',
          port,
          secure: false,
          auth: { user, pass: password },
          logger: false,
        });
        await client.connect();
        try {
          await client.append('INBOX', rfc822);
        } finally {
          await client.logout();
        }
        return;
      }
      // Maildir delivery: write in tmp/, then move into new/ (the server picks it up when it looks).
      const name = `${Date.now()}.P${process.pid}Q${++seq}.agent-studio-test`;
      const tmp = path.join(maildir(user), 'tmp', name);
      fs.writeFileSync(tmp, rfc822, { mode: 0o644 });
      fs.chownSync(tmp, who.mail.uid, who.mail.gid);
      fs.renameSync(tmp, path.join(maildir(user), 'new', name));
    },
    stop,
    start,
    async restart() {
      await stop();
      await start();
    },
    async kick(user) {
      await run(dovecotProgram('doveadm'), ['-c', `${dir}/dovecot.conf`, 'kick', user]);
    },
    async connections(user) {
      const { stdout } = await run(dovecotProgram('doveadm'), ['-c', `${dir}/dovecot.conf`, 'who', '-1', user]);
      return stdout.split('\n').filter((l) => new RegExp(`^${user}\\s+imap\\s`).test(l)).length;
    },
    setPassword(user, password) {
      passwords.set(user, password);
      writePasswd();
    },
    log: readLog,
    async close() {
      await stop();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

export interface MailSpec {
  from: string;
  to: string | string[];
  cc?: string | string[];
  subject: string;
  text?: string;
  html?: string;
  date?: Date;
  /** Extra headers, e.g. { 'Delivered-To': 'ada+shop@example.com' }. */
  headers?: Record<string, string>;
}

/** An RFC 822 message (multipart/alternative when both text and html are given), built by nodemailer's composer. */
export function buildMail(spec: MailSpec): Promise<Buffer> {
  return new MailComposer({
    from: spec.from,
    to: spec.to,
    cc: spec.cc,
    subject: spec.subject,
    text: spec.text,
    html: spec.html,
    date: spec.date ?? new Date(),
    headers: spec.headers,
  })
    .compile()
    .build();
}
