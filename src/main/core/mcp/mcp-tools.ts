// The MCP tools: each one is a call of the local HTTP API by its route-table name (callRoute of
// http/in-process-api.ts), with the route's own zod schemas as input and its answer parsed by its success schema.
// The session tools (login, wait_for_login, refresh_session) are in mcp-login-tools.ts.
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { CreateGenerationRequestSchema } from '../../../shared/create-generation.schema.js';
import { TemplateIdParamsSchema, TemplateListQuerySchema } from '../../../shared/video.schema.js';
import {
  GenerateRequestSchema,
  GenerationIdParamsSchema,
  IdempotencyKeySchema,
  type Generation,
} from '../../../shared/video-generations.schema.js';
import { API_ROUTES, successSchema, type ApiRouteName } from '../../../shared/api/index.js';
import { callRoute } from '../http/in-process-api.js';
import { registerLoginTools } from './mcp-login-tools.js';
import { registerProfileTools } from './mcp-profile-tools.js';
import { ok, toolKit, type McpToolDeps } from './mcp-tool-kit.js';
import { uploadLocalFile } from './mcp-upload.js';
import { waitForGeneration, WAIT_DEFAULT_SEC, WAIT_MAX_SEC } from './mcp-wait.js';

const IdempotencyKey = IdempotencyKeySchema.optional().describe(
  'Sent as the Idempotency-Key header: retrying with the same key and input never charges twice',
);

/**
 * A tool's output schema: the success answer of the route it calls, from the route table (the structured content
 * is that answer as the API gave it). Re-wrapped as a plain object: MCP wants `type: object` at the top, where a
 * named schema (`.meta({ id })`) would render as a reference.
 */
const outputSchemas = new Map<ApiRouteName, z.ZodObject>();
/** Built once per route, not on every MCP server (each HTTP session or one-shot POST registers the tools afresh). */
const answerOf = (name: ApiRouteName): z.ZodObject => {
  let schema = outputSchemas.get(name);
  if (!schema) {
    schema = z.object((successSchema(API_ROUTES[name]) as z.ZodObject).shape);
    outputSchemas.set(name, schema);
  }
  return schema;
};

const progressText = (g: Generation) =>
  g.status === 'completed'
    ? `Generation ${g.id} completed; video_url: ${g.video_url ?? '(files removed by retention)'}`
    : g.status === 'generating'
      ? `Generation ${g.id} is generating (${g.progress}%${g.queue_position ? `, queue position ${g.queue_position}` : ''})`
      : `Generation ${g.id} ${g.status}${g.error ? `: ${g.error}` : ''}`;

/** Registers every tool on `server`; each handler answers API errors as MCP tool errors. */
export function registerMcpTools(server: McpServer, deps: McpToolDeps): void {
  const kit = toolKit(server, deps.log, deps.scopes);
  const { register, safe } = kit;
  const { api, files } = deps;
  /** A result with links: with the note on how long they live, when they die with this process (stdio). */
  const withLinks = async (text: string, data: object, hasLinks = true) => {
    const note = hasLinks ? await deps.linkNote?.() : null;
    return ok(note ? `${text} ${note}` : text, data);
  };

  register(
    'list_credentials',
    {
      title: 'List saved logins',
      description:
        'The saved logins of the organization (GET /api/credentials): label, site, username, login method and which ' +
        'secrets each holds, never the secrets. Log in with login { credential: "<label>" }.',
      outputSchema: answerOf('listCredentials'),
      inputSchema: z.object({}),
    },
    safe('list_credentials', async () => {
      const list = (await callRoute(api, 'listCredentials')).body;
      const lines = list.data.map(
        (c) => `- ${c.label}: ${c.loginUrl} as ${c.username || '(no username)'} (${c.loginMethod})`,
      );
      return ok(`${list.data.length} saved logins.${lines.length ? `\n${lines.join('\n')}` : ''}`, list);
    }),
  );

  registerLoginTools(server, deps, kit);
  registerProfileTools(server, deps, kit);

  register(
    'list_sessions',
    {
      title: 'List cached login sessions',
      description: "The organization's cached login sessions (GET /api/sessions): metadata only, never cookie values.",
      outputSchema: answerOf('listSessions'),
      inputSchema: z.object({}),
    },
    safe('list_sessions', async () => {
      const list = (await callRoute(api, 'listSessions')).body;
      return ok(`${list.data.length} cached sessions.`, list);
    }),
  );

  register(
    'validate_session',
    {
      title: 'Check a cached login session on its site',
      description:
        'POST /api/sessions/:id/validate: opens the page the login landed on (or its checkUrl) with the cached session ' +
        'in a fresh browser context and reports whether it still works, with the evidence. A dead session is dropped ' +
        'from the cache unless credentials are stored for it (then refresh_session renews it).',
      outputSchema: answerOf('validateSession'),
      inputSchema: z.object({
        id: z.string().min(1).max(64).describe('Session id (list_sessions, or login’s session_id)'),
      }),
    },
    safe('validate_session', async ({ id }) => {
      const v = (await callRoute(api, 'validateSession', { params: { id } })).body;
      const verdict = v.valid ? 'works' : v.dropped ? 'is dead and was dropped' : 'is dead (kept: credentials stored)';
      return ok(`Session ${id} ${verdict} (checked ${v.checked_url}): ${v.evidence.join('; ')}.`, v);
    }),
  );

  register(
    'list_templates',
    {
      title: 'List video templates',
      description: 'Templates the key can use (GET /api/templates), with their input variables and price.',
      outputSchema: answerOf('listTemplates'),
      inputSchema: TemplateListQuerySchema,
    },
    safe('list_templates', async (query) => {
      const list = (await callRoute(api, 'listTemplates', { query })).body;
      const ids = list.data.map((t) => t.id).join(', ');
      return ok(
        `${list.data.length} templates${list.pagination.has_more ? ' (more: raise offset)' : ''}: ${ids}`,
        list,
      );
    }),
  );

  register(
    'get_template',
    {
      title: 'Get a video template',
      description: 'One template (GET /api/templates/:id): its variables tell generate_video what to send.',
      outputSchema: answerOf('getTemplate'),
      inputSchema: TemplateIdParamsSchema,
    },
    safe('get_template', async ({ id }) => {
      const t = (await callRoute(api, 'getTemplate', { params: { id } })).body;
      const vars = t.input_variables.map((v) => `${v.key} (${v.type}${v.required ? ', required' : ''})`).join(', ');
      return ok(`${t.id}: ${t.title}. Variables: ${vars || 'none'}.`, t);
    }),
  );

  register(
    'presign_upload',
    {
      title: 'Get a URL to upload a media or captions file to',
      description:
        'POST /api/s3/presign-upload: a storage key (s3_key, for generate_video variables) and an upload_url to PUT the ' +
        'file bytes to from your side, with Content-Type equal to content_type. The URL expires and takes one file.',
      outputSchema: answerOf('presignUpload'),
      inputSchema: z.object({
        content_type: z
          .string()
          .min(1)
          .max(100)
          .describe(
            'MIME type of the file, e.g. image/png, video/mp4, or text/vtt / application/x-subrip for captions',
          ),
        file_name: z.string().min(1).max(255).optional().describe('The file name, kept with the upload'),
      }),
    },
    safe('presign_upload', async ({ content_type: contentType, file_name: fileName }) => {
      const out = (await callRoute(api, 'presignUpload', { body: { kind: 'upload', contentType, fileName } })).body;
      return withLinks(`PUT the file (Content-Type ${out.content_type}) to upload_url; then use ${out.s3_key}.`, out);
    }),
  );

  if (files) {
    register(
      'upload_file',
      {
        title: 'Upload a local media or captions file',
        description:
          `Uploads an image, video, audio or captions (.srt, .vtt) file from ${files.folder} (the MCP files folder; a ` +
          'path relative to it or inside it) and returns its storage key (s3_key) for generate_video variables. The ' +
          'type is detected from the bytes (else the extension). Files elsewhere on this machine are refused.',
        inputSchema: z.object({
          path: z.string().min(1).max(4096).describe(`A regular file inside ${files.folder}, or a path relative to it`),
        }),
      },
      safe('upload_file', async ({ path: file }) => {
        const stored = await uploadLocalFile(api, files, file);
        return ok(`Uploaded ${stored.content_type}, ${stored.size} bytes: ${stored.s3_key}`, stored);
      }),
    );
  }

  register(
    'generate_video',
    {
      title: 'Generate videos from a template',
      description:
        'POST /api/templates/:id/generate: starts num_videos generations and charges credits. Media variables take a ' +
        'storage key (upload_file), an http(s) URL or a data URI; a captions variable SRT/WebVTT text or the storage ' +
        'key of a captions upload. Follow up with wait_for_generation.',
      outputSchema: answerOf('generate'),
      inputSchema: GenerateRequestSchema.extend({
        template_id: TemplateIdParamsSchema.shape.id.describe('Template id (list_templates)'),
        idempotency_key: IdempotencyKey,
      }),
    },
    safe('generate_video', async ({ template_id: id, idempotency_key: key, ...body }) => {
      const headers = key ? { 'idempotency-key': key } : undefined;
      const out = (await callRoute(api, 'generate', { params: { id }, body, headers })).body;
      const ids = out.generations.map((g) => g.generation_id).join(', ');
      return ok(`Started ${ids} (${out.credits_charged} credits charged).`, out);
    }),
  );

  register(
    'quote_video',
    {
      title: 'Quote a video generation',
      description:
        'POST /api/templates/:id/quote: what generate_video with the same arguments would charge (credits, per_video, ' +
        'renderer, balance_after). Charges nothing and keeps nothing; an invalid request gets the same error.',
      outputSchema: answerOf('quoteTemplate'),
      inputSchema: GenerateRequestSchema.extend({
        template_id: TemplateIdParamsSchema.shape.id.describe('Template id (list_templates)'),
      }),
    },
    safe('quote_video', async ({ template_id: id, ...body }) => {
      const out = (await callRoute(api, 'quoteTemplate', { params: { id }, body })).body;
      return ok(
        `${out.credits} credits (${out.num_videos} x ${out.per_video}) by ${out.renderer.label}; balance after: ${out.balance_after}.`,
        out,
      );
    }),
  );

  register(
    'create_generation',
    {
      title: 'Generate a video from a model and a prompt',
      description:
        'POST /api/generations (Create Generation): a model, a prompt and uploaded storage keys; charges credits. ' +
        'Follow up with wait_for_generation.',
      outputSchema: answerOf('createGeneration'),
      inputSchema: CreateGenerationRequestSchema.extend({ idempotency_key: IdempotencyKey }),
    },
    safe('create_generation', async ({ idempotency_key: key, ...body }) => {
      const headers = key ? { 'idempotency-key': key } : undefined;
      const out = (await callRoute(api, 'createGeneration', { body, headers })).body;
      const ids = out.generations.map((g) => g.generation_id).join(', ');
      return ok(`Started ${ids} (${out.credits_charged} credits charged).`, out);
    }),
  );

  register(
    'get_generation',
    {
      title: 'Get a generation',
      description: 'Status, progress and, once completed, a time-limited video_url (GET /api/generations/:id).',
      outputSchema: answerOf('getGeneration'),
      inputSchema: GenerationIdParamsSchema,
    },
    safe('get_generation', async ({ id }) => {
      const g = (await callRoute(api, 'getGeneration', { params: { id } })).body;
      return withLinks(progressText(g), g, !!g.video_url);
    }),
  );

  register(
    'wait_for_generation',
    {
      title: 'Wait for a generation to finish',
      description:
        `Waits until the generation is completed, failed or canceled, at most timeout_sec (default ${WAIT_DEFAULT_SEC}, ` +
        `max ${WAIT_MAX_SEC}), sending progress notifications when the request has a progressToken. Returns the ` +
        'generation; still generating at the deadline is a wait_timeout tool error (call it again).',
      outputSchema: answerOf('getGeneration'),
      inputSchema: GenerationIdParamsSchema.extend({
        timeout_sec: z.number().int().min(1).max(WAIT_MAX_SEC).default(WAIT_DEFAULT_SEC),
      }),
    },
    safe('wait_for_generation', async ({ id, timeout_sec: timeoutSec }, extra) => {
      const progressToken = extra._meta?.progressToken;
      const g = await waitForGeneration({
        api,
        events: deps.events,
        id,
        timeoutSec,
        signal: extra.signal,
        onProgress: async (gen) => {
          if (progressToken === undefined) return;
          await extra.sendNotification({
            method: 'notifications/progress',
            params: { progressToken, progress: gen.progress, total: 100, message: progressText(gen) },
          });
        },
      });
      return withLinks(progressText(g), g, !!g.video_url);
    }),
  );
  kit.finish();
}
