import type { ImapFlow } from 'imapflow';
import type { AddressObject, EmailAddress } from 'mailparser';
import type { InboundMessage } from '../codes/inbound-message.js';
import type { Mailbox } from '../../../../shared/mailboxes.schema.js';
import { lazyModule } from '../../lazy-module.js';
import { checkedLookup } from '../../net/outbound-http.js';
import { OutboundPolicy, type CheckedAddress } from '../../net/outbound-policy.js';

/** Loaded by the first mailbox connection: a server without a mailbox never loads them (nor nodemailer's parts). */
const loadImapFlow = lazyModule(() => import('imapflow'));
const loadMailparser = lazyModule(() => import('mailparser'));

/** Short: a login waits on the mailbox, and a dead server must not eat its whole time budget. */
export const IMAP_CONNECT_TIMEOUT_MS = 5_000;
/** Login mails are small; a huge message is read only this far (enough for any code or link). */
export const MAX_MESSAGE_BYTES = 2 * 1024 * 1024;

export interface ImapClientOptions {
  /** IDLE as soon as the connection is quiet (the watcher); off for one-off checks. */
  idle: boolean;
  connectTimeoutMs?: number;
  /** Where the mailbox's host may be (the API key chose it); default: the default policy. */
  outbound?: OutboundPolicy;
}

export interface ImapSession {
  client: ImapFlow;
  /** Every address of the host is public: only then are network failures described (mailbox-error.ts). */
  publicHost: boolean;
}

/** The host's addresses, checked by the outbound policy, within the connection time-out. */
export async function resolveImapHost(
  host: string,
  policy: OutboundPolicy,
  timeoutMs = IMAP_CONNECT_TIMEOUT_MS,
): Promise<CheckedAddress[]> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(Object.assign(new Error(`resolving ${host} took too long`), { code: 'ETIMEOUT' })),
      timeoutMs,
    );
  });
  try {
    return await Promise.race([policy.resolve(host), late]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Whether the password may be sent on a connection without TLS: to loopback only (nothing crosses a
 * network), or when the mailbox says allowInsecureAuth.
 */
export function plainLoginAllowed(mailbox: Pick<Mailbox, 'imap'>, addresses: readonly CheckedAddress[]): boolean {
  return mailbox.imap.allowInsecureAuth || addresses.every((a) => a.kind === 'loopback');
}

/**
 * An imapflow client for a mailbox. The host is resolved and checked by the outbound policy first, and
 * the socket connects only to those checked addresses (its `lookup` answers with them), so a second,
 * different DNS answer never matters; TLS still verifies the certificate against the host name. With
 * secure: false and no leave to log in without TLS, STARTTLS is required (imapflow's doSTARTTLS): a
 * server that does not offer it gets no credentials. Its logger is off: imapflow's own logs include the
 * LOGIN command.
 */
export async function openImapClient(
  mailbox: Mailbox,
  password: string,
  opts: ImapClientOptions,
): Promise<ImapSession> {
  const timeout = opts.connectTimeoutMs ?? IMAP_CONNECT_TIMEOUT_MS;
  const addresses = await resolveImapHost(mailbox.imap.host, opts.outbound ?? new OutboundPolicy(), timeout);
  // The parser comes with the connection: the first code mail after a start must not wait for its load.
  const [{ ImapFlow }] = await Promise.all([loadImapFlow(), loadMailparser()]);
  const client = new ImapFlow({
    host: mailbox.imap.host,
    port: mailbox.imap.port,
    secure: mailbox.imap.secure,
    doSTARTTLS: mailbox.imap.secure || plainLoginAllowed(mailbox, addresses) ? undefined : true,
    tls: { lookup: checkedLookup(addresses) },
    auth: { user: mailbox.imap.username, pass: password },
    logger: false,
    connectionTimeout: timeout,
    greetingTimeout: timeout,
    disableAutoIdle: !opts.idle,
    // imapflow waits 15 s of quiet before IDLE by default; until then no new mail would be announced.
    autoIdleDelay: 50,
    // Re-issue IDLE every few minutes: some servers and NATs drop connections silent for longer.
    maxIdleTime: 4 * 60_000,
  });
  // An 'error' event without a listener would crash the process; failures surface through connect/close.
  client.on('error', () => {});
  return { client, publicHost: addresses.every((a) => a.kind === 'public') };
}

/** Ends a session: LOGOUT when it is usable, else just the socket. Never throws. */
export async function closeQuietly(client: ImapFlow): Promise<void> {
  try {
    if (client.usable) await client.logout();
  } catch {
    // the connection is going away either way
  } finally {
    client.close();
  }
}

function addresses(field: unknown): string[] {
  const out: string[] = [];
  const visit = (a: EmailAddress) => {
    if (a.address) out.push(a.address.toLowerCase());
    a.group?.forEach(visit);
  };
  for (const item of Array.isArray(field) ? field : [field]) {
    if (typeof item === 'string') out.push(...item.split(/[\s,]+/).filter((s) => s.includes('@')));
    else if (item && typeof item === 'object' && Array.isArray((item as AddressObject).value))
      (item as AddressObject).value.forEach(visit);
  }
  return out.map((a) => a.replace(/^<|>$/g, '').toLowerCase());
}

/**
 * An RFC 822 message as an InboundMessage: recipients from To, Cc, Delivered-To and X-Original-To (the
 * last two name the real recipient of a forwarded or BCC'd mail), lower-cased and without duplicates.
 */
export async function toInboundMessage(source: Buffer, via: string, receivedAt: number): Promise<InboundMessage> {
  const { simpleParser } = await loadMailparser();
  const mail = await simpleParser(source, { keepCidLinks: true, skipImageLinks: true, skipTextToHtml: true });
  const to = new Set([
    ...addresses(mail.to),
    ...addresses(mail.cc),
    ...addresses(mail.headers.get('delivered-to')),
    ...addresses(mail.headers.get('x-original-to')),
  ]);
  return {
    to: [...to],
    from: mail.from?.value[0]?.address?.toLowerCase(),
    subject: mail.subject,
    text: mail.text,
    html: mail.html || undefined,
    receivedAt,
    via,
  };
}
