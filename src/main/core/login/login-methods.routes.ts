import { LoginMethodListSchema } from '../../../shared/login.schema.js';
import type { RouteModule } from '../http/build-server.js';
import { defineRoute } from '../http/route.js';
import { LOGIN_METHOD_INFO } from './login-methods.js';

export const loginMethodsRoutes: RouteModule = (app, registry) => {
  defineRoute(
    app,
    registry,
    {
      method: 'GET',
      url: '/api/login/methods',
      api: 'login',
      scope: 'sessions:read',
      summary: 'The login methods this version serves, and the request fields each one needs',
      tags: ['login'],
      responses: { 200: { description: 'Login methods', schema: LoginMethodListSchema } },
    },
    () => ({ data: [...LOGIN_METHOD_INFO] }),
  );
};
