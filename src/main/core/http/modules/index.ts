import type { RouteModule } from '../build-server.js';
import { lifecycleRoutes } from '../../login/lifecycle.routes.js';
import { loginMethodsRoutes } from '../../login/login-methods.routes.js';
import { loginRoutes } from '../../login/login.routes.js';
import { mailboxesRoutes } from '../../login/mailboxes/mailboxes.routes.js';
import { signupRoutes } from '../../login/signup.routes.js';
import { mcpRoutes } from '../../mcp/mcp.routes.js';
import { registerCharactersRoutes } from '../../video/characters/characters.routes.js';
import { registerGenerateRoutes } from '../../video/generations/generate.routes.js';
import { registerGenerationsRoutes } from '../../video/generations/generations.routes.js';
import { registerTemplatesRoutes } from '../../video/templates/templates.routes.js';
import { registerUploadsRoutes } from '../../video/uploads/uploads.routes.js';
import { registerWebhookRoutes } from '../../video/webhooks/webhooks.routes.js';

/** The webhook routes of the core's webhooks service (tests may swap in their own instance). */
export const webhookRoutes: RouteModule = (app, registry, core) =>
  registerWebhookRoutes(app, registry, core.video.webhooks.service);

/** Feature route modules, in registration order. */
export const ROUTE_MODULES: RouteModule[] = [
  loginRoutes,
  signupRoutes,
  loginMethodsRoutes,
  lifecycleRoutes,
  mailboxesRoutes,
  registerUploadsRoutes,
  registerTemplatesRoutes,
  registerGenerateRoutes,
  registerGenerationsRoutes,
  registerCharactersRoutes,
  webhookRoutes,
  mcpRoutes,
];
