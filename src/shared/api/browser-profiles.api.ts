import {
  BrowserProfileListSchema,
  SessionImportRequestSchema,
  SessionImportResultSchema,
} from '../browser-profiles.schema.js';
import { defineApiRoutes } from './api-route.js';

const explicitOnly =
  'Only for keys granted the scope "browser-profiles:read" by name ("*" does not grant it): the person\'s own ' +
  'browsers are theirs to share, one key at a time. And only for a key of an organization the person allowed ' +
  "(by default the install's first organization; `npm run cli -- browser-profiles allow --org NAME`): any other " +
  'is a 403 ORGANIZATION_NOT_ALLOWED.';

/** Sessions from the person's own browsers (docs/own-browsers-and-passkeys.md#sessions-from-your-own-browsers). */
export const BROWSER_PROFILES_API = defineApiRoutes({
  listBrowserProfiles: {
    method: 'GET',
    path: '/api/browser-profiles',
    api: 'login',
    scope: 'browser-profiles:read',
    summary: 'The browser profiles on this machine (Chrome, Chromium, Edge, Brave, Firefox) and the sites they hold',
    description: `Read from a copy of each profile's cookie database: the running browser is not disturbed. ${explicitOnly}`,
    tags: ['sessions'],
    responses: {
      200: { description: 'Profiles', schema: BrowserProfileListSchema },
      403: { description: 'ORGANIZATION_NOT_ALLOWED: the person did not allow the key’s organization (or FORBIDDEN)' },
    },
  },

  importSessions: {
    method: 'POST',
    path: '/api/sessions/import',
    api: 'login',
    scope: 'browser-profiles:read',
    summary: "Import sites' sessions from one of the person's browser profiles into the session cache",
    description:
      "The profile's cookies for each site (decrypted with the key the OS keeps for the browser) and, for Chromium " +
      'browsers, its localStorage become a cached session, validated at once with the session check (`status`). ' +
      'A session the check finds dead is not kept (`session_id` null). Every import is recorded in the use log. ' +
      explicitOnly,
    tags: ['sessions'],
    body: SessionImportRequestSchema,
    responses: {
      200: { description: 'One session per site', schema: SessionImportResultSchema },
      400: { description: 'INVALID_REQUEST' },
      403: {
        description:
          'KEYCHAIN_REFUSED: the OS keychain did not give out the cookie key; ORGANIZATION_NOT_ALLOWED: the person did ' +
          'not allow the key’s organization; FORBIDDEN: no scope',
      },
      404: { description: 'PROFILE_NOT_FOUND, or NOTHING_TO_IMPORT: the profile holds nothing for a site (named)' },
      409: { description: 'PROFILE_LOCKED: the browser holds the profile locked (close it and try again)' },
      422: {
        description:
          "APP_BOUND_ENCRYPTION: Chrome's v20 cookies only Chrome can read; COOKIES_UNREADABLE: the key does not open them",
      },
    },
  },
});
