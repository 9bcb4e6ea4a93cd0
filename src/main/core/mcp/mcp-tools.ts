// The MCP tools: each one is a call of the local HTTP API by its route-table name (callRoute of
// http/in-process-api.ts), with the route's own zod schemas as input and its answer parsed by its success schema.
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { RequestHandlerExtra } from '@modelcontextprotocol/sdk/shared/protocol.js';
import type { CallToolResult, ServerNotification, ServerRequest } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { CreateGenerationRequestSchema } from '../../../shared/create-generation.schema.js';
import { LoginRequestSchema, RefreshRequestSchema, type StorageState } from '../../../shared/login.schema.js';
import type { Scope } from '../../../shared/scopes.js';
import {
  GenerateRequestSchema,
  GenerationIdParamsSchema,
  TemplateIdParamsSchema,
  TemplateListQuerySchema,
  type Generation,
} from '../../../shared/video.schema.js';
import type { CoreEventBus } from '../events.js';
import type { Logger } from '../logger.js';
import { API_ROUTES, successSchema, type ApiRouteName } from '../../../shared/api/index.js';
import { ApiCallError, callRoute, type CoreApi } from '../http/in-process-api.js';
import type { McpFileAccess } from './mcp-files.js';
import { saveStorageState } from './mcp-state-file.js';
import { TOOL_ANNOTATIONS } from './mcp-annotations.js';
import { uploadLocalFile } from './mcp-upload.js';
import { waitForGeneration, WAIT_DEFAULT_SEC, WAIT_MAX_SEC } from './mcp-wait.js';

export interface McpToolDeps {
  api: CoreApi;
  /** The core's event bus, when the server runs in the core's process: wait_for_generation wakes on its events. */
  events?: CoreEventBus;
  log?: Logger;
  /**
   * Files of this machine (stdio only, see mcp-files.ts): login's and refresh_session's `path` and upload_file
   * exist only with it. Over HTTP a key never reaches the server's disk: uploads go through presign_upload.
   */
  files?: McpFileAccess;
  /** login takes inline `cred` too (config mcp.allowInlineCredentials); otherwise only a saved login's reference. */
  allowInlineCredentials?: boolean;
}

type Extra = RequestHandlerExtra<ServerRequest, ServerNotification>;
type SaveArgs = { path?: string; overwrite?: boolean };
/** The scope of POST /api/login and POST /api/refresh. */
const LOGIN_SCOPE: Scope = 'login:write';

const IdempotencyKey = z
  .string()
  .regex(/^[\x21-\x7e]{1,255}$/, 'idempotency_key must be 1-255 visible ASCII characters')
  .optional()
  .describe('Sent as the Idempotency-Key header: retrying with the same key and input never charges twice');

/** The login tool's input without inline credentials: a saved login's reference is required. */
const { cred: _inlineCred, credential: credentialRef, ...loginOptions } = LoginRequestSchema.shape;
const loginByReference = z.object({ credential: credentialRef.unwrap(), ...loginOptions }).passthrough();

/** login's and refresh_session's file arguments (stdio only). */
const saveArgs = (folder: string) => ({
  path: z
    .string()
    .min(1)
    .max(4096)
    .optional()
    .describe(
      `File to write the storageState JSON to (mode 0600) instead of returning it: relative to, or inside, ${folder}`,
    ),
  overwrite: z.boolean().default(false).describe('Replace the file at path when it exists (default: refuse)'),
});

/**
 * A tool's output schema: the success answer of the route it calls, from the route table (the structured content
 * is that answer as the API gave it). Re-wrapped as a plain object: MCP wants `type: object` at the top, where a
 * named schema (`.meta({ id })`) would render as a reference.
 */
const outputSchemas = new Map<ApiRouteName, z.ZodObject>();
/** Built once per route, not on every MCP request (each HTTP POST registers the tools afresh). */
const answerOf = (name: ApiRouteName): z.ZodObject => {
  let schema = outputSchemas.get(name);
  if (!schema) {
    schema = z.object((successSchema(API_ROUTES[name]) as z.ZodObject).shape);
    outputSchemas.set(name, schema);
  }
  return schema;
};

const ok = (text: string, data: object): CallToolResult => ({
  content: [{ type: 'text', text }],
  structuredContent: data as Record<string, unknown>,
});

/** A 4xx/5xx of the API becomes a tool error whose text starts with the API's code: `not_found: No template x`. */
function toolError(err: unknown, log: Logger | undefined, tool: string): CallToolResult {
  if (err instanceof ApiCallError) {
    return { isError: true, content: [{ type: 'text', text: `${err.code}: ${err.message} (HTTP ${err.status})` }] };
  }
  log?.error({ tool, err: { message: (err as Error).message, stack: (err as Error).stack } }, 'mcp tool failed');
  return {
    isError: true,
    content: [{ type: 'text', text: 'server_error: Unexpected error in the MCP tool. See the log file for details.' }],
  };
}

const progressText = (g: Generation) =>
  g.status === 'completed'
    ? `Generation ${g.id} completed; video_url: ${g.video_url ?? '(files removed by retention)'}`
    : g.status === 'generating'
      ? `Generation ${g.id} is generating (${g.progress}%${g.queue_position ? `, queue position ${g.queue_position}` : ''})`
      : `Generation ${g.id} ${g.status}${g.error ? `: ${g.error}` : ''}`;

/** Registers every tool on `server`; each handler answers API errors as MCP tool errors. */
export function registerMcpTools(server: McpServer, deps: McpToolDeps): void {
  /** registerTool with the tool's annotations (mcp-annotations.ts). */
  const register = ((name: string, config: Record<string, unknown>, cb: unknown) =>
    server.registerTool(
      name,
      { ...config, annotations: TOOL_ANNOTATIONS[name] },
      cb as never,
    )) as unknown as McpServer['registerTool'];
  const { api, log, files } = deps;
  const savable = files ? saveArgs(files.folder) : {};
  const saveHint = files
    ? ` With \`path\` (inside ${files.folder}), the state is written to that file (mode 0600, an existing file only ` +
      'with overwrite: true) instead, and only the path and cookie count are returned.'
    : '';
  /** A `path` that cannot be written is refused before the login runs, not after. */
  const checkSave = async (save: SaveArgs) => {
    if (!files || !save.path) return;
    files.requireScope(LOGIN_SCOPE, 'login'); // both routes' scope: a key that may not log in learns nothing here
    await files.fileToWrite(save.path, save.overwrite ?? false, 'INVALID_REQUEST');
  };
  /** The state as the answer, or (stdio, with `path`) written to a file of the MCP files folder. */
  const stateAnswer = async (
    state: StorageState,
    save: SaveArgs,
    said: { returned: string; saved: (file: string) => string },
    extra: Record<string, unknown>,
  ): Promise<CallToolResult> => {
    if (!files || !save.path) return ok(said.returned, state);
    const saved = await saveStorageState(files, save.path, state, save.overwrite ?? false);
    const counts = { cookie_count: state.cookies.length, origin_count: state.origins.length };
    return ok(said.saved(saved), { path: saved, ...counts, ...extra });
  };
  const safe =
    <A>(tool: string, run: (args: A, extra: Extra) => Promise<CallToolResult>) =>
    async (args: A, extra: Extra): Promise<CallToolResult> => {
      try {
        return await run(args, extra);
      } catch (err) {
        return toolError(err, log, tool);
      }
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

  const inline = deps.allowInlineCredentials === true;
  register(
    'login',
    {
      title: 'Log in to a website',
      description:
        'Logs in with a real browser (POST /api/login) and returns the Playwright storageState (cookies + localStorage) ' +
        `as structured content.${saveHint} Load it with browser.newContext({ storageState }). Name a saved login with ` +
        '`credential` (its label or id, see list_credentials): its secrets are typed by the server, never passed here.' +
        (inline ? ' Inline `cred` is accepted too (mcp.allowInlineCredentials).' : ''),
      inputSchema: (inline ? LoginRequestSchema : loginByReference).extend(savable),
    },
    safe('login', async ({ path: file, overwrite, ...body }: z.infer<typeof LoginRequestSchema> & SaveArgs) => {
      if (!inline && 'cred' in body)
        throw new ApiCallError(
          400,
          'INVALID_REQUEST',
          'This MCP server does not take inline credentials (cred): log in with credential, a saved login’s label ' +
            'or id (list_credentials). A person adds saved logins in the desktop app or with `credentials add`; the ' +
            'server setting mcp.allowInlineCredentials brings cred back.',
        );
      await checkSave({ path: file, overwrite });
      // A tool call waits for its answer: a background (202) login is the HTTP API's, not a tool's.
      const res = await callRoute(api, 'login', { body: { ...body, async: false } });
      const state = res.body;
      const session = { session_id: res.headers['x-session-id'] ?? '', cache: res.headers['x-session-cache'] };
      const summary = `${state.cookies.length} cookies, ${state.origins.length} origins (cache ${session.cache})`;
      return stateAnswer(
        state,
        { path: file, overwrite },
        {
          returned: `Logged in (session ${session.session_id}): ${summary}. The storageState is the structured content.`,
          saved: (saved) => `Logged in; storageState written to ${saved}: ${summary}.`,
        },
        session,
      );
    }),
  );

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
    'refresh_session',
    {
      title: 'Renew a login session with its saved login',
      description:
        'POST /api/refresh: returns the cached session of a saved login (credential), or of (site, username, ' +
        'loginMethod), when it still works, else logs in again with the saved login it was made with.' +
        saveHint,
      inputSchema: RefreshRequestSchema.extend(savable),
    },
    safe(
      'refresh_session',
      async ({ path: file, overwrite, ...body }: z.infer<typeof RefreshRequestSchema> & SaveArgs) => {
        await checkSave({ path: file, overwrite });
        const res = await callRoute(api, 'refresh', { body });
        const state = res.body;
        const session = {
          session_id: res.headers['x-session-id'] ?? '',
          refresh: res.headers['x-session-refresh'] ?? '',
        };
        const summary = `${session.refresh}: ${state.cookies.length} cookies, ${state.origins.length} origins`;
        return stateAnswer(
          state,
          { path: file, overwrite },
          {
            returned: `Session ${summary}. The storageState is the structured content.`,
            saved: (saved) => `Session ${summary}; storageState written to ${saved}.`,
          },
          session,
        );
      },
    ),
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
      title: 'Get a URL to upload a media file to',
      description:
        'POST /api/s3/presign-upload: a storage key (s3_key, for generate_video variables) and an upload_url to PUT the ' +
        'file bytes to from your side, with Content-Type equal to content_type. The URL expires and takes one file.',
      outputSchema: answerOf('presignUpload'),
      inputSchema: z.object({
        content_type: z.string().min(1).max(100).describe('MIME type of the file, e.g. image/png or video/mp4'),
        file_name: z.string().min(1).max(255).optional().describe('The file name, kept with the upload'),
      }),
    },
    safe('presign_upload', async ({ content_type: contentType, file_name: fileName }) => {
      const out = (await callRoute(api, 'presignUpload', { body: { kind: 'upload', contentType, fileName } })).body;
      return ok(`PUT the file (Content-Type ${out.content_type}) to upload_url; then use ${out.s3_key}.`, out);
    }),
  );

  if (files) {
    register(
      'upload_file',
      {
        title: 'Upload a local media file',
        description:
          `Uploads an image, video or audio file from ${files.folder} (the MCP files folder; a path relative to it or ` +
          'inside it) and returns its storage key (s3_key) for generate_video variables. The type is detected from the ' +
          'bytes (else the extension). Files elsewhere on this machine are refused.',
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
        'storage key (upload_file), an http(s) URL or a data URI. Follow up with wait_for_generation.',
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
      return ok(progressText(g), g);
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
      return ok(progressText(g), g);
    }),
  );
}
