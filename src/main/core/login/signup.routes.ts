import { LoginIdSchema } from '../../../shared/ipc-results-channels.js';
import { StorageStateSchema } from '../../../shared/login.schema.js';
import { SignupRequestSchema } from '../../../shared/signup.schema.js';
import type { RouteModule } from '../http/build-server.js';
import { defineRoute } from '../http/route.js';

export const signupRoutes: RouteModule = (app, registry, core) => {
  defineRoute(
    app,
    registry,
    {
      method: 'POST',
      url: '/api/signup',
      aliases: ['/signup'],
      api: 'login',
      scope: 'login:write',
      summary: "Create an account on a website's sign-up page, finish its email verification, return the session",
      description:
        'Body: cred {username, password} of the new account (username: an email address, or a user name with ' +
        'additionalFields.email), domain (full http/https URL of the sign-up page, or of a login page that links to ' +
        'it), additionalFields (name or firstName/lastName, company, phone … matched to the form by name, id, label or ' +
        'placeholder). The engine fills the form (the password into the new-password and confirmation fields), ticks ' +
        'the terms checkbox and never a newsletter one, submits, and when the site asks to verify the email it waits ' +
        "(login.codeTimeoutMs) for the mail in the organization's mailboxes for that address or from POST " +
        '/api/login/inbox, opens the link or enters the code, and signs in when the site asks to. The answer is the ' +
        "new account's Playwright storageState, cached like a password login (X-Session-Id); an X-Login-Id header " +
        'names its live steps (login.step events) as for POST /api/login. Failures use the login ' +
        'error body: 409 USER_EXISTS, 422 SIGNUP_REJECTED (the message quotes the site, e.g. a weak password), 422 ' +
        'SIGNUP_FORM_NOT_FOUND, 422 CAPTCHA_BLOCKED, 401 AUTHENTICATION_FAILED (a rejected verification link or ' +
        'code, or the log-in afterwards), 502 SITE_UNREACHABLE / MAILBOX_UNAVAILABLE, 504 LOGIN_TIMEOUT.',
      tags: ['login'],
      body: SignupRequestSchema,
      responses: {
        200: {
          description: "The new account's live session",
          schema: StorageStateSchema,
          headers: { 'X-Session-Id': 'id of the cache entry (see GET /api/sessions)' },
        },
        400: { description: 'Invalid request (details.issues names the fields)' },
        401: {
          description:
            'AUTHENTICATION_FAILED: the site rejected the verification link or code (details.reason invalid_code), or the log-in after the sign-up failed',
        },
        409: { description: 'USER_EXISTS: the site says an account with this email or user name exists' },
        422: {
          description:
            "SIGNUP_REJECTED (the site's own message: weak password, missing field …), SIGNUP_FORM_NOT_FOUND, CAPTCHA_BLOCKED, CREDENTIALS_REQUIRED (the site verifies an address the request did not give)",
        },
        502: {
          description:
            'SITE_UNREACHABLE, or MAILBOX_UNAVAILABLE (the mailbox that should deliver the mail cannot be read)',
        },
        504: {
          description: 'LOGIN_TIMEOUT (details.reason timeout, or code_timeout when no verification mail arrived)',
        },
      },
    },
    async ({ body, auth, reply, req }) => {
      // X-Login-Id, as for POST /api/login: the sign-up's steps go out as login.step events under it.
      const header = req.headers['x-login-id'];
      const id = LoginIdSchema.safeParse(Array.isArray(header) ? header[0] : header);
      const outcome = await core.login.signup.signup(auth.orgId, body, { loginId: id.success ? id.data : undefined });
      reply.header('X-Session-Id', outcome.sessionId);
      reply.header('Cache-Control', 'no-store');
      return outcome.state;
    },
  );
};
