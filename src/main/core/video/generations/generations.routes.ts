import type { FastifyInstance } from 'fastify';
import {
  GenerationIdParamsSchema,
  GenerationListQuerySchema,
  GenerationListSchema,
  GenerationSchema,
  LIMITS,
} from '../../../../shared/video.schema.js';
import type { Core } from '../../create-core.js';
import type { OpenApiRegistry } from '../../http/openapi.js';
import { defineRoute } from '../../http/route.js';

const STATES =
  'status: generating (on creation) -> completed (video_url set, a presigned URL valid storage.urlTtlSec) | failed (error set; ' +
  'the charge is refunded) | canceled (POST /api/generations/:id/cancel while generating; the charge is refunded). ' +
  'inputs holds the resolved values (storage keys, character ids, text); webhook_url is shown with its query values masked.';

/** GET /api/generations, GET /api/generations/:id, POST /api/generations/:id/cancel. */
export function registerGenerationsRoutes(app: FastifyInstance, registry: OpenApiRegistry, core: Core): void {
  const { generations } = core.video;
  const tags = ['generations'];
  const baseUrl = (host: string | undefined) => (host ? `http://${host}` : undefined);

  defineRoute(
    app,
    registry,
    {
      method: 'GET',
      url: '/api/generations',
      api: 'video',
      scope: 'generations:read',
      summary: 'List the organization’s generations, newest first',
      description: `Filters: status, template_id. limit defaults to ${LIMITS.generations.default}; above ${LIMITS.generations.max} it is clamped. ${STATES}`,
      tags,
      query: GenerationListQuerySchema,
      responses: {
        200: { description: 'A page of generations', schema: GenerationListSchema },
        400: { description: 'validation_error' },
      },
    },
    ({ query, auth, req }) => generations.list(auth.orgId, query, { baseUrl: baseUrl(req.headers.host) }),
  );

  defineRoute(
    app,
    registry,
    {
      method: 'GET',
      url: '/api/generations/:id',
      api: 'video',
      scope: 'generations:read',
      summary: 'Get a generation (status polling)',
      description: `Poll every typical latency / 6 seconds, clamped to 10-30 s. ${STATES}`,
      tags,
      params: GenerationIdParamsSchema,
      responses: {
        200: { description: 'The generation', schema: GenerationSchema },
        404: { description: 'not_found: no such generation in this organization' },
      },
    },
    ({ params, auth, req }) => generations.get(auth.orgId, params.id, { baseUrl: baseUrl(req.headers.host) }),
  );

  defineRoute(
    app,
    registry,
    {
      method: 'POST',
      url: '/api/generations/:id/cancel',
      api: 'video',
      scope: 'generations:write',
      summary: 'Cancel a generating generation and refund its credits',
      tags,
      params: GenerationIdParamsSchema,
      responses: {
        200: { description: 'The canceled generation (credits_refunded = credits_charged)', schema: GenerationSchema },
        404: { description: 'not_found' },
        409: { description: 'conflict: the generation is not generating (already completed, failed or canceled)' },
      },
    },
    ({ params, auth, req }) => generations.cancel(auth.orgId, params.id, { baseUrl: baseUrl(req.headers.host) }),
  );

  defineRoute(
    app,
    registry,
    {
      method: 'DELETE',
      url: '/api/generations/:id',
      api: 'video',
      scope: 'generations:write',
      summary: 'Delete a finished generation and its video and thumbnail files',
      tags,
      params: GenerationIdParamsSchema,
      responses: {
        204: { description: 'Deleted' },
        404: { description: 'not_found' },
        409: { description: 'conflict: still generating (cancel it first)' },
      },
    },
    async ({ params, auth, reply }) => {
      await generations.remove(auth.orgId, params.id);
      reply.status(204);
      return null;
    },
  );
}
