import type { Db } from '../../db/database.js';
import type { Logger } from '../../logger.js';
import type { OutboundPolicy } from '../../net/outbound-policy.js';
import type { SecretStore } from '../../secrets/secret-store.js';
import { MailboxWatchers } from './imap-watcher.js';
import { MailboxesRepo } from './mailboxes.repo.js';
import { MailboxesService } from './mailboxes.service.js';

export { MailboxError, type MailboxErrorKind } from './mailbox-error.js';
export type { MailboxSubscriber } from './imap-watcher.js';
export { MailboxWatchers, MailboxesService };

/** The mailboxes part of the login feature: settings and passwords, and the IMAP watchers. */
export interface Mailboxes {
  service: MailboxesService;
  watchers: MailboxWatchers;
  /** Closes every IMAP connection. */
  dispose(): Promise<void>;
}

/** `outbound`: where mailbox hosts may be (a mailbox's host is the API key's choice). */
export function createMailboxes(deps: {
  db: Db;
  secrets: SecretStore;
  log: Logger;
  outbound?: OutboundPolicy;
}): Mailboxes {
  const log = deps.log.child({ component: 'mailboxes' });
  const { outbound } = deps;
  const service = new MailboxesService({ repo: new MailboxesRepo(deps.db), secrets: deps.secrets, log, outbound });
  const watchers = new MailboxWatchers({ password: (m) => service.password(m), log, outbound });
  return { service, watchers, dispose: () => watchers.dispose() };
}
