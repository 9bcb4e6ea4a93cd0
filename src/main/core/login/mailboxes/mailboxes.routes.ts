import { notFound } from '../../errors.js';
import type { FeatureRoutes } from '../../http/route.js';
import type { Mailboxes } from './index.js';

/** Mailboxes of the caller's organization (login service: otp_email and magic_link read codes and links there). */
export function mailboxesRoutes(parts: Pick<Mailboxes, 'service'>) {
  const mailboxes = parts.service;
  return {
    createMailbox: ({ body, auth }) => mailboxes.create(auth.orgId, body),
    listMailboxes: ({ auth }) => ({ data: mailboxes.list(auth.orgId) }),
    deleteMailbox: async ({ params, auth }) => {
      if (!(await mailboxes.delete(auth.orgId, params.id))) throw notFound(`No mailbox ${params.id}`);
    },
    testMailbox: async ({ params, auth }) => {
      const mailbox = mailboxes.get(auth.orgId, params.id);
      if (!mailbox) throw notFound(`No mailbox ${params.id}`);
      return mailboxes.test(mailbox);
    },
  } satisfies FeatureRoutes;
}
