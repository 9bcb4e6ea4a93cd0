import type { InboundMessage } from './inbound-message.js';

/** No message with a code or link arrived within the wait's bound. */
export class CodeTimeoutError extends Error {
  constructor(readonly waitedMs: number) {
    super('no message arrived in time');
    this.name = 'CodeTimeoutError';
  }
}

/** Every mailbox that should deliver the message failed (connection, login). Names the mailbox, never its password. */
export class MailboxUnavailableError extends Error {
  constructor(
    message: string,
    readonly mailbox: string,
    /** Its password is not in this computer's secret store: 409 SECRETS_MISSING rather than 502. */
    readonly secretMissing = false,
  ) {
    super(message);
    this.name = 'MailboxUnavailableError';
  }
}

/** An email address (lower-cased) or a phone number (digits with a leading +), so both sides compare equal. */
export function normalizeAddress(address: string): string {
  const a = address.trim().toLowerCase();
  if (a.includes('@')) return a;
  const digits = a.replace(/[^\d+]/g, '');
  return digits.startsWith('+') ? digits : `+${digits}`;
}

/**
 * The messages one pending login may use: those addressed to it that arrived after it began.
 * A message is used by at most one login (two logins to one address each get their own).
 */
export class MessageQueue {
  private readonly messages: InboundMessage[] = [];
  private readonly listeners = new Set<() => void>();
  private failure: MailboxUnavailableError | undefined;
  closed = false;

  constructor(
    readonly address: string,
    private readonly claimed: WeakSet<InboundMessage>,
    private readonly onClose: (q: MessageQueue) => void,
  ) {}

  push(msg: InboundMessage): void {
    if (this.closed) return;
    this.messages.push(msg);
    for (const l of this.listeners) l();
  }

  /** All mailboxes this queue reads from failed: a waiting login learns it at once. */
  fail(err: MailboxUnavailableError): void {
    this.failure = err;
    for (const l of this.listeners) l();
  }

  /**
   * The newest unclaimed message for which `pick` finds something, waiting for one up to `timeoutMs`.
   * Rejects with CodeTimeoutError or MailboxUnavailableError, or the signal's reason.
   */
  wait<T>(pick: (m: InboundMessage) => T | undefined, opts: { timeoutMs: number; signal?: AbortSignal }): Promise<T> {
    const started = Date.now();
    return new Promise<T>((resolve, reject) => {
      const look = (): boolean => {
        for (let i = this.messages.length - 1; i >= 0; i--) {
          const m = this.messages[i];
          if (this.claimed.has(m)) continue;
          const found = pick(m);
          if (found === undefined) continue;
          this.claimed.add(m);
          done(() => resolve(found));
          return true;
        }
        if (this.failure) {
          done(() => reject(this.failure));
          return true;
        }
        return false;
      };
      const onAbort = (): void => done(() => reject(opts.signal?.reason ?? new DOMException('aborted', 'AbortError')));
      const timer = setTimeout(() => done(() => reject(new CodeTimeoutError(Date.now() - started))), opts.timeoutMs);
      const listener = (): void => void look();
      const done = (f: () => void): void => {
        clearTimeout(timer);
        this.listeners.delete(listener);
        opts.signal?.removeEventListener('abort', onAbort);
        f();
      };
      if (opts.signal?.aborted) return onAbort();
      opts.signal?.addEventListener('abort', onAbort, { once: true });
      this.listeners.add(listener);
      look();
    });
  }

  close(): void {
    this.closed = true;
    this.messages.length = 0;
    this.listeners.clear();
    this.onClose(this);
  }
}

/**
 * Pending logins waiting for a code or link, per organization and address. Messages come from
 * POST /api/login/inbox (an email without IMAP, an SMS forwarder or gateway webhook) or from the
 * login's own mailbox subscriptions; nothing is stored once the login ends.
 */
export class InboxHub {
  private readonly queues = new Map<string, Set<MessageQueue>>();
  private readonly claimed = new WeakSet<InboundMessage>();

  open(orgId: string, address: string): MessageQueue {
    const key = `${orgId}\n${normalizeAddress(address)}`;
    const queue = new MessageQueue(normalizeAddress(address), this.claimed, (q) => {
      const set = this.queues.get(key);
      set?.delete(q);
      if (set && !set.size) this.queues.delete(key);
    });
    let set = this.queues.get(key);
    if (!set) this.queues.set(key, (set = new Set()));
    set.add(queue);
    return queue;
  }

  /** Hands a message to the organization's pending logins it is addressed to; returns how many. */
  deliver(orgId: string, msg: InboundMessage): number {
    let n = 0;
    for (const to of new Set(msg.to.map(normalizeAddress))) {
      for (const q of this.queues.get(`${orgId}\n${to}`) ?? []) {
        q.push(msg);
        n++;
      }
    }
    return n;
  }

  pending(orgId: string): number {
    let n = 0;
    for (const [key, set] of this.queues) if (key.startsWith(`${orgId}\n`)) n += set.size;
    return n;
  }
}
