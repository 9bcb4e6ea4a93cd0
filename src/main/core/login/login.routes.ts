import { z } from 'zod';
import { LOGIN_FAILURE_STATUS } from '../../../shared/errors.js';
import {
  InboxMessageSchema,
  InboxReceiptSchema,
  LoginRequestSchema,
  SessionIdParamsSchema,
  SessionListSchema,
  StorageStateSchema,
} from '../../../shared/login.schema.js';
import type { RouteModule } from '../http/build-server.js';
import { defineRoute } from '../http/route.js';
import { notFound } from '../errors.js';

const failureDocs = Object.entries(LOGIN_FAILURE_STATUS)
  .map(([reason, { status, code }]) => `${status} ${code} (details.reason = ${reason})`)
  .join('; ');

export const loginRoutes: RouteModule = (app, registry, core) => {
  defineRoute(
    app,
    registry,
    {
      method: 'POST',
      url: '/api/login',
      aliases: ['/login'],
      api: 'login',
      scope: 'login:write',
      summary: 'Log in to a website with a real browser and return its Playwright storageState',
      description:
        'Body fields: cred {username, password}, cred.totpSecret (base32 or otpauth:// URI, for totp and sites that ask an authenticator code), loginMethod (password, otp_email, magic_link, totp, otp_sms, oauth_google, oauth_github), ' +
        'domain (full http/https URL of the login page), additionalFields (string map matched to extra fields by name, id, label or placeholder), ' +
        'useCache (default true). The answer is exactly Playwright storageState; the headers X-Session-Cache (hit|miss) and X-Session-Id say where it came from. ' +
        `A fresh login always replaces the cached entry. Failures: ${failureDocs}; 400 INVALID_REQUEST for bad input.`,
      tags: ['login'],
      body: LoginRequestSchema,
      responses: {
        200: {
          description: 'The live session',
          schema: StorageStateSchema,
          headers: {
            'X-Session-Cache': 'hit when served from the cache, miss after a fresh browser login',
            'X-Session-Id': 'id of the cache entry (see GET /api/sessions)',
          },
        },
        400: { description: 'Invalid request, or a login method not available yet (LOGIN_METHOD_NOT_AVAILABLE)' },
        401: {
          description:
            'AUTHENTICATION_FAILED: wrong credentials (details.reason invalid_credentials), a code or sign-in link the site rejected (invalid_code) or a bad API key (invalid_api_key)',
        },
        422: {
          description:
            'LOGIN_FORM_NOT_FOUND, MFA_REQUIRED (the message says what to pass), CAPTCHA_BLOCKED or CREDENTIALS_REQUIRED (the site asks a password that was not given)',
        },
        423: { description: 'ACCOUNT_LOCKED' },
        502: {
          description:
            'SITE_UNREACHABLE, or MAILBOX_UNAVAILABLE (a mailbox that should deliver the code cannot be read; details name it)',
        },
        503: {
          description:
            'BROWSER_NOT_FOUND or SECRETS_UNAVAILABLE (set-up problems; the message says what to install or configure)',
        },
        504: {
          description:
            'LOGIN_TIMEOUT (details.reason timeout, or code_timeout when no code or link arrived within login.codeTimeoutMs)',
        },
      },
    },
    async ({ body, auth, reply, req }) => {
      const loginId = loginIdOf(req.headers['x-login-id']);
      const outcome = await core.login.lifecycle.sessions.login(auth.orgId, body, { loginId });
      reply.header('X-Session-Cache', outcome.cached ? 'hit' : 'miss');
      reply.header('X-Session-Id', outcome.sessionId);
      reply.header('Cache-Control', 'no-store');
      return outcome.state;
    },
  );

  defineRoute(
    app,
    registry,
    {
      method: 'GET',
      url: '/api/sessions',
      api: 'login',
      scope: 'sessions:read',
      summary: "The organization's cached login sessions (metadata only, never cookie values)",
      tags: ['login'],
      responses: {
        200: {
          description: 'Cached sessions, newest first',
          schema: SessionListSchema,
        },
      },
    },
    async ({ auth }) => ({ data: await core.login.cache.list(auth.orgId) }),
  );

  defineRoute(
    app,
    registry,
    {
      method: 'DELETE',
      url: '/api/sessions/:id',
      api: 'login',
      scope: 'sessions:write',
      summary: 'Forget a cached session (the next login for it is fresh)',
      tags: ['login'],
      params: SessionIdParamsSchema,
      responses: { 204: { description: 'Deleted' }, 404: { description: 'No such session in this organization' } },
    },
    async ({ params, auth, reply }) => {
      // The lifecycle also forgets credentials stored for the session.
      if (!(await core.login.lifecycle.sessions.deleteSession(auth.orgId, params.id)))
        throw notFound(`No cached session ${params.id}`);
      return reply.status(204).send();
    },
  );

  defineRoute(
    app,
    registry,
    {
      method: 'POST',
      url: '/api/login/inbox',
      api: 'login',
      scope: 'login:write',
      summary: 'Hand an email or SMS to logins waiting for a code or sign-in link',
      description:
        'For mail without IMAP access, a phone that forwards SMS, or an SMS gateway webhook relay: the message goes to ' +
        "this organization's pending logins addressed to `to` (an email address, or an E.164 number for otp_sms). " +
        'Messages are not stored: one that no login waits for is dropped (delivered: 0).',
      tags: ['login'],
      body: InboxMessageSchema,
      responses: { 202: { description: 'Handed over', schema: InboxReceiptSchema } },
    },
    ({ body, auth, reply }) => {
      const to = (Array.isArray(body.to) ? body.to : [body.to]).map((t) => t.toLowerCase());
      const delivered = core.login.inbox.deliver(auth.orgId, {
        to,
        from: body.from,
        subject: body.subject,
        text: body.text,
        html: body.html,
        receivedAt: Date.now(),
        via: 'the inbox endpoint',
      });
      reply.status(202);
      return { delivered };
    },
  );

  defineRoute(
    app,
    registry,
    {
      method: 'POST',
      url: '/api/login/:id/cancel',
      api: 'login',
      scope: 'login:write',
      summary: 'Cancel a running fresh login started with the header X-Login-Id',
      description:
        'The waiting POST /api/login answers 409 LOGIN_CANCELLED (details.reason cancelled). A login with an id ' +
        'publishes its steps as they happen (login.step events of the desktop window).',
      tags: ['login'],
      params: z.object({ id: z.string().min(1).max(64) }),
      responses: { 204: { description: 'Cancelled' }, 404: { description: 'No running login with this id' } },
    },
    ({ params, auth, reply }) => {
      if (!core.login.service.cancel(auth.orgId, params.id)) throw notFound(`No running login ${params.id}`);
      return reply.status(204).send();
    },
  );

  // POST /signup is built: signup.routes.ts; POST /refresh: lifecycle.routes.ts.
};

/** A caller-chosen login id (X-Login-Id): 1-64 characters of [A-Za-z0-9_.-]; anything else is ignored. */
function loginIdOf(header: unknown): string | undefined {
  const value = Array.isArray(header) ? header[0] : header;
  return typeof value === 'string' && /^[\w.-]{1,64}$/.test(value) ? value : undefined;
}
