// The route table: every operation of the local HTTP API, declared once (method, path, scope, schemas, answers).
// The server registers one handler per entry (mergeRoutes in src/main/core/http/route.ts refuses a missing or an extra
// one), the OpenAPI document is rendered from it, and the typed client, the MCP tools and the window's IPC
// channels call routes by their name here. test/unit/shared/api-routes.test.ts keeps them in step.
import { BROWSER_PROFILES_API } from './browser-profiles.api.js';
import { CREDENTIALS_API } from './credentials.api.js';
import { GENERATIONS_API } from './generations.api.js';
import { LOGIN_API } from './login.api.js';
import { LOGIN_WEBHOOKS_API } from './login-webhooks.api.js';
import { MAILBOXES_API } from './mailboxes.api.js';
import { MEDIA_API } from './media.api.js';
import { SYSTEM_API } from './system.api.js';
import { TAKEOVER_API } from './takeover.api.js';
import { TEMPLATES_API } from './templates.api.js';

export const API_ROUTES = {
  ...SYSTEM_API,
  ...LOGIN_API,
  ...MAILBOXES_API,
  ...CREDENTIALS_API,
  ...BROWSER_PROFILES_API,
  ...TAKEOVER_API,
  ...LOGIN_WEBHOOKS_API,
  ...TEMPLATES_API,
  ...GENERATIONS_API,
  ...MEDIA_API,
};

export type ApiRoutes = typeof API_ROUTES;
export type ApiRouteName = keyof ApiRoutes;
export const API_ROUTE_NAMES = Object.keys(API_ROUTES) as ApiRouteName[];

export * from './api-route.js';
