// Reading a generate request: the Idempotency-Key header, and the body as JSON or multipart/form-data (media as
// file parts). The generate routes stay thin; this is what they parse by hand (the body is a raw one, since a
// multipart body cannot be parsed by the route table's JSON schema).
import type { FastifyReply, FastifyRequest } from 'fastify';
import { GenerateRequestSchema, IdempotencyKeySchema } from '../../../../shared/video-generations.schema.js';
import { AppError, badRequest } from '../../errors.js';
import { drainRequest } from '../../http/drain-request.js';
import type { Logger } from '../../logger.js';
import { toAppError } from '../../http/plugins/errors.js';
import { zodMessage } from '../../http/route.js';
import type { MediaIngestService } from '../uploads/media-ingest.service.js';
import { readGenerateMultipart } from './generate-multipart.js';
import { requestHash, type GenerateInput } from './generate-input.js';
import type { GenerateService } from './generate.service.js';
import type { TemplatesService, UsableTemplate } from '../templates/templates.service.js';

/** The Idempotency-Key header, checked with the route table's schema (IdempotencyKeySchema), or none. */
export function idempotencyKeyOf(req: FastifyRequest): string | undefined {
  const header = req.headers['idempotency-key'];
  const key = typeof header === 'string' ? header.trim() : undefined;
  const checked = key === undefined ? undefined : IdempotencyKeySchema.safeParse(key);
  if (checked && !checked.success) throw badRequest(`Idempotency-Key ${checked.error.issues[0].message}.`);
  return key;
}

export interface GenerateBodyDeps {
  orgId: string;
  templateId: string;
  templates: TemplatesService;
  ingest: MediaIngestService;
  generate: GenerateService;
}

/**
 * The template to generate from, the body (JSON, or multipart with file parts stored as uploads) and its hash for
 * idempotency. On an early refusal of a multipart upload (no such template included) the rest of the body is read
 * and dropped, so the client sees the answer.
 */
export async function readGenerateBody(
  req: FastifyRequest,
  reply: FastifyReply,
  deps: GenerateBodyDeps,
): Promise<{ template: UsableTemplate; input: GenerateInput; hash: string }> {
  try {
    const template = deps.templates.usable(deps.orgId, deps.templateId);
    if (req.isMultipart()) {
      const discard = (media: Parameters<GenerateService['discard']>[0]) => deps.generate.discard(media);
      return {
        template,
        ...(await readGenerateMultipart(req, { orgId: deps.orgId, template, ingest: deps.ingest, discard })),
      };
    }
    const type = String(req.headers['content-type'] ?? '');
    if (type && !/^application\/(.+\+)?json\b/i.test(type)) {
      throw new AppError(415, 'unsupported_media_type', 'Send application/json or multipart/form-data.');
    }
    const parsed = GenerateRequestSchema.safeParse(req.body);
    if (!parsed.success) throw badRequest(`Invalid body: ${zodMessage(parsed.error)}`);
    const input = { ...parsed.data, variables: parsed.data.variables ?? {}, variablesGiven: !!parsed.data.variables };
    return { template, input: { ...input, files: {} }, hash: requestHash(template.id, 'json', parsed.data) };
  } catch (err) {
    if (req.isMultipart() && !req.raw.complete) {
      req.raw.unpipe();
      await drainRequest(req.raw);
      reply.header('connection', 'close');
    }
    throw err;
  }
}

/**
 * An error of the generation itself: what the error mapping knows (a refusal, an unreachable secret store) keeps
 * its own status and code; anything else is logged and answered 500 generation_error (nothing was charged).
 */
export function generationFailure(err: unknown, log: Logger, templateId: string): AppError {
  const known = toAppError(err);
  if (known.code !== 'server_error') return known;
  log.error(
    { err: { message: (err as Error).message, stack: (err as Error).stack }, templateId },
    'generation failed unexpectedly',
  );
  return new AppError(
    500,
    'generation_error',
    'Unexpected error during generation; nothing was charged. See the log file for details.',
  );
}
