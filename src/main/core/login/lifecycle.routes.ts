import { LOGIN_FAILURE_STATUS } from '../../../shared/errors.js';
import {
  RefreshRequestSchema,
  SessionIdParamsSchema,
  SessionValidationSchema,
  StorageStateSchema,
} from '../../../shared/login.schema.js';
import type { RouteModule } from '../http/build-server.js';
import { defineRoute } from '../http/route.js';

const loginFailures = [...new Set(Object.values(LOGIN_FAILURE_STATUS).map(({ status, code }) => `${status} ${code}`))];

/** Session lifecycle (README "Session lifecycle"): refresh with stored credentials, validation on the site. */
export const lifecycleRoutes: RouteModule = (app, registry, core) => {
  defineRoute(
    app,
    registry,
    {
      method: 'POST',
      url: '/api/refresh',
      aliases: ['/refresh'],
      api: 'login',
      scope: 'login:write',
      summary: 'Renew a cached session with the credentials the organization chose to store',
      description:
        'Body: domain (a URL of the site: its origin picks the session), username, loginMethod (default password), ' +
        'force (default false). The session of (organization, origin, username, loginMethod) is first checked on the ' +
        'site (see POST /api/sessions/{id}/validate): when it still works it is returned as it is (X-Session-Refresh: ' +
        'still-valid); otherwise, or with force, the service logs in again with the credentials stored by a login ' +
        'with "storeCredentials": true and the new session replaces the entry (X-Session-Refresh: renewed). ' +
        `404 NOT_FOUND: no cached session; 409 NO_STORED_CREDENTIALS: none stored; a failed re-login answers like POST /api/login (${loginFailures.join(', ')}).`,
      tags: ['login'],
      body: RefreshRequestSchema,
      responses: {
        200: {
          description: 'A working session (Playwright storageState)',
          schema: StorageStateSchema,
          headers: {
            'X-Session-Refresh': 'still-valid (the cached session works) or renewed (a fresh login replaced it)',
            'X-Session-Id': 'id of the cache entry (it changes when renewed)',
          },
        },
        400: { description: 'INVALID_REQUEST' },
        401: { description: 'AUTHENTICATION_FAILED: the site refused the stored credentials, or a bad API key' },
        404: { description: 'NOT_FOUND: no cached session for this site, username and login method' },
        409: {
          description:
            'NO_STORED_CREDENTIALS: the session has no stored credentials (log in with "storeCredentials": true)',
        },
        502: { description: 'SITE_UNREACHABLE: the site did not answer the check or the login' },
      },
    },
    async ({ body, auth, reply }) => {
      const out = await core.login.lifecycle.sessions.refresh(auth.orgId, body);
      reply.header('X-Session-Refresh', out.refresh);
      reply.header('X-Session-Id', out.sessionId);
      reply.header('Cache-Control', 'no-store');
      return out.state;
    },
  );

  defineRoute(
    app,
    registry,
    {
      method: 'POST',
      url: '/api/sessions/:id/validate',
      api: 'login',
      scope: 'sessions:write',
      summary: 'Check on the site whether a cached session still works (a dead one is dropped)',
      description:
        'Opens the check page (the page the login landed on, or its checkUrl) in a fresh browser context with the ' +
        'cached state. Valid: it answered below 400, did not redirect to a sign-in page (/login, /signin, /auth…) ' +
        'and shows no login form (nor a sign-in link without a sign-out control). A dead session is deleted, unless ' +
        'credentials are stored for it: then it is kept as invalid (never served from the cache) for POST /refresh.',
      tags: ['login'],
      params: SessionIdParamsSchema,
      responses: {
        200: { description: 'What the check found', schema: SessionValidationSchema },
        404: { description: 'NOT_FOUND: no such session in this organization' },
        502: {
          description: 'SITE_UNREACHABLE: the site did not answer (or answered 5xx); the session is left as it is',
        },
      },
    },
    ({ params, auth }) => core.login.lifecycle.sessions.validate(auth.orgId, params.id),
  );
};
