// The route list: which feature answers which entry of the route table (src/shared/api). Features register their
// handlers here, next to the composition root; http/ never imports a feature. mergeRoutes refuses a route with no
// handler or with two, so the table and the server cannot drift apart.
import type { FastifyInstance } from 'fastify';
import type { Core } from './create-core.js';
import { buildServer } from './http/build-server.js';
import { mergeRoutes, replaceRoutes, type FeatureRoutes, type RouteHandlers } from './http/route.js';
import { systemRoutes } from './http/system.routes.js';
import { lifecycleRoutes } from './login/lifecycle/lifecycle.routes.js';
import { loginRoutes } from './login/login.routes.js';
import { mailboxesRoutes } from './login/mailboxes/mailboxes.routes.js';
import { signupRoutes } from './login/signup/signup.routes.js';
import { credentialsRoutes } from './login/vault/credentials.routes.js';
import { browserProfilesRoutes } from './login/profiles/browser-profiles.routes.js';
import { takeoverRoutes } from './login/takeover/takeover.routes.js';
import { loginWebhookRoutes } from './login/webhooks/login-webhooks.routes.js';
import { mcpRoutes } from './mcp/mcp.routes.js';
import { charactersRoutes } from './video/characters/characters.routes.js';
import { creditsRoutes } from './video/credits.routes.js';
import { generateRoutes } from './video/generations/generate.routes.js';
import { generationsRoutes } from './video/generations/generations.routes.js';
import { templatesRoutes } from './video/templates/templates.routes.js';
import { uploadsRoutes } from './video/uploads/uploads.routes.js';
import { webhookRoutes } from './video/webhooks/webhooks.routes.js';

/**
 * One handler per route. `replace` swaps in other handlers for some routes (tests run the webhook routes of their
 * own webhooks service); it may only name routes that exist.
 */
export function routeHandlers(core: Core, app: FastifyInstance, replace: FeatureRoutes = {}): RouteHandlers {
  const handlers = mergeRoutes(
    systemRoutes({ installId: core.installId, dataDir: core.config.dataDir }, core.secretsInventory),
    loginRoutes(core.login, app),
    signupRoutes(core.login.signup),
    lifecycleRoutes(core.login.lifecycle),
    mailboxesRoutes(core.login.mailboxes),
    credentialsRoutes(core.login),
    browserProfilesRoutes(core),
    takeoverRoutes(core.login.takeover),
    loginWebhookRoutes(core.loginWebhooks.service),
    templatesRoutes(core.video),
    generateRoutes(core.video, core.log),
    generationsRoutes(core.video),
    charactersRoutes(core.video),
    uploadsRoutes(core.video, app),
    creditsRoutes(core.credits),
    webhookRoutes(core.video.webhooks.service),
    mcpRoutes(core, app),
  );
  return replaceRoutes(handlers, replace);
}

/** The Fastify app of the core's API (not listening yet). */
export function buildCoreServer(core: Core, replace?: FeatureRoutes): Promise<FastifyInstance> {
  return buildServer(core, { routes: (app) => routeHandlers(core, app, replace) });
}
