import type { MailboxFeed, MailboxSubscription } from '../codes/code-sources.js';
import type { MailboxWatchers } from './imap-watcher.js';
import { MailboxError } from './mailbox-error.js';
import type { MailboxesService } from './mailboxes.service.js';

/**
 * The login's view of the mailboxes: every mailbox of the organization that receives mail for an
 * address, watched from now on. A mailbox that cannot be connected to or logged in to is reported
 * through onError (the login then answers 502 naming it, or 409 SECRETS_MISSING when its password is not in this
 * computer's secret store), never with its password.
 */
export function mailboxFeed(service: MailboxesService, watchers: MailboxWatchers): MailboxFeed {
  return {
    async subscribe(orgId, address, handlers): Promise<MailboxSubscription> {
      const matching = service.match(orgId, address);
      const subs = await Promise.all(
        matching.map((mailbox) =>
          watchers
            .subscribe(mailbox, {
              onMessage: (m) => handlers.onMessage(m),
              onError: (err) => handlers.onError(mailbox.name, err.message, err.kind === 'secret_missing'),
            })
            .catch((err: unknown) => {
              const message = err instanceof MailboxError ? err.message : `Mailbox '${mailbox.name}' could not be read`;
              handlers.onError(mailbox.name, message, err instanceof MailboxError && err.kind === 'secret_missing');
              return undefined;
            }),
        ),
      );
      return {
        names: matching.map((m) => m.name),
        checkNow: () => {
          for (const s of subs) s?.checkNow();
        },
        close: async () => {
          await Promise.all(subs.map((s) => s?.close().catch(() => {})));
        },
      };
    },
  };
}
