import { ImapFlow } from 'imapflow';
import { simpleParser, type AddressObject, type EmailAddress } from 'mailparser';
import type { InboundMessage } from '../codes/inbound-message.js';
import type { Mailbox } from '../../../../shared/mailboxes.schema.js';

/** Short: a login waits on the mailbox, and a dead server must not eat its whole time budget. */
export const IMAP_CONNECT_TIMEOUT_MS = 5_000;
/** Login mails are small; a huge message is read only this far (enough for any code or link). */
export const MAX_MESSAGE_BYTES = 2 * 1024 * 1024;

export interface ImapClientOptions {
  /** IDLE as soon as the connection is quiet (the watcher); off for one-off checks. */
  idle: boolean;
  connectTimeoutMs?: number;
}

/** An imapflow client for a mailbox. Its logger is off: imapflow's own logs include the LOGIN command. */
export function newImapClient(mailbox: Mailbox, password: string, opts: ImapClientOptions): ImapFlow {
  const timeout = opts.connectTimeoutMs ?? IMAP_CONNECT_TIMEOUT_MS;
  const client = new ImapFlow({
    host: mailbox.imap.host,
    port: mailbox.imap.port,
    secure: mailbox.imap.secure,
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
  return client;
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
