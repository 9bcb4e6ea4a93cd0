import {
  MailboxCreateSchema,
  MailboxIdParamsSchema,
  MailboxListSchema,
  MailboxSchema,
  MailboxTestResultSchema,
} from '../../../../shared/mailboxes.schema.js';
import { notFound } from '../../errors.js';
import type { RouteModule } from '../../http/build-server.js';
import { defineRoute } from '../../http/route.js';

const idParams = MailboxIdParamsSchema;
const tags = ['mailboxes'];

/** Mailboxes of the caller's organization (login service: otp_email and magic_link read codes and links there). */
export const mailboxesRoutes: RouteModule = (app, registry, core) => {
  const mailboxes = core.login.mailboxes.service;

  defineRoute(
    app,
    registry,
    {
      method: 'POST',
      url: '/api/mailboxes',
      api: 'login',
      scope: 'mailboxes:write',
      summary: 'Add an IMAP mailbox that login codes and sign-in links arrive in',
      description:
        'The password goes to the OS keychain (or the encrypted secrets file), never to the database or an answer. ' +
        'Nothing is connected to here: check the settings with POST /api/mailboxes/{id}/test. 400 INVALID_REQUEST for bad input, ' +
        'and for a host the outbound policy refuses (network.outbound). secure: false means STARTTLS, required before the ' +
        'password is sent unless the host is loopback or allowInsecureAuth is true.',
      tags,
      body: MailboxCreateSchema,
      responses: {
        201: { description: 'The mailbox (without its password)', schema: MailboxSchema },
        400: {
          description:
            'INVALID_REQUEST: bad addresses or IMAP settings, or a refused host (details.issues lists the fields)',
        },
        503: { description: 'SECRETS_UNAVAILABLE: no secret store to keep the password in' },
      },
    },
    async ({ body, auth, reply }) => reply.status(201).send(await mailboxes.create(auth.orgId, body)),
  );

  defineRoute(
    app,
    registry,
    {
      method: 'GET',
      url: '/api/mailboxes',
      api: 'login',
      scope: 'mailboxes:read',
      summary: "The organization's mailboxes, oldest first (never their passwords)",
      tags,
      responses: { 200: { description: 'Mailboxes', schema: MailboxListSchema } },
    },
    ({ auth }) => ({ data: mailboxes.list(auth.orgId) }),
  );

  defineRoute(
    app,
    registry,
    {
      method: 'DELETE',
      url: '/api/mailboxes/:id',
      api: 'login',
      scope: 'mailboxes:write',
      summary: 'Remove a mailbox and its stored password',
      tags,
      params: idParams,
      responses: { 204: { description: 'Removed' }, 404: { description: 'No such mailbox in this organization' } },
    },
    async ({ params, auth, reply }) => {
      if (!(await mailboxes.delete(auth.orgId, params.id))) throw notFound(`No mailbox ${params.id}`);
      return reply.status(204).send();
    },
  );

  defineRoute(
    app,
    registry,
    {
      method: 'POST',
      url: '/api/mailboxes/:id/test',
      api: 'login',
      scope: 'mailboxes:write',
      summary: 'Check a mailbox: connect, log in and open INBOX (read-only)',
      description:
        '200 when the mailbox exists and its settings are usable: ok:false carries the problem in message ' +
        '(could not connect, login failed, TLS...), never the password. For a loopback or private host, network ' +
        'failures read the same ("could not connect to an IMAP server at host:port"; the log has the reason). 400 ' +
        'INVALID_REQUEST for settings this server will not use: a refused host (imap.host), or a server that offers no STARTTLS ' +
        'to a mailbox that may not log in without TLS (imap.secure; the password was not sent).',
      tags,
      params: idParams,
      responses: {
        200: { description: 'The outcome of the check', schema: MailboxTestResultSchema },
        400: { description: 'INVALID_REQUEST: settings this server will not use (details.issues names the field)' },
        404: { description: 'No such mailbox in this organization' },
      },
    },
    async ({ params, auth }) => {
      const mailbox = mailboxes.get(auth.orgId, params.id);
      if (!mailbox) throw notFound(`No mailbox ${params.id}`);
      return mailboxes.test(mailbox);
    },
  );
};
