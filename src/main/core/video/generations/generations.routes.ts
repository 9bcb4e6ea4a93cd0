import type { FeatureRoutes } from '../../http/route.js';
import type { GenerationsService } from './generations.service.js';

/** GET /api/generations, GET /api/generations/:id, POST /api/generations/:id/cancel, POST /api/batches/:id/cancel. */
export function generationsRoutes({ generations }: { generations: GenerationsService }) {
  const baseUrl = (host: string | undefined) => (host ? `http://${host}` : undefined);
  return {
    listGenerations: ({ query, auth, req }) =>
      generations.list(auth.orgId, query, { baseUrl: baseUrl(req.headers.host) }),
    getGeneration: ({ params, auth, req }) =>
      generations.get(auth.orgId, params.id, { baseUrl: baseUrl(req.headers.host) }),
    cancelGeneration: ({ params, auth, req }) =>
      generations.cancel(auth.orgId, params.id, { baseUrl: baseUrl(req.headers.host) }),
    cancelBatch: ({ params, auth }) => generations.cancelBatch(auth.orgId, params.id),
    deleteGeneration: async ({ params, auth }) => {
      await generations.remove(auth.orgId, params.id);
    },
  } satisfies FeatureRoutes;
}
