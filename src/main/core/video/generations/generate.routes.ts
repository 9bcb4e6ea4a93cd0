import type { FeatureRoutes } from '../../http/route.js';
import type { Logger } from '../../logger.js';
import type { MediaIngestService } from '../uploads/media-ingest.service.js';
import type { TemplatesService } from '../templates/templates.service.js';
import type { GenerateService } from './generate.service.js';
import { modelGeneration } from './create-generation.js';
import { generationFailure, idempotencyKeyOf, readGenerateBody } from './generate-request.js';

/**
 * POST /api/templates/:id/generate (JSON or multipart/form-data), POST /api/generations (Create Generation) and
 * their quotes (the same bodies, nothing charged or kept).
 */
export function generateRoutes(
  {
    templates,
    generate,
    ingest,
  }: { templates: TemplatesService; generate: GenerateService; ingest: MediaIngestService },
  log: Logger,
) {
  return {
    generate: async ({ params, auth, req, reply }) => {
      const idempotencyKey = idempotencyKeyOf(req);
      const { template, input, hash } = await readGenerateBody(req, reply, {
        orgId: auth.orgId,
        templateId: params.id,
        templates,
        ingest,
        generate,
      });
      const result = await generate
        .generate({ orgId: auth.orgId, template, input, requestHash: hash, idempotencyKey, keyId: auth.keyId })
        .catch((err: unknown) => {
          throw generationFailure(err, log, template.id);
        });
      if (result.replayed) reply.header('Idempotent-Replayed', 'true');
      reply.status(result.status);
      return result.body;
    },
    createGeneration: async ({ body, auth, req, reply }) => {
      const idempotencyKey = idempotencyKeyOf(req);
      const { template, input, hash } = modelGeneration(body);
      const result = await generate.generate({
        orgId: auth.orgId,
        template,
        input,
        requestHash: hash,
        idempotencyKey,
        keyId: auth.keyId,
      });
      if (result.replayed) reply.header('Idempotent-Replayed', 'true');
      reply.status(result.status);
      return result.body;
    },
    quoteTemplate: async ({ params, auth, req, reply }) => {
      const { template, input } = await readGenerateBody(req, reply, {
        orgId: auth.orgId,
        templateId: params.id,
        templates,
        ingest,
        generate,
      });
      // A quote keeps nothing: multipart files were stored while they streamed in, and go now.
      try {
        return generate.quote({ orgId: auth.orgId, template, input });
      } finally {
        await generate.discard(Object.values(input.files));
      }
    },
    quoteGeneration: ({ body, auth }) => {
      const { template, input } = modelGeneration(body);
      return generate.quote({ orgId: auth.orgId, template, input });
    },
  } satisfies FeatureRoutes;
}
