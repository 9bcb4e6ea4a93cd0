import type { FastifyInstance } from 'fastify';
import { notFound } from '../errors.js';
import type { FeatureRoutes } from '../http/route.js';
import { WaitingRequests } from '../http/waiting-requests.js';
import { loginIdHeader } from './runs/login-id-header.js';
import { LOGIN_METHOD_INFO } from './login-methods.js';
import type { InboxHub } from './codes/inbox-hub.js';
import type { Lifecycle } from './lifecycle/index.js';
import type { LoginRuns } from './runs/login-runs.js';
import type { SessionCache } from './sessions/session-cache.js';
import type { TakeoverFinisher } from './takeover/takeover-finisher.js';

/** The parts of the login feature these routes use (routes.ts passes LoginFeature, which has them all). */
export interface LoginRouteParts {
  runs: LoginRuns;
  cache: SessionCache;
  lifecycle: Pick<Lifecycle, 'sessions'>;
  inbox: InboxHub;
  takeover: TakeoverFinisher;
}

/**
 * Logins, the login methods, cached sessions, the inbox for codes and links, and cancelling a login. `app`: long polls
 * of a login's status are answered when the server closes.
 */
export function loginRoutes(login: LoginRouteParts, app: FastifyInstance) {
  const waits = new WaitingRequests(app);
  return {
    login: async ({ body, auth, reply, req }) => {
      const loginId = loginIdHeader(req);
      if (body.async || /\brespond-async\b/i.test(String(req.headers.prefer ?? ''))) {
        const accepted = login.runs.start(auth, body, loginId);
        reply.header('Preference-Applied', 'respond-async').header('Location', accepted.status_url);
        // The entry documents 200 (the session) and 202: the caller's choice of a background login picks 202.
        return reply.status(202).send(accepted);
      }
      const outcome = await login.runs.run(auth, body, loginId);
      reply.header('X-Session-Cache', outcome.cached ? 'hit' : 'miss');
      reply.header('X-Session-Id', outcome.sessionId);
      reply.header('Cache-Control', 'no-store');
      return outcome.state;
    },
    loginMethods: () => ({ data: [...LOGIN_METHOD_INFO] }),
    // The takeover_url only for the key that started the login (docs/security.md#a-logins-live-page-is-the-starting-keys). With wait: a long poll.
    loginStatus: ({ params, query, auth, reply }) => {
      const { wait } = query;
      if (wait === undefined) return login.runs.status(auth.orgId, params.id, auth.keyId);
      return waits.run(reply, (signal) =>
        login.runs.waitForChange(auth.orgId, params.id, auth.keyId, wait * 1000, signal),
      );
    },
    loginState: ({ params, auth, reply }) => {
      reply.header('Cache-Control', 'no-store');
      return login.runs.state(auth.orgId, params.id);
    },
    listSessions: async ({ auth }) => ({ data: await login.cache.list(auth.orgId) }),
    deleteSession: async ({ params, auth }) => {
      // The lifecycle also forgets credentials stored for the session.
      if (!(await login.lifecycle.sessions.deleteSession(auth.orgId, params.id)))
        throw notFound(`No cached session ${params.id}`);
    },
    deliverToInbox: ({ body, auth }) => {
      const to = (Array.isArray(body.to) ? body.to : [body.to]).map((t) => t.toLowerCase());
      const delivered = login.inbox.deliver(auth.orgId, {
        to,
        from: body.from,
        subject: body.subject,
        text: body.text,
        html: body.html,
        receivedAt: Date.now(),
        via: 'the inbox endpoint',
      });
      return { delivered };
    },
    typeLoginCode: async ({ params, auth, body }) => {
      const { field, answer } = await login.takeover.typeCode(params.id, auth.orgId, body.code);
      return {
        typed: true,
        field,
        answer: answer.kind,
        ...(answer.kind === 'rejected' ? { message: answer.message } : {}),
      };
    },
    cancelLogin: ({ params, auth }) => {
      if (!login.runs.cancel(auth.orgId, params.id)) throw notFound(`No running login ${params.id}`);
    },
  } satisfies FeatureRoutes;
}
