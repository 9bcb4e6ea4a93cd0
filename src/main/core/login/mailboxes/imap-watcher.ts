import type { ImapFlow } from 'imapflow';
import type { Mailbox } from '../../../../shared/mailboxes.schema.js';
import type { MailboxSubscription } from '../codes/code-sources.js';
import type { InboundMessage } from '../codes/inbound-message.js';
import type { Logger } from '../../logger.js';
import type { OutboundPolicy } from '../../net/outbound-policy.js';
import { closeQuietly, MAX_MESSAGE_BYTES, openImapClient, toInboundMessage, type ImapSession } from './imap-session.js';
import { MailboxError, mailboxErrorFrom, type ImapStage } from './mailbox-error.js';

export interface MailboxSubscriber {
  /** A message that arrived after this subscriber's start. Its body is secret: never log it. */
  onMessage(msg: InboundMessage): void;
  /** The mailbox stopped working (reconnecting keeps failing, or the login is refused); the watch goes on. */
  onError(err: MailboxError): void;
}

export interface MailboxWatchersDeps {
  /** The mailbox's password, read at each (re)connection; a MailboxError when it is missing. */
  password(mailbox: Mailbox): Promise<string>;
  log: Logger;
  /** How long reconnecting may fail before subscribers hear of it (a login refusal is told at once). Default 5 s. */
  reportAfterMs?: number;
  connectTimeoutMs?: number;
  /** Where mailbox hosts may be (core/net); default: the default policy. */
  outbound?: OutboundPolicy;
}

const DEFAULT_REPORT_AFTER_MS = 5_000;
/** Reconnection delays: quick at first (a restarting server is back in a moment), then every 2 s. */
const BACKOFF_MS = [100, 200, 400, 800, 1600, 2000];
/** After a refused login, try again slowly: a stream of failed logins can get the account locked. */
const AUTH_RETRY_MS = 30_000;
const LOGOUT_GRACE_MS = 2_000;

interface Subscriber {
  handlers: MailboxSubscriber;
  /** UIDNEXT when it subscribed: messages with UID >= it are new to it. Null until known. */
  startUid: number | null;
  /** Messages seen while `startUid` was being asked for. */
  pending: { uid: number; msg: InboundMessage }[];
}

interface Waiter {
  resolve(): void;
  reject(err: MailboxError): void;
  timer: NodeJS.Timeout;
}

/**
 * One IMAP connection per mailbox, shared by everyone waiting for mail there: opened on the first
 * subscribe, closed when the last subscriber leaves. New mail is announced by IDLE (`exists`); after a
 * dropped connection it reconnects with backoff and fetches what arrived since the last UID it saw.
 */
export class MailboxWatchers {
  private readonly watches = new Map<string, MailboxWatch>();
  private disposed = false;

  constructor(private readonly deps: MailboxWatchersDeps) {}

  /**
   * Resolves once connected and this subscriber's start point is known; rejects with a MailboxError
   * when the mailbox cannot be reached or refuses the login.
   */
  subscribe(mailbox: Mailbox, handlers: MailboxSubscriber): Promise<MailboxSubscription> {
    if (this.disposed) return Promise.reject(new Error('mailbox watchers are disposed'));
    let watch = this.watches.get(mailbox.id);
    if (!watch) {
      const created = new MailboxWatch(mailbox, this.deps, () => {
        if (this.watches.get(mailbox.id) === created) this.watches.delete(mailbox.id);
      });
      this.watches.set(mailbox.id, created);
      watch = created;
    }
    return watch.add(handlers);
  }

  /** Open IMAP connections (one per watched mailbox). */
  connections(): number {
    return [...this.watches.values()].filter((w) => w.isConnected()).length;
  }

  async dispose(): Promise<void> {
    this.disposed = true;
    await Promise.all([...this.watches.values()].map((w) => w.close()));
  }
}

class MailboxWatch {
  private readonly subs = new Set<Subscriber>();
  private readonly log: Logger;
  private readonly via: string;
  private client: ImapFlow | null = null;
  private connected = false;
  private connecting: Promise<void> | null = null;
  private closed = false;
  /** Highest UID handed out (or skipped as old); the next fetch starts after it. */
  private lastUid = 0;
  private uidValidity: bigint | null = null;
  private draining = false;
  private drainAgain = false;
  // Reconnection state (only while a connection that was up has dropped).
  private reconnecting = false;
  private outageSince = 0;
  private attempt = 0;
  private reported = false;
  private lastError: MailboxError | null = null;
  private retryTimer: NodeJS.Timeout | null = null;
  private waiters: Waiter[] = [];

  constructor(
    private readonly mailbox: Mailbox,
    private readonly deps: MailboxWatchersDeps,
    private readonly onClosed: () => void,
  ) {
    this.log = deps.log.child({ mailboxId: mailbox.id });
    this.via = `mailbox '${mailbox.name}'`;
  }

  isConnected(): boolean {
    return this.connected;
  }

  async add(handlers: MailboxSubscriber): Promise<MailboxSubscription> {
    const sub: Subscriber = { handlers, startUid: null, pending: [] };
    this.subs.add(sub);
    try {
      await this.ensureConnected();
      sub.startUid = await this.uidNext();
    } catch (err) {
      this.subs.delete(sub);
      if (!this.subs.size) await this.close();
      throw err instanceof MailboxError ? err : this.errorOf(err);
    }
    for (const p of sub.pending.splice(0)) if (p.uid >= sub.startUid) this.deliver(sub, p.msg);
    let left = false;
    return {
      names: [this.mailbox.name],
      checkNow: () => {
        if (this.connected) this.requestDrain();
      },
      close: async () => {
        if (left) return;
        left = true;
        this.subs.delete(sub);
        if (!this.subs.size) await this.close();
      },
    };
  }

  private ensureConnected(): Promise<void> {
    if (this.closed) return Promise.reject(this.errorOf(new Error('closed'), 'the watch was closed'));
    if (this.connected) return Promise.resolve();
    if (this.reconnecting) {
      // Someone joins during an outage: wait for the reconnection, as long as a reporter would.
      return new Promise((resolve, reject) => {
        const waiter: Waiter = {
          resolve,
          reject,
          timer: setTimeout(() => {
            this.waiters = this.waiters.filter((w) => w !== waiter);
            reject(this.lastError ?? this.errorOf(new Error('reconnecting'), 'the connection is down'));
          }, this.deps.reportAfterMs ?? DEFAULT_REPORT_AFTER_MS),
        };
        this.waiters.push(waiter);
      });
    }
    this.connecting ??= this.connect().finally(() => (this.connecting = null));
    return this.connecting;
  }

  /** UIDNEXT now (STATUS on the open mailbox), so a subscriber skips everything that is already there. */
  private async uidNext(): Promise<number> {
    try {
      const status = this.client ? await this.client.status('INBOX', { uidNext: true }) : false;
      if (status && typeof status.uidNext === 'number') return Math.max(status.uidNext, this.lastUid + 1);
    } catch {
      // the connection dropped meanwhile: the highest UID seen is the next best start point
    }
    return this.lastUid + 1;
  }

  private errorOf(err: unknown, problem?: string, stage: ImapStage = 'connect'): MailboxError {
    if (problem) return new MailboxError(this.mailbox.id, this.mailbox.name, 'unreachable', problem);
    return mailboxErrorFrom(err, this.mailbox, '', stage);
  }

  /** One connection attempt: log in, EXAMINE INBOX, listen for new mail. Throws a MailboxError. */
  private async connect(): Promise<void> {
    let password: string;
    try {
      password = await this.deps.password(this.mailbox);
    } catch (err) {
      if (err instanceof MailboxError) throw err;
      const why = `its password could not be read from the secret store (${(err as Error).message})`;
      throw new MailboxError(this.mailbox.id, this.mailbox.name, 'auth', why);
    }
    let session: ImapSession;
    try {
      session = await openImapClient(this.mailbox, password, {
        idle: true,
        connectTimeoutMs: this.deps.connectTimeoutMs,
        outbound: this.deps.outbound,
      });
    } catch (err) {
      throw this.failure(err, password, undefined, 'connect');
    }
    const client = session.client;
    this.client = client;
    let stage: ImapStage = 'connect';
    try {
      await client.connect();
      stage = 'open';
      const box = await client.mailboxOpen('INBOX', { readOnly: true });
      if (this.closed || this.client !== client || !client.usable)
        throw Object.assign(new Error('closed'), { code: 'NoConnection' });
      if (this.uidValidity === null) {
        this.lastUid = box.uidNext - 1;
      } else if (box.uidValidity !== this.uidValidity) {
        // The server renumbered the mailbox: old UIDs mean nothing now, so everyone starts from here.
        this.log.warn('mailbox UIDVALIDITY changed; mail of the outage may be missed');
        this.lastUid = box.uidNext - 1;
        for (const s of this.subs) if (s.startUid !== null) s.startUid = box.uidNext;
      }
      this.uidValidity = box.uidValidity;
    } catch (err) {
      if (this.client === client) this.client = null;
      client.close();
      throw this.failure(err, password, session.publicHost, stage);
    }
    client.on('exists', () => this.requestDrain());
    client.on('close', () => this.onDropped(client));
    this.connected = true;
    // Mail that arrived while disconnected (or between SELECT and now) is fetched at once.
    this.requestDrain();
  }

  /** The MailboxError of a failed connection; its code goes to the log, which the answer may not tell. */
  private failure(err: unknown, password: string, publicHost: boolean | undefined, stage: ImapStage): MailboxError {
    const target = { ...this.mailbox, imap: { ...this.mailbox.imap, publicHost } };
    const error = mailboxErrorFrom(err, target, password, stage);
    this.log.info({ kind: error.kind, code: (err as { code?: unknown }).code }, 'mailbox connection failed');
    return error;
  }

  private onDropped(client: ImapFlow): void {
    if (this.closed || this.client !== client) return;
    this.client = null;
    this.connected = false;
    this.log.info('mailbox connection dropped; reconnecting');
    this.reconnecting = true;
    this.outageSince = Date.now();
    this.attempt = 0;
    this.reported = false;
    this.scheduleReconnect(BACKOFF_MS[0]);
  }

  private scheduleReconnect(delayMs: number): void {
    if (this.closed) return;
    this.retryTimer = setTimeout(() => void this.reconnect(), delayMs);
  }

  private async reconnect(): Promise<void> {
    this.retryTimer = null;
    if (this.closed) return;
    try {
      await this.connect();
    } catch (err) {
      if (this.closed) return;
      const error = err instanceof MailboxError ? err : this.errorOf(err);
      this.lastError = error;
      const failingFor = Date.now() - this.outageSince;
      if (
        !this.reported &&
        (error.kind === 'auth' ||
          error.kind === 'secret_missing' ||
          error.kind === 'refused' ||
          failingFor >= (this.deps.reportAfterMs ?? DEFAULT_REPORT_AFTER_MS))
      ) {
        this.reported = true;
        this.log.warn({ kind: error.kind, problem: error.problem }, 'mailbox unreachable');
        for (const s of [...this.subs]) this.safely(() => s.handlers.onError(error));
      }
      this.attempt++;
      const backoff = BACKOFF_MS[Math.min(this.attempt, BACKOFF_MS.length - 1)];
      // Refused logins and refused hosts do not heal in a second: try again slowly.
      const slow = error.kind === 'auth' || error.kind === 'secret_missing' || error.kind === 'refused';
      this.scheduleReconnect(slow ? AUTH_RETRY_MS : backoff);
      return;
    }
    this.reconnecting = false;
    this.lastError = null;
    this.log.info({ afterMs: Date.now() - this.outageSince }, 'mailbox reconnected');
    for (const w of this.waiters.splice(0)) {
      clearTimeout(w.timer);
      w.resolve();
    }
  }

  private requestDrain(): void {
    if (this.draining) {
      this.drainAgain = true;
      return;
    }
    this.draining = true;
    void (async () => {
      try {
        do {
          this.drainAgain = false;
          await this.drainOnce();
        } while (this.drainAgain && this.connected);
      } finally {
        this.draining = false;
      }
    })();
  }

  /** Fetches everything after the last UID seen and hands each message to the subscribers it is new to. */
  private async drainOnce(): Promise<void> {
    const client = this.client;
    if (!client || !this.connected) return;
    let fetched;
    try {
      // UIDs first: `N:*` answers with the last message even when none is newer than N, and a login
      // that waits looks every second, so bodies are fetched only for messages that are new.
      const uids = (await client.fetchAll(`${this.lastUid + 1}:*`, { uid: true }, { uid: true }))
        .map((f) => f.uid)
        .filter((uid) => uid > this.lastUid);
      if (!uids.length) return;
      fetched = await client.fetchAll(
        uids.join(','),
        { uid: true, source: { maxLength: MAX_MESSAGE_BYTES } },
        { uid: true },
      );
    } catch (err) {
      // A dropped connection: the reconnection fetches again from the same UID.
      this.log.warn({ code: (err as { code?: string }).code }, 'fetching new mail failed');
      return;
    }
    // `N:*` answers with the last message even when none is newer than N.
    for (const m of fetched.filter((f) => f.uid > this.lastUid).sort((a, b) => a.uid - b.uid)) {
      this.lastUid = m.uid;
      if (!m.source) continue;
      let msg: InboundMessage;
      try {
        msg = await toInboundMessage(m.source, this.via, Date.now());
      } catch {
        this.log.warn({ uid: m.uid }, 'a new message could not be parsed; skipped');
        continue;
      }
      for (const s of this.subs) {
        if (s.startUid === null) s.pending.push({ uid: m.uid, msg });
        else if (m.uid >= s.startUid) this.deliver(s, msg);
      }
    }
  }

  private deliver(sub: Subscriber, msg: InboundMessage): void {
    this.safely(() => sub.handlers.onMessage(msg));
  }

  /** A subscriber's failure is its own: it never stops the watch or reaches another subscriber. */
  private safely(fn: () => void): void {
    try {
      fn();
    } catch (err) {
      this.log.warn({ err: (err as Error).name }, 'a mailbox subscriber threw');
    }
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.onClosed();
    if (this.retryTimer) clearTimeout(this.retryTimer);
    const gone = this.errorOf(new Error('closed'), 'the watch was closed');
    for (const w of this.waiters.splice(0)) {
      clearTimeout(w.timer);
      w.reject(gone);
    }
    const client = this.client;
    this.client = null;
    this.connected = false;
    if (!client) return;
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([
      closeQuietly(client),
      new Promise<void>((resolve) => (timer = setTimeout(resolve, LOGOUT_GRACE_MS))),
    ]);
    clearTimeout(timer);
    client.close();
  }
}
