import type { FeatureRoutes } from '../../http/route.js';
import type { VideoCore } from '../video.feature.js';
import { modelGeneration } from './create-generation.js';
import { generationFailure, idempotencyKeyOf, readGenerateBody } from './generate-request.js';

/** POST /api/templates/:id/generate (JSON or multipart/form-data) and POST /api/generations (Create Generation). */
export function generateRoutes(core: VideoCore) {
  const { templates, generate, ingest } = core.video;
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
        .generate({ orgId: auth.orgId, template, input, requestHash: hash, idempotencyKey })
        .catch((err: unknown) => {
          throw generationFailure(err, core.log, template.id);
        });
      if (result.replayed) reply.header('Idempotent-Replayed', 'true');
      reply.status(result.status);
      return result.body;
    },
    createGeneration: async ({ body, auth, req, reply }) => {
      const idempotencyKey = idempotencyKeyOf(req);
      const { template, input, hash } = modelGeneration(body);
      const result = await generate.generate({ orgId: auth.orgId, template, input, requestHash: hash, idempotencyKey });
      if (result.replayed) reply.header('Idempotent-Replayed', 'true');
      reply.status(result.status);
      return result.body;
    },
  } satisfies FeatureRoutes;
}
