import {
  InboxMessageSchema,
  KNOWN_LOGIN_METHODS,
  LoginAnswerHeadersSchema,
  LoginCancelParamsSchema,
  LoginRequestHeadersSchema,
  RefreshAnswerHeadersSchema,
  InboxReceiptSchema,
  LoginMethodListSchema,
  LoginAcceptedSchema,
  LoginCodeReceiptSchema,
  LoginCodeSchema,
  LoginIdParamsSchema,
  LoginRunSchema,
  LoginRequestSchema,
  RefreshRequestSchema,
  SessionIdParamsSchema,
  SessionListSchema,
  SessionValidationSchema,
  StorageStateSchema,
} from '../login.schema.js';
import { LoginStatusQuerySchema } from '../login-wait.schema.js';
import { SignupAnswerSchema, SignupRequestSchema } from '../signup.schema.js';
import { LOGIN_FAILURE_STATUS } from '../errors.js';
import { defineApiRoutes } from './api-route.js';

const failureDocs = Object.entries(LOGIN_FAILURE_STATUS)
  .map(([reason, { status, code }]) => `${status} ${code} (details.reason = ${reason})`)
  .join('; ');
const loginFailures = [...new Set(Object.values(LOGIN_FAILURE_STATUS).map(({ status, code }) => `${status} ${code}`))];

/** The login service: logins, sign-ups, cached sessions and their lifecycle. */
export const LOGIN_API = defineApiRoutes({
  login: {
    method: 'POST',
    path: '/api/login',
    aliases: ['/login'],
    api: 'login',
    scope: 'login:write',
    summary: 'Log in to a website with a real browser and return its Playwright storageState',
    description:
      'Body fields: credential (a saved login by id or label, GET /api/credentials: its secrets are typed by the ' +
      'server, only on its origins, and the caller never holds them; domain then defaults to its loginUrl) or ' +
      `cred {username, password}, cred.totpSecret (base32 or otpauth:// URI, for totp and sites that ask an authenticator code), loginMethod (${KNOWN_LOGIN_METHODS.join(', ')}), ` +
      'domain (full http/https URL of the login page), additionalFields (string map matched to extra fields by name, id, label or placeholder), ' +
      'useCache (default true), browser {mode: headless|headed|own-chrome} (the login browser: docs/login-service.md#bot-walls; default the ' +
      "saved login's, else the server's browser.mode). The answer is Playwright storageState plus browser {userAgent, locale, " +
      "timezoneId}: what the login browser presented, for the agent's context to present as well (Playwright ignores the " +
      'extra key); the headers X-Session-Cache (hit|miss) and X-Session-Id say where it came from. ' +
      `A fresh login always replaces the cached entry. Failures: ${failureDocs}; 400 INVALID_REQUEST for bad input.`,
    tags: ['login'],
    body: LoginRequestSchema,
    headers: LoginRequestHeadersSchema,
    answerHeaders: LoginAnswerHeadersSchema,
    responses: {
      200: {
        description: 'The live session',
        schema: StorageStateSchema,
        headers: {
          'X-Session-Cache': 'hit when served from the cache, miss after a fresh browser login',
          'X-Session-Id': 'id of the cache entry (see GET /api/sessions)',
        },
      },
      202: {
        description:
          'With "async": true or Prefer: respond-async: the login runs in the background; poll status_url (GET /api/login/{id})',
        schema: LoginAcceptedSchema,
      },
      400: {
        description:
          'Invalid request (also: cred and credential together, or neither), or a login method not available yet (LOGIN_METHOD_NOT_AVAILABLE)',
      },
      403: {
        description:
          'FORBIDDEN: the key lacks login:write; CREDENTIAL_NOT_SHARED: the saved login is not shared with this key; ' +
          'BOT_DETECTED (details.reason bot_detected): the site refused the browser as automated, in its own words (the message quotes them); nothing was said about the password',
      },
      404: { description: 'NOT_FOUND: no saved login with that id or label in this organization' },
      409: {
        description:
          "SECRETS_MISSING: a secret the login needs (the saved login's, details.credential; or the password of the mailbox " +
          "that should deliver the code, named in the message) is not in this computer's secret store (a data dir moved " +
          'without its secrets); the message says the way out',
      },
      401: {
        description:
          'AUTHENTICATION_FAILED: wrong credentials (details.reason invalid_credentials), a code or sign-in link the site rejected (invalid_code) or a bad API key (invalid_api_key)',
      },
      422: {
        description:
          "LOGIN_FORM_NOT_FOUND, MFA_REQUIRED (the message says what to pass), CAPTCHA_BLOCKED, CREDENTIALS_REQUIRED (the site asks a password that was not given), CREDENTIAL_ORIGIN_MISMATCH (a saved login's secrets were about to be typed on a page outside its origins; nothing was typed) or BROWSER_MODE_UNAVAILABLE (a browser mode other than headless on a server that logs in through a remote browser)",
      },
      423: { description: 'ACCOUNT_LOCKED' },
      502: {
        description:
          'SITE_UNREACHABLE, or MAILBOX_UNAVAILABLE (a mailbox that should deliver the code cannot be read; details name it)',
      },
      503: {
        description:
          'BROWSER_NOT_FOUND (for browser mode own-chrome: no installed Chrome, Edge or Chromium, details.mode), BROWSER_UNAVAILABLE (the browser exited while starting, twice in a row), ' +
          'DISPLAY_UNAVAILABLE (browser mode headed or own-chrome on Linux without a display and without Xvfb; details.reason) or SECRETS_UNAVAILABLE (set-up problems; the message says what to install or configure)',
      },
      504: {
        description:
          'LOGIN_TIMEOUT (details.reason timeout, or code_timeout when no code or link arrived within login.codeTimeoutMs)',
      },
    },
  },

  listSessions: {
    method: 'GET',
    path: '/api/sessions',
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

  deleteSession: {
    method: 'DELETE',
    path: '/api/sessions/:id',
    api: 'login',
    scope: 'sessions:write',
    summary: 'Forget a cached session (the next login for it is fresh)',
    tags: ['login'],
    params: SessionIdParamsSchema,
    responses: { 204: { description: 'Deleted' }, 404: { description: 'No such session in this organization' } },
  },

  deliverToInbox: {
    method: 'POST',
    path: '/api/login/inbox',
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

  loginStatus: {
    method: 'GET',
    path: '/api/login/:id',
    api: 'login',
    scope: 'login:write',
    summary:
      'Where a login with an id stands: running, needs_person (with its takeover_url), succeeded, failed, cancelled',
    description:
      'For a login started with X-Login-Id, an async one (202 login_id) or an interactive one (its error and steps ' +
      'carry login_id). Kept 10 minutes after it ends. The takeover_url is shown only to the API key that started the ' +
      'login: other keys of the organization see where it stands without it. With wait=S (a long poll) the answer ' +
      'comes when the login changes (it waits for a person, or ends) or after S seconds, whichever is first.',
    tags: ['login'],
    params: LoginIdParamsSchema,
    query: LoginStatusQuerySchema,
    responses: {
      200: { description: 'The login', schema: LoginRunSchema },
      400: { description: 'INVALID_REQUEST: wait is not a whole number of seconds from 1 to 60' },
      404: { description: 'NOT_FOUND: no such login in this organization (or it ended over 10 minutes ago)' },
    },
  },

  loginState: {
    method: 'GET',
    path: '/api/login/:id/state',
    api: 'login',
    scope: 'login:write',
    summary: "An async login's storageState, once",
    description:
      'Once an async login (202) succeeded: its Playwright storageState, given once and kept at most 10 minutes. ' +
      '409 LOGIN_RUNNING while it runs, 409 STATE_UNAVAILABLE when it failed, was taken or was not async.',
    tags: ['login'],
    params: LoginIdParamsSchema,
    responses: {
      200: { description: 'The session', schema: StorageStateSchema },
      404: { description: 'NOT_FOUND' },
      409: { description: 'LOGIN_RUNNING or STATE_UNAVAILABLE' },
    },
  },

  typeLoginCode: {
    method: 'POST',
    path: '/api/login/:id/code',
    api: 'login',
    scope: 'login:write',
    summary: 'Type a one-time code into a login that waits for a person at its second factor',
    description:
      'For a login whose status is needs_person with reason mfa_required: the code is typed into the code field of ' +
      'its live page and submitted, as a person would; the login then finishes as soon as the page is signed in ' +
      '(GET /api/login/{id}). A wrong code leaves the login waiting (type another, or finish on the live page).',
    tags: ['login'],
    params: LoginIdParamsSchema,
    body: LoginCodeSchema,
    responses: {
      202: { description: 'Typed and submitted', schema: LoginCodeReceiptSchema },
      404: { description: 'NOT_FOUND: no login with this id waits for a person in this organization' },
      409: { description: 'NO_CODE_FIELD: the live page shows no field for a one-time code' },
    },
  },

  cancelLogin: {
    method: 'POST',
    path: '/api/login/:id/cancel',
    api: 'login',
    scope: 'login:write',
    summary: 'Cancel a running fresh login started with the header X-Login-Id',
    description:
      'The waiting POST /api/login answers 409 LOGIN_CANCELLED (details.reason cancelled). A login with an id ' +
      'publishes its steps as they happen (login.step events of the desktop window).',
    tags: ['login'],
    params: LoginCancelParamsSchema,
    responses: { 204: { description: 'Cancelled' }, 404: { description: 'No running login with this id' } },
  },

  signup: {
    method: 'POST',
    path: '/api/signup',
    aliases: ['/signup'],
    api: 'login',
    scope: 'login:write',
    summary: "Create an account on a website's sign-up page, finish its email verification, return the session",
    description:
      'Body: cred {username, password} of the new account (username: an email address, or a user name with ' +
      'additionalFields.email), or credential (a saved login whose username, password and additional fields make ' +
      'the account, typed only on its origins; 403 CREDENTIAL_NOT_SHARED, 404 for an unknown one), domain (full http/https URL of the sign-up page, or of a login page that links to ' +
      'it), additionalFields (name or firstName/lastName, company, phone … matched to the form by name, id, label or ' +
      'placeholder). The engine fills the form (the password into the new-password and confirmation fields), ticks ' +
      'the terms checkbox and never a newsletter one, submits, and when the site asks to verify the email it waits ' +
      "(login.codeTimeoutMs) for the mail in the organization's mailboxes for that address or from POST " +
      '/api/login/inbox, opens the link or enters the code, and signs in when the site asks to. The answer is the ' +
      "new account's Playwright storageState, cached like a password login (X-Session-Id); an X-Login-Id header " +
      'names its live steps (login.step events) as for POST /api/login. loginMethod "passkey" (default password): ' +
      "a virtual authenticator is on the page before it opens; the form's other fields are filled as above (a " +
      'password field, when there is one, gets cred.password or a generated password), and the passkey comes from ' +
      'the form\'s passkey control ("Create a passkey"), a submit that asks for one, or the site\'s "create a ' +
      'passkey" page once signed in; it is kept in a new saved login (loginMethod passkey, origins: the page\'s, the ' +
      'private key in the secret store; with credential, in that saved login), and the answer adds credential ' +
      '(its id) and passkey {rp_id, credential_id}. Failures use the login ' +
      'error body: 409 USER_EXISTS, 422 SIGNUP_REJECTED (the message quotes the site, e.g. a weak password), 422 ' +
      'SIGNUP_FORM_NOT_FOUND, 422 CAPTCHA_BLOCKED, 422 PASSKEY_NOT_OFFERED (passkey: the site showed no way to make ' +
      'one; nothing is saved), 401 AUTHENTICATION_FAILED (a rejected verification link or ' +
      'code, or the log-in afterwards), 502 SITE_UNREACHABLE / MAILBOX_UNAVAILABLE, 504 LOGIN_TIMEOUT.',
    tags: ['login'],
    body: SignupRequestSchema,
    responses: {
      200: {
        description: "The new account's live session (with a passkey: also the saved login keeping it)",
        schema: SignupAnswerSchema,
        headers: { 'X-Session-Id': 'id of the cache entry (see GET /api/sessions)' },
      },
      400: { description: 'Invalid request (details.issues names the fields)' },
      403: { description: 'FORBIDDEN, or CREDENTIAL_NOT_SHARED: the saved login is not shared with this key' },
      404: { description: 'NOT_FOUND: no saved login with that id or label' },
      401: {
        description:
          'AUTHENTICATION_FAILED: the site rejected the verification link or code (details.reason invalid_code), or the log-in after the sign-up failed',
      },
      409: { description: 'USER_EXISTS: the site says an account with this email or user name exists' },
      422: {
        description:
          "SIGNUP_REJECTED (the site's own message: weak password, missing field …), SIGNUP_FORM_NOT_FOUND, CAPTCHA_BLOCKED, CREDENTIALS_REQUIRED (the site verifies an address the request did not give), PASSKEY_NOT_OFFERED (loginMethod passkey: no passkey control on the sign-up form nor on the account's pages after it; nothing saved), CREDENTIAL_ORIGIN_MISMATCH (the passkey's RP ID fits none of the saved login's origins)",
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

  loginMethods: {
    method: 'GET',
    path: '/api/login/methods',
    api: 'login',
    scope: 'sessions:read',
    summary: 'The login methods this version serves, and the request fields each one needs',
    tags: ['login'],
    responses: { 200: { description: 'Login methods', schema: LoginMethodListSchema } },
  },

  refresh: {
    method: 'POST',
    path: '/api/refresh',
    aliases: ['/refresh'],
    api: 'login',
    scope: 'login:write',
    summary: 'Renew a cached session with the saved login it was made with',
    description:
      'Body: credential (a saved login: its site, username and method pick the session; shared with the key), or ' +
      'domain (a URL of the site: its origin picks the session), username, loginMethod (default password); ' +
      'force (default false). The session of (organization, origin, username, loginMethod) is first checked on the ' +
      'site (see POST /api/sessions/{id}/validate): when it still works it is returned as it is (X-Session-Refresh: ' +
      'still-valid); otherwise, or with force, the service logs in again with the saved login linked to the session ' +
      '(a login by credential, or one with "storeCredentials": true) and the new session replaces the entry ' +
      '(X-Session-Refresh: renewed). ' +
      `404 NOT_FOUND: no cached session; 403 CREDENTIAL_NOT_SHARED; 409 NO_STORED_CREDENTIALS: no saved login renews it; a failed re-login answers like POST /api/login (${loginFailures.join(', ')}).`,
    tags: ['login'],
    body: RefreshRequestSchema,
    answerHeaders: RefreshAnswerHeadersSchema,
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
      403: { description: 'CREDENTIAL_NOT_SHARED: the saved login is not shared with this key' },
      404: {
        description: 'NOT_FOUND: no cached session for this site, username and login method, or no such saved login',
      },
      409: {
        description:
          'NO_STORED_CREDENTIALS: no saved login renews the session (log in by credential, or with "storeCredentials": true)',
      },
      502: { description: 'SITE_UNREACHABLE: the site did not answer the check or the login' },
    },
  },

  validateSession: {
    method: 'POST',
    path: '/api/sessions/:id/validate',
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
});
