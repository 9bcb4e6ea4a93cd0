import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { CreditsSchema } from '../../../../../shared/credits.schema.js';
import { APP_VERSION } from '../../../../../shared/version.js';
import type { Core } from '../../../create-core.js';
import type { OpenApiRegistry } from '../../openapi.js';
import { defineRoute } from '../../route.js';

const Health = z.object({ status: z.literal('ok'), version: z.string(), uptime_sec: z.number() });

export function registerSystemRoutes(app: FastifyInstance, registry: OpenApiRegistry, core: Core): void {
  const started = Date.now();
  defineRoute(
    app,
    registry,
    {
      method: 'GET',
      url: '/healthz',
      api: 'video',
      scope: null,
      summary: 'Liveness check (no key needed)',
      tags: ['system'],
      responses: { 200: { description: 'The server is up', schema: Health } },
    },
    () => ({ status: 'ok' as const, version: APP_VERSION, uptime_sec: Math.round((Date.now() - started) / 1000) }),
  );
  defineRoute(
    app,
    registry,
    {
      method: 'GET',
      url: '/api/credits',
      api: 'video',
      scope: 'credits:read',
      summary: "The organization's credit balance and its latest ledger entries",
      tags: ['credits'],
      responses: { 200: { description: 'Balance and the newest 50 ledger entries', schema: CreditsSchema } },
    },
    ({ auth }) => ({
      org_id: auth.orgId,
      balance: core.credits.balance(auth.orgId),
      ledger: core.credits
        .ledger(auth.orgId, 50)
        .map(({ amount, kind, ref, created_at }) => ({ amount, kind, ref, created_at })),
    }),
  );
}
