import type { RouteModule } from '../build-server.js';
import { loginRoutes } from '../../login/login.routes.js';
import { registerCharactersRoutes } from '../../video/characters.routes.js';
import { registerGenerateRoutes } from '../../video/generate.routes.js';
import { registerGenerationsRoutes } from '../../video/generations.routes.js';
import { registerTemplatesRoutes } from '../../video/templates.routes.js';
import { registerUploadsRoutes } from '../../video/uploads.routes.js';

/** Feature route modules, in registration order. */
export const ROUTE_MODULES: RouteModule[] = [
  loginRoutes,
  registerUploadsRoutes,
  registerTemplatesRoutes,
  registerGenerateRoutes,
  registerGenerationsRoutes,
  registerCharactersRoutes,
];
