import type { InboundMessage } from './inbound-message.js';
import { MailboxUnavailableError, normalizeAddress, type InboxHub, type MessageQueue } from './inbox-hub.js';
import { parseTotpSecret, type TotpSpec } from './totp.js';

/**
 * A subscription to new mail of one or more mailboxes. Declared here, where it is used; login/mailboxes
 * implements it: MailboxWatchers.subscribe for one mailbox, MailboxFeed.subscribe for every mailbox
 * that receives mail for an address.
 */
export interface MailboxSubscription {
  /** Names of the mailboxes read, for the step trace. */
  names: string[];
  /**
   * Looks for new mail now (a login starts waiting) instead of waiting for the server's IDLE notice
   * (servers batch those; Dovecot's come a few hundred ms after the mail).
   */
  checkNow(): void;
  /** Ends the subscription (a mailbox's connection closes with its last subscriber); resolves once it has. */
  close(): Promise<void>;
}

/** What the login needs from the mailboxes feature: mail for an address, as it arrives. */
export interface MailboxFeed {
  /**
   * Subscribes to every mailbox of the organization that receives mail for `address` (exact, plus
   * address or wildcard). Resolves with no names when none does; a mailbox that cannot be reached
   * or logged in to is reported through `onError` (also later, when reconnecting keeps failing).
   */
  subscribe(
    orgId: string,
    address: string,
    handlers: {
      onMessage(m: InboundMessage): void;
      /** `secretMissing`: its password is not in this computer's secret store (not the server's fault). */
      onError(mailboxName: string, message: string, secretMissing?: boolean): void;
    },
  ): Promise<MailboxSubscription>;
}

/** Messages for one address: from the inbox endpoint and, for email, from matching mailboxes. */
export interface MessageSource {
  readonly channel: 'email' | 'sms';
  /** Where messages come from, for the step trace ("mailbox 'Work'", "the inbox endpoint"). */
  describe(): Promise<string>;
  /** Whether a mailbox (not only the inbox endpoint) reads this address. */
  hasMailbox(): Promise<boolean>;
  wait<T>(pick: (m: InboundMessage) => T | undefined, opts: { timeoutMs: number; signal?: AbortSignal }): Promise<T>;
}

/** The code sources of one login, open from its start so no message that arrives meanwhile is missed. */
export interface CodeSources {
  email?: MessageSource;
  sms?: MessageSource;
  totp?: TotpSpec;
  dispose(): void;
}

const MAILBOX_POLL_MS = 1000;

class QueueSource implements MessageSource {
  private readonly subscription: Promise<MailboxSubscription | undefined>;
  private readonly failed = new Map<string, string>();

  constructor(
    readonly channel: 'email' | 'sms',
    private readonly queue: MessageQueue,
    feed: MailboxFeed | undefined,
    orgId: string,
  ) {
    this.subscription = feed
      ? feed
          .subscribe(orgId, queue.address, {
            onMessage: (m) => {
              // Mail for the login's address only (a shared or catch-all mailbox holds others' mail too).
              if (m.to.some((t) => sameMailbox(t, queue.address))) queue.push(m);
            },
            onError: (name, message, secretMissing) => {
              this.failed.set(name, message);
              void this.subscription.then((sub) => {
                if (sub && sub.names.every((n) => this.failed.has(n)))
                  queue.fail(new MailboxUnavailableError(message, name, secretMissing ?? false));
              });
            },
          })
          .catch(() => undefined)
      : Promise.resolve(undefined);
  }

  async describe(): Promise<string> {
    const sub = await this.subscription;
    const names = sub?.names ?? [];
    return names.length
      ? `${names.map((n) => `mailbox '${n}'`).join(', ')} and the inbox endpoint`
      : 'the inbox endpoint (POST /api/login/inbox)';
  }

  async hasMailbox(): Promise<boolean> {
    return !!(await this.subscription)?.names.length;
  }

  async wait<T>(pick: (m: InboundMessage) => T | undefined, opts: { timeoutMs: number; signal?: AbortSignal }) {
    const sub = await this.subscription;
    if (!sub?.names.length) return this.queue.wait(pick, opts);
    // The mail is often there already (sites send it before their page answers): look now, and
    // every second while waiting, in case the server's IDLE notice is slow or lost.
    sub.checkNow();
    const poll = setInterval(() => sub.checkNow(), MAILBOX_POLL_MS);
    try {
      return await this.queue.wait(pick, opts);
    } finally {
      clearInterval(poll);
    }
  }

  dispose(): void {
    this.queue.close();
    void this.subscription.then((s) => s?.close());
  }
}

/** `ada+news@example.com` is delivered to `ada@example.com`'s mailbox and the reverse is the same person. */
function sameMailbox(a: string, b: string): boolean {
  const base = (x: string): string => normalizeAddress(x).replace(/\+[^@]*@/, '@');
  return normalizeAddress(a) === normalizeAddress(b) || base(a) === base(b);
}

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** The address a login's codes and links are mailed to: the username when it is one, else additionalFields.email. */
export function loginEmailAddress(username: string, additionalFields: Record<string, string> = {}): string | undefined {
  if (EMAIL.test(username)) return username;
  const extra = additionalFields.email;
  return extra && EMAIL.test(extra) ? extra : undefined;
}
const E164 = /^\+[1-9]\d{6,14}$/;

/** Thrown for a TOTP secret or phone number that cannot be used; the message never holds the value. */
export class CodeSourceInputError extends Error {
  constructor(
    message: string,
    readonly field: string,
  ) {
    super(message);
  }
}

/**
 * Opens the code sources a login may need, from its request: the email address (cred.username
 * when it is one, else additionalFields.email), the phone (additionalFields.phone, E.164) and the
 * TOTP secret (cred.totpSecret).
 */
export function openCodeSources(opts: {
  orgId: string;
  hub: InboxHub;
  mailboxes?: MailboxFeed;
  username: string;
  additionalFields?: Record<string, string>;
  totpSecret?: string;
}): CodeSources {
  const extras = opts.additionalFields ?? {};
  const email = loginEmailAddress(opts.username, extras);
  const phoneRaw = extras.phone?.replace(/[\s().-]/g, '');
  if (phoneRaw && !E164.test(phoneRaw))
    throw new CodeSourceInputError(
      'additionalFields.phone must be an E.164 number (+ country code and number)',
      'additionalFields.phone',
    );
  let totp: TotpSpec | undefined;
  if (opts.totpSecret) {
    try {
      totp = parseTotpSecret(opts.totpSecret);
    } catch {
      throw new CodeSourceInputError(
        'cred.totpSecret is neither a base32 secret nor an otpauth:// URI',
        'cred.totpSecret',
      );
    }
  }
  const sources: CodeSources = {
    totp,
    email: email ? new QueueSource('email', opts.hub.open(opts.orgId, email), opts.mailboxes, opts.orgId) : undefined,
    sms: phoneRaw ? new QueueSource('sms', opts.hub.open(opts.orgId, phoneRaw), undefined, opts.orgId) : undefined,
    dispose() {
      (sources.email as QueueSource | undefined)?.dispose();
      (sources.sms as QueueSource | undefined)?.dispose();
    },
  };
  return sources;
}
