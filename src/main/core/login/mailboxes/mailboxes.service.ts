import { performance } from 'node:perf_hooks';
import type { Mailbox, MailboxCreate, MailboxTestResult } from '../../../../shared/mailboxes.schema.js';
import { badRequest } from '../../errors.js';
import { newId } from '../../ids.js';
import type { Logger } from '../../logger.js';
import { OutboundPolicy, outboundRefusal } from '../../net/outbound-policy.js';
import type { SecretStore } from '../../secrets/secret-store.js';
import { addressMatches } from './address-match.js';
import { closeQuietly, openImapClient, type ImapSession } from './imap-session.js';
import { describeImapFailure, MailboxError, type ImapStage, type MailboxErrorKind } from './mailbox-error.js';
import type { MailboxesRepo, StoredMailbox } from './mailboxes.repo.js';

/** The secret-store account of a mailbox's password (the store itself is namespaced per installation). */
export const passwordAccount = (mailboxId: string) => `mailboxes.password:${mailboxId}`;

export interface MailboxesServiceDeps {
  repo: MailboxesRepo;
  secrets: SecretStore;
  log: Logger;
  connectTimeoutMs?: number;
  /** Where mailbox hosts may be (core/net); default: the default policy. */
  outbound?: OutboundPolicy;
  now?: () => number;
}

/** A 400 INVALID_REQUEST naming the field, as the schemas' own answers do. */
const invalid = (path: string, message: string) =>
  badRequest(`Invalid body: ${path}: ${message}`, { issues: [{ path, message }] });

/** Which setting a failed login check is about: where the person should look first. */
function fieldToChange(kind: MailboxErrorKind, err: unknown, secure: boolean): string {
  if (kind === 'auth' || kind === 'secret_missing') return 'imap.password';
  if (kind === 'unreachable') return 'imap.host';
  if (kind === 'refused') return outboundRefusal(err) ? 'imap.host' : 'imap.secure'; // no STARTTLS offered
  return secure ? 'imap.secure' : 'imap.port'; // TLS trouble, or a port that speaks something else
}

/** The API's view of a mailbox: no organization id, and there is never a password to leave out. */
export function publicMailbox(m: StoredMailbox): Mailbox {
  return { id: m.id, name: m.name, addresses: m.addresses, imap: { ...m.imap }, created_at: m.created_at };
}

/** Mailboxes of an organization: settings in SQLite, passwords in the secret store. */
export class MailboxesService {
  private readonly outbound: OutboundPolicy;

  constructor(private readonly deps: MailboxesServiceDeps) {
    this.outbound = deps.outbound ?? new OutboundPolicy();
  }

  private now() {
    return this.deps.now?.() ?? Date.now();
  }

  /**
   * 400 when this server would not use the settings: a host the outbound policy refuses (an IP address or
   * metadata name; a name is decided when connecting). Plain IMAP (secure: false) is accepted: it means
   * STARTTLS, which every connection then requires before the password is sent (openImapClient), unless
   * the host is loopback or the mailbox says allowInsecureAuth. Connects to nothing.
   */
  checkSettings(imap: Mailbox['imap']): void {
    const refused = this.outbound.refusalOfHost(imap.host);
    if (refused) throw invalid('imap.host', refused.reason);
  }

  /**
   * Checks the settings by connecting and logging in (connectTimeoutMs, 5 s by default), then stores the
   * password first: a row never exists without its secret. A mailbox that cannot be used is not saved: a 400
   * naming the field and the cause (see checkLogin), so it does not fail later at the next email-code login.
   */
  async create(orgId: string, input: MailboxCreate): Promise<Mailbox> {
    const addresses = [...new Set(input.addresses.map((a) => a.toLowerCase()))];
    const mailbox: StoredMailbox = {
      id: newId('mbx', 16),
      orgId,
      name: input.name ?? addresses[0],
      addresses,
      imap: {
        host: input.imap.host,
        port: input.imap.port,
        secure: input.imap.secure ?? input.imap.port === 993,
        username: input.imap.username,
        allowInsecureAuth: input.imap.allowInsecureAuth ?? false,
      },
      created_at: this.now(),
    };
    this.checkSettings(mailbox.imap);
    await this.checkLogin(mailbox, input.imap.password);
    await this.deps.secrets.set(passwordAccount(mailbox.id), input.imap.password);
    try {
      this.deps.repo.insert(mailbox);
    } catch (err) {
      await this.deps.secrets.delete(passwordAccount(mailbox.id)).catch(() => false);
      throw err;
    }
    this.deps.log.info(
      { mailboxId: mailbox.id, orgId, host: mailbox.imap.host, port: mailbox.imap.port },
      'mailbox added',
    );
    return publicMailbox(mailbox);
  }

  /**
   * Connects and logs in with settings not saved yet, then logs out. A failure is a 400 INVALID_REQUEST whose
   * message says the mailbox was not saved and why (the same words as the check), on the field to change:
   * imap.password for a refused login, imap.host when nothing answered, imap.secure / imap.port for TLS or
   * protocol trouble. Never the password.
   */
  private async checkLogin(mailbox: StoredMailbox, password: string): Promise<void> {
    const held: { session?: ImapSession } = {};
    try {
      await this.connect(mailbox, password, held);
    } catch (err) {
      const target = { ...mailbox.imap, publicHost: held.session?.publicHost };
      const { kind, problem } = describeImapFailure(err, target, password, 'connect');
      const code = (err as { code?: unknown }).code;
      this.deps.log.info({ orgId: mailbox.orgId, kind, problem, code }, 'mailbox not saved: its check failed');
      throw invalid(fieldToChange(kind, err, mailbox.imap.secure), `mailbox not saved: ${problem}`);
    } finally {
      if (held.session) await closeQuietly(held.session.client);
    }
  }

  /**
   * An IMAP client for the mailbox, connected and logged in; the caller closes it. `held.session` is set before the
   * login, so a failed one can still be closed and its public host named.
   */
  private async connect(
    mailbox: Mailbox | StoredMailbox,
    password: string,
    held: { session?: ImapSession },
  ): Promise<ImapSession> {
    const session = await openImapClient(mailbox, password, {
      idle: false,
      connectTimeoutMs: this.deps.connectTimeoutMs,
      outbound: this.outbound,
    });
    held.session = session;
    await session.client.connect();
    return session;
  }

  list(orgId: string): Mailbox[] {
    return this.deps.repo.list(orgId).map(publicMailbox);
  }

  /** Every organization's mailboxes, with their organization (the CLI). */
  listAll(): StoredMailbox[] {
    return this.deps.repo.listAll();
  }

  get(orgId: string, id: string): StoredMailbox | null {
    return this.deps.repo.get(orgId, id);
  }

  /** By id in any organization (the CLI). */
  find(id: string): StoredMailbox | null {
    return this.deps.repo.find(id);
  }

  /**
   * Deletes the password, then the row: when the secret store is unreachable the call fails and the
   * mailbox stays listed, rather than leaving a password behind that nothing refers to.
   */
  async delete(orgId: string, id: string): Promise<boolean> {
    if (!this.deps.repo.get(orgId, id)) return false;
    await this.deps.secrets.delete(passwordAccount(id));
    const deleted = this.deps.repo.delete(orgId, id);
    if (deleted) this.deps.log.info({ mailboxId: id, orgId }, 'mailbox removed');
    return deleted;
  }

  /** The organization's mailboxes that receive mail for `address` (oldest first). */
  match(orgId: string, address: string): StoredMailbox[] {
    return this.deps.repo.list(orgId).filter((m) => m.addresses.some((p) => addressMatches(p, address)));
  }

  /** The mailbox's IMAP password; a MailboxError (kind auth) when the secret store no longer has it. */
  async password(mailbox: Pick<Mailbox, 'id' | 'name'>): Promise<string> {
    const password = await this.deps.secrets.get(passwordAccount(mailbox.id));
    if (!password)
      throw new MailboxError(
        mailbox.id,
        mailbox.name,
        'secret_missing',
        "its password is missing from this computer's secret store (the data dir was moved or restored without it); " +
          'restore a backup made with "npm run cli -- backup create", or remove the mailbox and add it again',
      );
    return password;
  }

  /**
   * Connects, logs in and opens INBOX (read-only), then logs out. Settings this server will not use are a
   * 400 naming the field: a host the outbound policy refuses (imap.host), a server that offers no STARTTLS
   * to a mailbox that may not log in without TLS (imap.secure). A failure to connect or log in is an answer,
   * not an exception: `ok: false` with the problem (timed out, login failed, TLS), never the password.
   */
  async test(mailbox: Mailbox): Promise<MailboxTestResult> {
    const started = performance.now();
    const ms = () => Math.round(performance.now() - started);
    this.checkSettings(mailbox.imap);
    let password: string;
    try {
      password = await this.password(mailbox);
    } catch (err) {
      if (err instanceof MailboxError) return { ok: false, message: err.problem, ms: ms() };
      throw err; // the secret store is unavailable: a 503 that says how to reach it
    }
    const held: { session?: ImapSession } = {};
    let stage: ImapStage = 'connect';
    try {
      const connected = await this.connect(mailbox, password, held);
      stage = 'open';
      const inbox = await connected.client.mailboxOpen('INBOX', { readOnly: true });
      const { host, port, username } = mailbox.imap;
      return {
        ok: true,
        message: `connected to ${host}:${port}, logged in as ${username} and opened INBOX`,
        ms: ms(),
        messages: inbox.exists,
      };
    } catch (err) {
      const target = { ...mailbox.imap, publicHost: held.session?.publicHost };
      const { kind, problem } = describeImapFailure(err, target, password, stage);
      // The code is for the person reading the log; the answer may hide it (see describeImapFailure).
      const code = (err as { code?: unknown }).code;
      this.deps.log.info({ mailboxId: mailbox.id, kind, problem, code }, 'mailbox test failed');
      if (kind === 'refused') throw invalid(outboundRefusal(err) ? 'imap.host' : 'imap.secure', problem);
      return { ok: false, message: problem, ms: ms() };
    } finally {
      if (held.session) await closeQuietly(held.session.client);
    }
  }
}
