import {
  MailboxIdParamsSchema,
  MailboxCreateSchema,
  MailboxListSchema,
  MailboxSchema,
  MailboxTestResultSchema,
} from '../mailboxes.schema.js';
import { defineApiRoutes } from './api-route.js';

/** The IMAP mailboxes logins read codes and sign-in links from. */
export const MAILBOXES_API = defineApiRoutes({
  createMailbox: {
    method: 'POST',
    path: '/api/mailboxes',
    api: 'login',
    scope: 'mailboxes:write',
    summary: 'Add an IMAP mailbox that login codes and sign-in links arrive in',
    description:
      'The password goes to the OS keychain (or the encrypted secrets file), never to the database or an answer. ' +
      'Saving checks the settings first: it connects and logs in (5 s to connect), and a mailbox that cannot be used is not ' +
      'saved: 400 INVALID_REQUEST whose message starts "mailbox not saved:" with the cause, on the field to change ' +
      '(imap.password: login refused; imap.host: nothing answered; imap.secure: no STARTTLS or TLS trouble). Also 400 for bad ' +
      'input and for a host the outbound policy refuses (network.outbound). secure: false means STARTTLS, required before ' +
      'the password is sent unless the host is loopback or allowInsecureAuth is true.',
    tags: ['mailboxes'],
    body: MailboxCreateSchema,
    responses: {
      201: { description: 'The mailbox (without its password)', schema: MailboxSchema },
      400: {
        description:
          'INVALID_REQUEST: bad addresses or IMAP settings, a refused host, or a login check that failed ("mailbox not saved: …"; details.issues lists the fields)',
      },
      503: { description: 'SECRETS_UNAVAILABLE: no secret store to keep the password in' },
    },
  },

  listMailboxes: {
    method: 'GET',
    path: '/api/mailboxes',
    api: 'login',
    scope: 'mailboxes:read',
    summary: "The organization's mailboxes, oldest first (never their passwords)",
    tags: ['mailboxes'],
    responses: { 200: { description: 'Mailboxes', schema: MailboxListSchema } },
  },

  deleteMailbox: {
    method: 'DELETE',
    path: '/api/mailboxes/:id',
    api: 'login',
    scope: 'mailboxes:write',
    summary: 'Remove a mailbox and its stored password',
    tags: ['mailboxes'],
    params: MailboxIdParamsSchema,
    responses: { 204: { description: 'Removed' }, 404: { description: 'No such mailbox in this organization' } },
  },

  testMailbox: {
    method: 'POST',
    path: '/api/mailboxes/:id/test',
    api: 'login',
    scope: 'mailboxes:write',
    summary: 'Check a mailbox: connect, log in and open INBOX (read-only)',
    description:
      '200 when the mailbox exists and its settings are usable: ok:false carries the problem in message ' +
      '(could not connect, login failed, TLS...), never the password. For a loopback or private host, network ' +
      'failures read the same ("could not connect to an IMAP server at host:port"; the log has the reason). 400 ' +
      'INVALID_REQUEST for settings this server will not use: a refused host (imap.host), or a server that offers no STARTTLS ' +
      'to a mailbox that may not log in without TLS (imap.secure; the password was not sent).',
    tags: ['mailboxes'],
    params: MailboxIdParamsSchema,
    responses: {
      200: { description: 'The outcome of the check', schema: MailboxTestResultSchema },
      400: { description: 'INVALID_REQUEST: settings this server will not use (details.issues names the field)' },
      404: { description: 'No such mailbox in this organization' },
    },
  },
});
