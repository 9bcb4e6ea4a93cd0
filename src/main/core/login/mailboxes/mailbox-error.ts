import type { ImapFlowError } from 'imapflow';
import { outboundRefusal } from '../../net/outbound-policy.js';

/** refused: this server will not connect there (outbound policy) or not send the password (no TLS). */
/** `secret_missing`: its password is not in this computer's secret store (a data dir moved without its secrets). */
export type MailboxErrorKind = 'auth' | 'unreachable' | 'protocol' | 'refused' | 'secret_missing';

/** What failed about a mailbox, named for a person: never the password, never a message body. */
export class MailboxError extends Error {
  override name = 'MailboxError';
  constructor(
    readonly mailboxId: string,
    readonly mailboxName: string,
    readonly kind: MailboxErrorKind,
    /** The problem alone, without the mailbox ("connection refused at host:993"). */
    readonly problem: string,
  ) {
    super(`Mailbox '${mailboxName}' (${mailboxId}): ${problem}`);
  }
}

/** Where the IMAP conversation was when it failed: connecting + logging in, or opening INBOX. */
export type ImapStage = 'connect' | 'open';

interface Target {
  host: string;
  port: number;
  secure: boolean;
  /**
   * Every address of the host is public. Only then is a network failure described: for a loopback or
   * private address "refused", "no answer", "not TLS" or the server's first words would map what listens
   * on the ports of the network this server sits in. Unknown (e.g. DNS failed): not public.
   */
  publicHost?: boolean;
}

const UNTRUSTED_CERT = new Set([
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'SELF_SIGNED_CERT_IN_CHAIN',
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
  'CERT_HAS_EXPIRED',
  'CERT_NOT_YET_VALID',
  'ERR_TLS_CERT_ALTNAME_INVALID',
]);
const TIMEOUTS = new Set(['ETIMEDOUT', 'CONNECT_TIMEOUT', 'GREETING_TIMEOUT', 'UPGRADE_TIMEOUT', 'ETIMEOUT']);
const DROPPED = new Set(['ECONNRESET', 'EPIPE', 'EConnectionClosed', 'NoConnection']);

/**
 * Text the server sent (a NO/BAD reason), shortened and with the password cut out: servers do not echo it,
 * but this text ends up in answers and logs, so it is never trusted to be clean.
 */
function serverText(text: unknown, password: string): string {
  if (typeof text !== 'string' || !text.trim()) return '';
  let clean = text.replace(/\s*\[[^\]]*\d{2}:\d{2}:\d{2}\]\s*$/, '').trim(); // Dovecot's "[host:time]" suffix
  if (password) clean = clean.split(password).join('[redacted]');
  return clean.length > 160 ? `${clean.slice(0, 160)}…` : clean;
}

/**
 * The kind and a plain description of an imapflow/socket/TLS failure. Built from error codes, not from
 * `err.message`: imapflow errors carry `executedCommand`, which can be the LOGIN line.
 */
export function describeImapFailure(
  err: unknown,
  target: Target,
  password: string,
  stage: ImapStage = 'connect',
): { kind: MailboxErrorKind; problem: string } {
  const e = (err ?? {}) as ImapFlowError & { reason?: unknown };
  const code = typeof e.code === 'string' ? e.code : '';
  const where = `${target.host}:${target.port}`;
  const refused = outboundRefusal(err);
  if (refused) return { kind: 'refused', problem: `${target.host} is not connected to: ${refused.reason}` };
  if (e.authenticationFailed) {
    if (e.serverResponseCode === 'UNAVAILABLE')
      return { kind: 'unreachable', problem: `the server's login service is temporarily unavailable at ${where}` };
    return { kind: 'auth', problem: `login failed: the server at ${where} rejected the username or password` };
  }
  if ((e as { tlsFailed?: boolean }).tlsFailed && /does not support STARTTLS/i.test(String(e.message)))
    return {
      kind: 'refused',
      problem:
        `the server at ${where} offers no STARTTLS, so the password was not sent (it would cross the network in clear): ` +
        'use secure: true (IMAP over TLS, port 993), or add the mailbox again with allowInsecureAuth: true',
    };
  if (stage === 'connect' && !target.publicHost) {
    // Told apart from the cases above only: an IMAP server that answered. The reason goes to the log.
    return { kind: 'unreachable', problem: `could not connect to an IMAP server at ${where}` };
  }
  if (code === 'ECONNREFUSED') return { kind: 'unreachable', problem: `connection refused at ${where}` };
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN')
    return { kind: 'unreachable', problem: `host ${target.host} not found (DNS)` };
  if (code === 'EHOSTUNREACH' || code === 'ENETUNREACH')
    return { kind: 'unreachable', problem: `no route to ${where}` };
  if (TIMEOUTS.has(code)) {
    // Plain IMAP against a TLS port waits for a greeting that never comes.
    const hint = !target.secure && code === 'GREETING_TIMEOUT' ? ' (a TLS port such as 993 needs secure: true)' : '';
    return { kind: 'unreachable', problem: `no answer from ${where} in time${hint}` };
  }
  if (code === 'ERR_SSL_WRONG_VERSION_NUMBER' || code === 'ERR_SSL_PACKET_LENGTH_TOO_LONG')
    return {
      kind: 'protocol',
      problem: `TLS handshake failed: ${where} does not speak TLS (for plain IMAP or STARTTLS, e.g. port 143, set secure: false)`,
    };
  if (UNTRUSTED_CERT.has(code))
    return { kind: 'protocol', problem: `TLS handshake failed: the certificate of ${where} is not trusted (${code})` };
  if (code.startsWith('ERR_SSL') || code.startsWith('ERR_TLS') || code.startsWith('ERR_OSSL'))
    return { kind: 'protocol', problem: `TLS handshake failed with ${where} (${code})` };
  if (code === 'ClosedAfterConnectText' || code === 'ClosedAfterConnectTLS') {
    const said = serverText(e.reason, password);
    return { kind: 'protocol', problem: `${where} closed the connection at once${said ? `: ${said}` : ''}` };
  }
  if (DROPPED.has(code)) return { kind: 'unreachable', problem: `${where} closed the connection` };
  if (stage === 'open') {
    const said = serverText(e.responseText, password);
    return { kind: 'protocol', problem: `INBOX could not be opened${said ? `: ${said}` : ''}` };
  }
  const said = serverText(e.responseText, password);
  return { kind: 'protocol', problem: `IMAP error from ${where} (${code || said || 'unexpected answer'})` };
}

/** The MailboxError of a failure, for the mailbox it happened on. */
export function mailboxErrorFrom(
  err: unknown,
  mailbox: { id: string; name: string; imap: Target },
  password: string,
  stage: ImapStage = 'connect',
): MailboxError {
  if (err instanceof MailboxError) return err;
  const { kind, problem } = describeImapFailure(err, mailbox.imap, password, stage);
  return new MailboxError(mailbox.id, mailbox.name, kind, problem);
}
