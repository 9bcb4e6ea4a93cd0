import crypto from 'node:crypto';
import { Transform } from 'node:stream';
import type { Multipart } from '@fastify/multipart';
import type { FastifyRequest } from 'fastify';
import { MAX_CAPTION_BYTES } from '../../../../shared/captions-format.js';
import { GenerateRequestSchema } from '../../../../shared/video-generations.schema.js';
import { AppError, badRequest } from '../../errors.js';
import { zodMessage } from '../../http/route.js';
import { requestHash, type GenerateInput } from './generate-input.js';
import type { IngestedMedia, MediaIngestPort } from '../uploads/media-port.js';
import type { MediaKind } from '../../../../shared/media-types.js';
import type { UsableTemplate } from '../templates/templates.service.js';

/**
 * multipart/form-data encoding of a generate request:
 * - `variables[KEY]`: a file part (image/video/audio variable) or a text field (text, URL, storage key);
 * - `character_variables[KEY]`: a character id;
 * - `variables`, `character_variables`: alternatively a JSON object in one field (a key may not come both ways);
 * - `webhook_url`, `num_videos`, `draft` (true/false), `deadline_sec`, `aspect_ratio`: text fields;
 * - `outputs`: a JSON array or a comma-separated list (`mp4,webm,gif`);
 * - `webhook_events`: a JSON array or a comma-separated list; `batch`: the rows as a JSON array (files in
 *   `variables[KEY]` are then shared by every row that gives no value of its own for KEY).
 * Files are stored while they stream in; anything else is a 400. Text fields are limited to 1 MB
 * (send large media as file parts).
 */
const BRACKET = /^(variables|character_variables)\[([^\]]{1,200})\]$/;

/**
 * What an error of the multipart parser means: the client's body is malformed (400) or has too many parts (413).
 * Messages are fixed text: the parser's own name the body's bytes at best.
 */
function multipartBodyError(err: unknown): AppError {
  if (err instanceof AppError) return err;
  const { code, message = '' } = err as { code?: string; message?: string };
  switch (code) {
    case 'FST_PARTS_LIMIT':
    case 'FST_FILES_LIMIT':
    case 'FST_FIELDS_LIMIT':
      return new AppError(413, 'payload_too_large', 'The multipart body has more parts than a generate request takes.');
    case 'FST_PROTO_VIOLATION':
      return badRequest('A multipart field name may not be a property of Object.prototype.');
    case 'FST_INVALID_JSON_FIELD_ERROR':
      return badRequest('A multipart field sent as application/json is not valid JSON.');
  }
  if (/boundary/i.test(message)) {
    return badRequest('multipart/form-data needs a boundary parameter in Content-Type (boundary=...).');
  }
  return badRequest(
    'The multipart/form-data body is malformed or ends before its closing boundary (does the body use the boundary given in Content-Type?).',
  );
}

/** The parts of the request body; an error of the parser is the client's malformed body, never a 500. */
async function* partsOf(req: FastifyRequest): AsyncGenerator<Multipart> {
  const parts = req.parts()[Symbol.asyncIterator]();
  try {
    for (;;) {
      let next: IteratorResult<Multipart>;
      try {
        next = await parts.next();
      } catch (err) {
        throw multipartBodyError(err);
      }
      if (next.done) return;
      yield next.value;
    }
  } finally {
    await parts.return?.();
  }
}

interface Collected {
  variables: Record<string, string>;
  character_variables: Record<string, string>;
  files: Record<string, IngestedMedia>;
  fileHashes: Record<string, { sha256: string; size: number }>;
  webhook_url?: string;
  num_videos?: string;
  draft?: string;
  deadline_sec?: string;
  webhook_events?: string;
  batch?: string;
  aspect_ratio?: string;
  outputs?: string;
}

/** Text fields beyond the variables, each given at most once. */
const OPTION_FIELDS = [
  'webhook_url',
  'num_videos',
  'draft',
  'deadline_sec',
  'webhook_events',
  'batch',
  'aspect_ratio',
  'outputs',
] as const;
type OptionField = (typeof OPTION_FIELDS)[number];
const isOptionField = (name: string): name is OptionField => (OPTION_FIELDS as readonly string[]).includes(name);

/** A JSON field (batch rows, webhook_events) as its value; left as text when it is not JSON, for zod to refuse. */
function jsonField(value: string): unknown {
  try {
    return JSON.parse(value);
  } catch {
    return value;
  }
}

/** The option fields as the JSON body would have them. */
function optionValues(c: Collected): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  if (c.webhook_url !== undefined) out.webhook_url = c.webhook_url;
  if (c.num_videos !== undefined) {
    out.num_videos = /^\d{1,3}$/.test(c.num_videos.trim()) ? Number(c.num_videos) : c.num_videos;
  }
  if (c.draft !== undefined) {
    const d = c.draft.trim().toLowerCase();
    out.draft = d === 'true' || d === '1' ? true : d === 'false' || d === '0' ? false : c.draft;
  }
  if (c.deadline_sec !== undefined) {
    out.deadline_sec = /^\d{1,7}$/.test(c.deadline_sec.trim()) ? Number(c.deadline_sec) : c.deadline_sec;
  }
  if (c.webhook_events !== undefined) {
    const text = c.webhook_events.trim();
    out.webhook_events = text.startsWith('[') ? jsonField(text) : text.split(',').map((e) => e.trim());
  }
  if (c.batch !== undefined) out.batch = jsonField(c.batch);
  if (c.aspect_ratio !== undefined) out.aspect_ratio = c.aspect_ratio.trim();
  if (c.outputs !== undefined) {
    const text = c.outputs.trim();
    out.outputs = text.startsWith('[') ? jsonField(text) : text.split(',').map((f) => f.trim());
  }
  return out;
}

function jsonObject(name: string, value: unknown): Record<string, string> {
  let parsed = value;
  if (typeof value === 'string') {
    try {
      parsed = JSON.parse(value);
    } catch {
      throw badRequest(`multipart field "${name}" must be a JSON object of strings`);
    }
  }
  if (
    !parsed ||
    typeof parsed !== 'object' ||
    Array.isArray(parsed) ||
    Object.values(parsed).some((v) => typeof v !== 'string')
  ) {
    throw badRequest(`multipart field "${name}" must be a JSON object of strings`);
  }
  return parsed as Record<string, string>;
}

function put(target: Record<string, string>, where: string, key: string, value: string): void {
  if (Object.hasOwn(target, key)) throw badRequest(`${where}.${key} is given more than once`);
  target[key] = value;
}

async function storeFile(
  part: {
    file: NodeJS.ReadableStream & { truncated?: boolean; resume(): unknown };
    mimetype: string;
    filename: string;
  },
  ctx: { orgId: string; kind: MediaKind; ingest: MediaIngestPort },
): Promise<{ media: IngestedMedia; sha256: string }> {
  const hash = crypto.createHash('sha256');
  const tee = new Transform({
    transform(chunk: Buffer, _enc, cb) {
      hash.update(chunk);
      cb(null, chunk);
    },
  });
  // The part's stream fails only when the body does (truncated, no closing boundary): the client's error.
  let bodyError: Error | undefined;
  part.file.on('error', (err: Error) => {
    bodyError = err;
    tee.destroy(err);
  });
  part.file.pipe(tee);
  let media: IngestedMedia;
  try {
    media = await ctx.ingest.ingestStream(ctx.orgId, ctx.kind, tee, part.mimetype, part.filename);
  } catch (err) {
    throw bodyError ? multipartBodyError(bodyError) : err;
  }
  if (part.file.truncated) {
    throw Object.assign(new AppError(413, 'payload_too_large', 'The file is larger than this request accepts.'), {
      media,
    });
  }
  return { media, sha256: hash.digest('hex') };
}

/** Reads a multipart generate request: validates field names against the template, stores files, hashes everything. */
export async function readGenerateMultipart(
  req: FastifyRequest,
  ctx: {
    orgId: string;
    template: UsableTemplate;
    ingest: MediaIngestPort;
    discard: (media: IngestedMedia[]) => Promise<void>;
  },
): Promise<{ input: GenerateInput; hash: string }> {
  const vars = new Map(ctx.template.definition.input_variables.map((v) => [v.key, v]));
  const c: Collected = { variables: {}, character_variables: {}, files: {}, fileHashes: {} };
  try {
    for await (const part of partsOf(req)) {
      const name = part.fieldname;
      const bracket = BRACKET.exec(name);
      if (part.type === 'file') {
        const key = bracket?.[1] === 'variables' ? bracket[2] : null;
        const v = key ? vars.get(key) : undefined;
        const reject = (message: string) => {
          part.file.resume();
          return badRequest(message);
        };
        if (!key) throw reject(`a file goes in a field named variables[KEY]; got a file in "${name}"`);
        if (!v)
          throw reject(
            `unknown variable "${key}" (this template's variables: ${[...vars.keys()].join(', ') || '(none)'})`,
          );
        if (v.type === 'text') throw reject(`variables.${key}: a text variable takes text, not a file`);
        if (v.type === 'captions') {
          // An .srt or .vtt file: its text is the value, checked like captions sent as text.
          const chunks: Buffer[] = [];
          let size = 0;
          for await (const chunk of part.file as AsyncIterable<Buffer>) {
            size += chunk.length;
            if (size > MAX_CAPTION_BYTES)
              throw reject(`variables.${key}: captions may be at most ${MAX_CAPTION_BYTES / 1024} KB`);
            chunks.push(chunk);
          }
          put(c.variables, 'variables', key, Buffer.concat(chunks).toString('utf8'));
          continue;
        }
        if (Object.hasOwn(c.files, key)) throw reject(`variables.${key} is given more than once`);
        if (part.filename === '') {
          part.file.resume(); // an empty file input of a browser form: treated as omitted
          continue;
        }
        try {
          const { media, sha256 } = await storeFile(part, {
            orgId: ctx.orgId,
            kind: v.type as MediaKind,
            ingest: ctx.ingest,
          });
          c.files[key] = media;
          c.fileHashes[key] = { sha256, size: media.size };
        } catch (err) {
          part.file.resume();
          const media = (err as { media?: IngestedMedia }).media;
          if (media) c.files[key] = media;
          if (err instanceof AppError && err.status < 500)
            throw new AppError(err.status, err.code, `variables.${key}: ${err.message}`);
          throw err;
        }
        continue;
      }
      if (part.valueTruncated)
        throw new AppError(
          413,
          'payload_too_large',
          `multipart field "${name}" is larger than 1 MB; send media as a file part`,
        );
      const value = part.value;
      if (name === 'variables' || name === 'character_variables') {
        const target = name === 'variables' ? c.variables : c.character_variables;
        for (const [k, v] of Object.entries(jsonObject(name, value))) put(target, name, k, v);
        continue;
      }
      if (typeof value !== 'string') throw badRequest(`multipart field "${name}" must be text`);
      if (bracket) put(bracket[1] === 'variables' ? c.variables : c.character_variables, bracket[1], bracket[2], value);
      else if (isOptionField(name)) {
        if (c[name] !== undefined) throw badRequest(`${name} is given more than once`);
        c[name] = value;
      } else {
        throw badRequest(
          `unknown multipart field "${name}": use variables[KEY], character_variables[KEY], variables, character_variables, ${OPTION_FIELDS.join(', ')}`,
        );
      }
    }
    const candidate = {
      variables: c.variables,
      character_variables: c.character_variables,
      ...optionValues(c),
    };
    const parsed = GenerateRequestSchema.safeParse(candidate);
    if (!parsed.success) throw badRequest(`Invalid body: ${zodMessage(parsed.error)}`);
    const hash = requestHash(ctx.template.id, 'multipart', { ...parsed.data, files: c.fileHashes });
    // In multipart the variables are fields of their own: none at all is an empty set, as it always was.
    return {
      input: { ...parsed.data, variables: parsed.data.variables ?? {}, variablesGiven: true, files: c.files },
      hash,
    };
  } catch (err) {
    await ctx.discard(Object.values(c.files));
    throw err;
  }
}
