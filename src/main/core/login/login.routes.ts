import { notFound } from '../errors.js';
import type { FeatureRoutes } from '../http/route.js';
import { loginIdHeader } from './login-id-header.js';
import { LOGIN_METHOD_INFO } from './login-methods.js';
import type { LoginCore } from './login.feature.js';

/** Logins, the login methods, cached sessions, the inbox for codes and links, and cancelling a login. */
export function loginRoutes(core: LoginCore) {
  return {
    login: async ({ body, auth, reply, req }) => {
      const loginId = loginIdHeader(req);
      if (body.async || /\brespond-async\b/i.test(String(req.headers.prefer ?? ''))) {
        const accepted = core.login.runs.start(auth, body, loginId);
        reply.header('Preference-Applied', 'respond-async').header('Location', accepted.status_url);
        // The entry documents 200 (the session) and 202: the caller's choice of a background login picks 202.
        return reply.status(202).send(accepted);
      }
      const outcome = await core.login.runs.run(auth, body, loginId);
      reply.header('X-Session-Cache', outcome.cached ? 'hit' : 'miss');
      reply.header('X-Session-Id', outcome.sessionId);
      reply.header('Cache-Control', 'no-store');
      return outcome.state;
    },
    loginMethods: () => ({ data: [...LOGIN_METHOD_INFO] }),
    // The takeover_url only for the key that started the login (README "Security").
    loginStatus: ({ params, auth }) => core.login.runs.status(auth.orgId, params.id, auth.keyId),
    loginState: ({ params, auth, reply }) => {
      reply.header('Cache-Control', 'no-store');
      return core.login.runs.state(auth.orgId, params.id);
    },
    listSessions: async ({ auth }) => ({ data: await core.login.cache.list(auth.orgId) }),
    deleteSession: async ({ params, auth }) => {
      // The lifecycle also forgets credentials stored for the session.
      if (!(await core.login.lifecycle.sessions.deleteSession(auth.orgId, params.id)))
        throw notFound(`No cached session ${params.id}`);
    },
    deliverToInbox: ({ body, auth }) => {
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
      return { delivered };
    },
    typeLoginCode: async ({ params, auth, body }) => {
      const typed = await core.login.takeover.typeCode(params.id, auth.orgId, body.code);
      return { typed: true, field: typed.field };
    },
    cancelLogin: ({ params, auth }) => {
      if (!core.login.service.cancel(auth.orgId, params.id)) throw notFound(`No running login ${params.id}`);
    },
  } satisfies FeatureRoutes;
}
