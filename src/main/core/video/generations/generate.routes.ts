import type { IncomingMessage } from 'node:http';
import type { FastifyInstance } from 'fastify';
import {
  GenerateRequestSchema,
  GenerateResponseSchema,
  MAX_VIDEOS_PER_REQUEST,
  TemplateIdParamsSchema,
} from '../../../../shared/video.schema.js';
import type { Core } from '../../create-core.js';
import { AppError, badRequest } from '../../errors.js';
import type { OpenApiRegistry } from '../../http/openapi.js';
import { toAppError } from '../../http/plugins/errors.js';
import { defineRoute, zodMessage } from '../../http/route.js';
import { readGenerateMultipart } from './generate-multipart.js';
import { CreateGenerationRequestSchema } from '../../../../shared/create-generation.schema.js';
import { modelGeneration } from './create-generation.js';
import { requestHash, type GenerateInput } from './generate.service.js';

/** JSON bodies may carry media as data URIs: larger than the default JSON limit. */
export const GENERATE_JSON_LIMIT_BYTES = 64 * 1024 * 1024;
const IDEMPOTENCY_KEY = /^[\x21-\x7e]{1,255}$/;

function idempotencyKeyOf(header: string | string[] | undefined): string | undefined {
  const key = typeof header === 'string' ? header.trim() : undefined;
  if (key !== undefined && !IDEMPOTENCY_KEY.test(key)) {
    throw badRequest('Idempotency-Key must be 1-255 visible ASCII characters.');
  }
  return key;
}

/** Reads and drops what is left of a rejected multipart body (bounded), so the client sees the error. */
function drain(req: IncomingMessage): Promise<void> {
  if (req.complete || req.destroyed) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(done, 10_000);
    function done() {
      clearTimeout(timer);
      req.off('end', done);
      req.off('close', done);
      resolve();
    }
    req.once('end', done);
    req.once('close', done);
    req.resume();
  });
}

/** POST /api/templates/:id/generate (JSON or multipart/form-data) and POST /api/generations (Create Generation). */
export function registerGenerateRoutes(app: FastifyInstance, registry: OpenApiRegistry, core: Core): void {
  const { templates, generate, ingest } = core.video;

  defineRoute(
    app,
    registry,
    {
      method: 'POST',
      url: '/api/templates/:id/generate',
      api: 'video',
      scope: 'templates:read',
      rawBody: true,
      bodyLimit: GENERATE_JSON_LIMIT_BYTES,
      contentTypes: ['application/json', 'multipart/form-data'],
      summary: 'Generate videos from a template (charges credits)',
      description:
        'Rules: an omitted (or empty) text variable takes its default_value; a required variable with neither value nor default is a 400 ' +
        'naming it; text is checked against min_length/max_length (10000 when unset); unknown variable keys are a 400. ' +
        'Image variables take character_variables[key], then variables[key], then default_value; character_variables only on ' +
        'ingredients-to-video templates, and only characters the key’s organization can see (public or its own). Media values: ' +
        'an http(s) URL (downloaded and re-hosted), a base64 data URI (stored), a storage key of an upload, or in multipart a file ' +
        'part in `variables[KEY]`. multipart fields: `variables[KEY]` (file or text), `character_variables[KEY]`, `webhook_url`, ' +
        '`num_videos`, or JSON objects in the fields `variables` / `character_variables`. ' +
        `num_videos (1-${MAX_VIDEOS_PER_REQUEST}, default 1) generations are created and num_videos x credits_per_video credits are charged ` +
        'atomically. Idempotency-Key header (1-255 visible ASCII characters): the same key and body within 24 h replay the first ' +
        'answer (header Idempotent-Replayed: true) without charging again; the same key with another body is a 409 idempotency_conflict; ' +
        'while the first request runs, 409 idempotency_in_progress. Failed requests do not keep the key. JSON bodies up to 64 MB.',
      tags: ['generate'],
      params: TemplateIdParamsSchema,
      body: GenerateRequestSchema,
      responses: {
        200: {
          description: 'Generations created, credits charged',
          schema: GenerateResponseSchema,
          headers: { 'Idempotent-Replayed': 'true on a replayed answer' },
        },
        400: {
          description: 'validation_error (missing required variables, unknown keys, bad media...) or pricing_error',
        },
        402: { description: 'insufficient_credits' },
        404: { description: 'not_found: no such template' },
        409: { description: 'idempotency_conflict or idempotency_in_progress' },
        413: { description: 'payload_too_large: a file over its kind’s limit' },
        415: { description: 'unsupported_media_type: send application/json or multipart/form-data' },
        422: { description: 'invalid_template: the stored template configuration is invalid' },
        500: { description: 'generation_error' },
        503: { description: 'secrets_unavailable: a webhook_url is kept sealed and the secret store is not reachable' },
      },
    },
    async ({ params, auth, req, reply }) => {
      const idempotencyKey = idempotencyKeyOf(req.headers['idempotency-key']);
      let input: GenerateInput;
      let hash: string;
      let template;
      try {
        template = templates.usable(auth.orgId, params.id);
        if (req.isMultipart()) {
          const discard = (media: Parameters<typeof generate.discard>[0]) => generate.discard(media);
          ({ input, hash } = await readGenerateMultipart(req, { orgId: auth.orgId, template, ingest, discard }));
        } else {
          const type = String(req.headers['content-type'] ?? '');
          if (type && !/^application\/(.+\+)?json\b/i.test(type)) {
            throw new AppError(415, 'unsupported_media_type', 'Send application/json or multipart/form-data.');
          }
          const parsed = GenerateRequestSchema.safeParse(req.body);
          if (!parsed.success) throw badRequest(`Invalid body: ${zodMessage(parsed.error)}`);
          input = { ...parsed.data, files: {} };
          hash = requestHash(template.id, 'json', parsed.data);
        }
      } catch (err) {
        // An early answer to a multipart upload: read (and drop) the rest so the client sees it.
        if (req.isMultipart() && !req.raw.complete) {
          req.raw.unpipe();
          await drain(req.raw);
          reply.header('connection', 'close');
        }
        throw err;
      }
      let result;
      try {
        result = await generate.generate({ orgId: auth.orgId, template, input, requestHash: hash, idempotencyKey });
      } catch (err) {
        // What the error mapping knows (a refusal, an unreachable secret store) keeps its own status and code.
        const known = toAppError(err);
        if (known.code !== 'server_error') throw known;
        core.log.error(
          { err: { message: (err as Error).message, stack: (err as Error).stack }, templateId: template.id },
          'generation failed unexpectedly',
        );
        throw new AppError(
          500,
          'generation_error',
          'Unexpected error during generation; nothing was charged. See the log file for details.',
        );
      }
      if (result.replayed) reply.header('Idempotent-Replayed', 'true');
      reply.status(result.status);
      return result.body;
    },
  );

  defineRoute(
    app,
    registry,
    {
      method: 'POST',
      url: '/api/generations',
      api: 'video',
      scope: 'generations:write',
      summary: 'Create Generation: a video from a model, a prompt and uploaded keys (charges credits)',
      description:
        'The model-based counterpart of template generate: priced per modelName (GET /api/pricing) at `resolution` and ' +
        '`duration_sec` (the model’s defaults when absent); every key must be a completed upload of this organization of the ' +
        'right kind. Runs through the same pipeline; the generations’ template_id is `model:<modelName>`. Idempotency-Key as ' +
        'for generate.',
      tags: ['generate'],
      body: CreateGenerationRequestSchema,
      responses: {
        200: { description: 'Accepted and charged', schema: GenerateResponseSchema },
        400: {
          description:
            'validation_error (bad body, a key that is not this org’s upload of the right kind) or pricing_error',
        },
        402: { description: 'insufficient_credits' },
        409: { description: 'idempotency_conflict or idempotency_in_progress' },
      },
    },
    async ({ body, auth, req, reply }) => {
      const idempotencyKey = idempotencyKeyOf(req.headers['idempotency-key']);
      const { template, input, hash } = modelGeneration(body);
      const result = await generate.generate({ orgId: auth.orgId, template, input, requestHash: hash, idempotencyKey });
      if (result.replayed) reply.header('Idempotent-Replayed', 'true');
      reply.status(result.status);
      return result.body;
    },
  );
}
