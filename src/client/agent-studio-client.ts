// The typed client of both local APIs. Runs wherever `fetch` does (Node 18+, Deno, Bun, browsers): it
// imports only src/shared and zod. Every call is a route of the route table (src/shared/api), by name:
// request bodies and queries are its schemas' input types (the server parses and applies defaults), and
// answers are parsed with its success schema, so a server that changed its answer fails loudly here (code
// `invalid_response`) instead of handing back a wrong shape.
import type { z } from 'zod';
import type { StoredUpload } from '../shared/uploads.schema.js';
import type { Generation } from '../shared/video-generations.schema.js';
import { AgentStudioError, CLIENT_ERROR_CODES, errorFromResponse } from './agent-studio-error.js';
import {
  API_ROUTES,
  routeUrl,
  successSchema,
  successStatus,
  type ApiRoute,
  type ApiRouteName,
  type ApiRoutes,
  type RouteCallInput,
  type SuccessBody,
} from '../shared/api/index.js';
import { LoginAcceptedSchema, type LoginAccepted } from '../shared/login.schema.js';
import { StoredUploadSchema } from '../shared/uploads.schema.js';
import { abortError, sleep } from './client-wait.js';
import { waitForLoginRun, type LoginWaitOptions } from './login-wait.js';

export const DEFAULT_BASE_URL = 'http://127.0.0.1:4780';

/** What a route takes, by its name in the route table: its body's or its query's input type. */
type BodyOf<N extends ApiRouteName> = RouteCallInput<ApiRoutes[N]>['body'];
type QueryOf<N extends ApiRouteName> = RouteCallInput<ApiRoutes[N]>['query'];

export type LoginInput = BodyOf<'login'>;
export type SignupInput = BodyOf<'signup'>;
export type InboxInput = BodyOf<'deliverToInbox'>;
export type RefreshInput = BodyOf<'refresh'>;
export type TemplateListQuery = QueryOf<'listTemplates'>;
export type TemplateWriteInput = BodyOf<'createTemplate'>;
export type TemplatePatchInput = BodyOf<'updateTemplate'>;
export type GenerateInput = BodyOf<'generate'>;
export type CreateGenerationInput = BodyOf<'createGeneration'>;
/** One row of a batch generate: one video. */
export type GenerateBatchRowInput = NonNullable<GenerateInput['batch']>[number];
export type GenerationListQuery = QueryOf<'listGenerations'>;
export type CharacterListQuery = QueryOf<'listCharacters'>;
export type CharacterCreateInput = BodyOf<'createCharacter'>;
export type CharacterPatchInput = BodyOf<'updateCharacter'>;
export type UploadListQuery = QueryOf<'listUploads'>;
export interface PresignInput {
  /** MIME type of the file (image/png, video/mp4, audio/mpeg…; docs/video-service.md#uploads lists them). */
  contentType: string;
  /** Original file name; bookkeeping only. */
  fileName?: string;
}
/** File bytes: a Blob/File, an ArrayBuffer, or a typed array (a Node Buffer is one). */
export type UploadData = Blob | ArrayBuffer | ArrayBufferView;

export interface AgentStudioClientOptions {
  /** Default http://127.0.0.1:4780 (the app's default port). */
  baseUrl?: string;
  /** An API key (`pk_…`); sent as `Authorization: Bearer`, only to baseUrl. */
  apiKey: string;
  /** Another fetch (a proxy-aware one, a test double of the network). Default: the global fetch. */
  fetch?: typeof globalThis.fetch;
}

export interface WaitForOptions {
  /** Give up after this long (default 10 minutes) with AgentStudioError code `wait_timeout`. */
  timeoutMs?: number;
  /** Pause between polls (default 2000 ms). */
  intervalMs?: number;
  /** Called with the generation whenever its status, progress or queue position changed (and first). */
  onProgress?: (generation: Generation) => void;
  signal?: AbortSignal;
}

/** What a route answers on success (void for a 204), by its name in the route table. */
type ResponseOf<N extends ApiRouteName> = SuccessBody<ApiRoutes[N]>;

interface CallOptions {
  id?: string;
  query?: object;
  body?: unknown;
  idempotencyKey?: string;
  headers?: Record<string, string>;
  /** Another success answer of the route than its first (POST /api/login's 202 of an async login). */
  answer?: { status: number; schema: z.ZodType };
  /** Aborts the request (a long poll the caller stopped waiting for): AgentStudioError code `aborted`. */
  signal?: AbortSignal;
}

export function createAgentStudioClient(options: AgentStudioClientOptions) {
  const baseUrl = (options.baseUrl ?? DEFAULT_BASE_URL).replace(/\/+$/, '');
  const doFetch = options.fetch ?? globalThis.fetch.bind(globalThis);
  if (!options.apiKey) throw new TypeError('createAgentStudioClient: apiKey is required');

  /** fetch that turns a failed connection into an AgentStudioError naming `what` (never a signed URL). */
  async function send(url: string, init: RequestInit, what: string): Promise<Response> {
    try {
      return await doFetch(url, init);
    } catch (err) {
      if (init.signal?.aborted) throw abortError();
      throw new AgentStudioError({
        status: 0,
        code: CLIENT_ERROR_CODES.network,
        message: `${what}: could not reach Agent Studio (${(err as Error).message})`,
      });
    }
  }

  async function call<N extends ApiRouteName>(name: N, opts: CallOptions = {}): Promise<ResponseOf<N>> {
    const route: ApiRoute = API_ROUTES[name];
    const status = opts.answer?.status ?? successStatus(route);
    const schema = opts.answer?.schema ?? successSchema(route);
    // One path parameter per route (:id, or :key for a storage key, whose slashes are encoded too).
    const param = /:(\w+)/.exec(route.path)?.[1];
    const url = routeUrl(route, { params: param ? { [param]: opts.id ?? '' } : {}, query: opts.query });
    const path = url.split('?')[0];
    const what = `${route.method} ${path}`;
    const headers: Record<string, string> = {
      ...opts.headers,
      authorization: `Bearer ${options.apiKey}`,
      accept: 'application/json',
    };
    if (opts.body !== undefined) headers['content-type'] = 'application/json';
    if (opts.idempotencyKey) headers['idempotency-key'] = opts.idempotencyKey;
    const res = await send(
      baseUrl + url,
      {
        method: route.method,
        headers,
        body: opts.body === undefined ? undefined : JSON.stringify(opts.body),
        signal: opts.signal,
      },
      what,
    );
    if (res.status !== status) {
      if (res.ok) await res.body?.cancel();
      throw res.ok
        ? new AgentStudioError({
            status: res.status,
            code: CLIENT_ERROR_CODES.invalidResponse,
            message: `${what} answered ${res.status}; the client expects ${status}`,
          })
        : await errorFromResponse(res, what);
    }
    if (!schema) {
      await res.body?.cancel();
      return undefined as ResponseOf<N>;
    }
    return parseAnswer(schema, await res.json().catch(() => undefined), res.status, what) as ResponseOf<N>;
  }

  function parseAnswer<S extends z.ZodType>(schema: S, json: unknown, status: number, what: string): z.infer<S> {
    const parsed = schema.safeParse(json);
    if (parsed.success) return parsed.data;
    const issues = parsed.error.issues
      .slice(0, 5)
      .map((i) => `${i.path.join('.') || 'body'}: ${i.message}`)
      .join('; ');
    throw new AgentStudioError({
      status,
      code: CLIENT_ERROR_CODES.invalidResponse,
      message: `The answer to ${what} does not match this client's schema (is the client older than the server?): ${issues}`,
    });
  }

  const generations = {
    list: (query?: GenerationListQuery) => call('listGenerations', { query }),
    get: (id: string) => call('getGeneration', { id }),
    cancel: (id: string) => call('cancelGeneration', { id }),
    delete: (id: string) => call('deleteGeneration', { id }),
    /** The generations of one batch (GET /api/generations?batch_id=), newest first. */
    listBatch: (batchId: string, query: Omit<GenerationListQuery, 'batch_id'> = {}) =>
      call('listGenerations', { query: { ...query, batch_id: batchId } }),
    /** POST /api/batches/:id/cancel: cancels (and refunds) every still-generating generation of the batch. */
    cancelBatch: (batchId: string) => call('cancelBatch', { id: batchId }),
    /**
     * Polls until the generation is no longer `generating` and returns it (completed, failed or
     * canceled: check `status`).
     */
    async waitFor(id: string, opts: WaitForOptions = {}): Promise<Generation> {
      const { timeoutMs = 10 * 60_000, intervalMs = 2000, onProgress, signal } = opts;
      const deadline = Date.now() + timeoutMs;
      let seen = '';
      for (;;) {
        if (signal?.aborted) throw abortError();
        const generation = await generations.get(id);
        const mark = `${generation.status}/${generation.progress}/${generation.queue_position}`;
        if (mark !== seen) {
          seen = mark;
          onProgress?.(generation);
        }
        if (generation.status !== 'generating') return generation;
        if (Date.now() + intervalMs > deadline) {
          throw new AgentStudioError({
            status: 0,
            code: CLIENT_ERROR_CODES.waitTimeout,
            message: `Generation ${id} is still generating after ${timeoutMs} ms (progress ${generation.progress}%)`,
            details: { generation },
          });
        }
        await sleep(intervalMs, signal);
      }
    },
  };

  const uploads = {
    presign: (body: PresignInput) => call('presignUpload', { body: { kind: 'upload', ...body } }),
    /** GET /api/uploads: the organization's stored files, newest first, with time-limited download URLs. */
    list: (query?: UploadListQuery) => call('listUploads', { query }),
    /** DELETE /api/uploads/:key: 409 `upload_in_use` while a character or a running generation uses it. */
    delete: (storageKey: string) => call('deleteUpload', { id: storageKey }),
    /**
     * Presigns, then PUTs the bytes to the presigned URL (no API key: the URL's signature is the
     * authorization, and with S3 storage it is S3's URL). Returns the storage key to use in generate
     * (`variables`), createGeneration (`startFrameKey`…) or characters.create.
     */
    async upload(data: UploadData, contentType: string, opts: { fileName?: string } = {}): Promise<StoredUpload> {
      const presigned = await uploads.presign({ contentType, fileName: opts.fileName });
      const what = `PUT of upload ${presigned.s3_key}`;
      // Typed arrays over a SharedArrayBuffer are not BodyInit in lib.dom; fetch sends any view alike.
      const res = await send(
        presigned.upload_url,
        { method: 'PUT', headers: { 'content-type': presigned.content_type }, body: data as BodyInit },
        what,
      );
      if (!res.ok) throw await errorFromResponse(res, what);
      if (/^application\/json\b/i.test(res.headers.get('content-type') ?? '')) {
        return parseAnswer(StoredUploadSchema, await res.json(), res.status, what);
      }
      // S3 answers an empty 200: what was sent is what was stored (checked by the server on first use).
      await res.body?.cancel();
      const size = data instanceof Blob ? data.size : data.byteLength;
      return { s3_key: presigned.s3_key, size, content_type: presigned.content_type };
    },
  };

  return {
    baseUrl,
    /**
     * POST /api/login: logs in with a real browser and returns Playwright storageState. Name a saved login,
     * `login({ credential: 'GitHub' })`, and the server types its secrets (only on its origins): your code
     * never holds them. Inline `cred` + `domain` is the fallback for scripts that already hold their secrets.
     */
    login: (body: LoginInput) => call('login', { body }),
    /**
     * POST /api/signup: creates an account on the site's sign-up page (email verification included) and
     * returns the new account's Playwright storageState. 409 USER_EXISTS when the site says it exists.
     */
    signup: (body: SignupInput) => call('signup', { body }),
    /**
     * POST /api/login/inbox: hands an email or SMS (e.g. from your SMS forwarder) to this
     * organization's logins waiting for a code or sign-in link addressed to `to`.
     */
    deliverToInbox: (body: InboxInput) => call('deliverToInbox', { body }),
    /**
     * POST /api/login in the background (202): `{ login_id, status_url }` at once. Follow it with
     * waitForLogin; with `interactive: true` a login that needs a person waits on its takeover_url.
     */
    startLogin: (body: LoginInput, opts: { loginId?: string } = {}) =>
      call('login', {
        body: { ...body, async: true },
        headers: opts.loginId ? { 'x-login-id': opts.loginId } : undefined,
        answer: { status: 202, schema: LoginAcceptedSchema },
      }) as unknown as Promise<LoginAccepted>,
    /**
     * Waits on GET /api/login/:loginId?wait= (a long poll: answered when the login changes) until the login ended;
     * `onNeedsPerson` is called once per takeover_url (show it to your person, or answer a code with typeLoginCode).
     * Resolves with the run and, for an async login that succeeded, its storageState (taken once).
     */
    waitForLogin: (loginId: string, opts: LoginWaitOptions = {}) =>
      waitForLoginRun(
        {
          status: (id, wait) => call('loginStatus', { id, query: { wait: wait.seconds }, signal: wait.signal }),
          state: (id) => call('loginState', { id }),
        },
        loginId,
        opts,
      ),
    /**
     * POST /api/login/:loginId/code: types a one-time code into a login that waits for a person at its second
     * factor (status needs_person, reason mfa_required). 409 NO_CODE_FIELD when its page shows none.
     */
    typeLoginCode: (loginId: string, code: string) => call('typeLoginCode', { id: loginId, body: { code } }),
    /** POST /api/login/:loginId/cancel: cancels a running login started with the header X-Login-Id. */
    cancelLogin: (loginId: string) => call('cancelLogin', { id: loginId }),
    /**
     * GET /api/login/:loginId: where a login with an id stands (running, needs_person with its takeover_url,
     * succeeded, failed, cancelled). `loginState`: an async login's storageState, once.
     */
    loginStatus: (loginId: string) => call('loginStatus', { id: loginId }),
    loginState: (loginId: string) => call('loginState', { id: loginId }),
    /** GET /api/login/methods: the login methods this server serves and the fields each needs. */
    loginMethods: () => call('loginMethods'),
    /**
     * POST /api/refresh: the cached session when it still works, else a fresh login with the saved login it
     * was made with (`refresh({ credential: 'GitHub' })`; 409 `NO_STORED_CREDENTIALS` when it has none).
     */
    refresh: (body: RefreshInput) => call('refresh', { body }),
    /** Saved logins (metadata only: their secrets are never returned). */
    credentials: {
      list: () => call('listCredentials'),
      /** By id (cred_…) or label. */
      get: (idOrLabel: string) => call('getCredential', { id: idOrLabel }),
      /** Which key used it, when, from which endpoint, with what outcome (newest first). */
      uses: (idOrLabel: string) => call('credentialUses', { id: idOrLabel }),
    },
    sessions: {
      list: () => call('listSessions'),
      delete: (id: string) => call('deleteSession', { id }),
      /** POST /api/sessions/:id/validate: opens the site with the session; a dead one is dropped. */
      validate: (id: string) => call('validateSession', { id }),
    },

    templates: {
      list: (query?: TemplateListQuery) => call('listTemplates', { query }),
      get: (id: string) => call('getTemplate', { id }),
      create: (body: TemplateWriteInput) => call('createTemplate', { body }),
      /** PATCH: fields not sent keep their value. */
      update: (id: string, body: TemplatePatchInput) => call('updateTemplate', { id, body }),
      /** PUT: replaces the whole template. */
      replace: (id: string, body: TemplateWriteInput) => call('replaceTemplate', { id, body }),
      delete: (id: string) => call('deleteTemplate', { id }),
    },
    pricing: () => call('pricing'),
    /** POST /api/templates/:id/generate (JSON). Charges credits; an idempotency key makes a retry safe. */
    generate: (templateId: string, body: GenerateInput, opts: { idempotencyKey?: string } = {}) =>
      call('generate', { id: templateId, body, idempotencyKey: opts.idempotencyKey }),
    /** POST /api/templates/:id/quote: what generate with this body would charge; nothing is charged or kept. */
    quote: (templateId: string, body: GenerateInput) => call('quoteTemplate', { id: templateId, body }),
    /** POST /api/generations/quote: what createGeneration with this body would charge. */
    quoteGeneration: (body: CreateGenerationInput) => call('quoteGeneration', { body }),
    /**
     * A batch: one video per row (up to 100), charged once; `shared` holds what every row has in common
     * (variables, webhook_url, draft...). The answer's batch_id lists (generations.listBatch) and cancels them.
     */
    generateBatch: (
      templateId: string,
      rows: GenerateBatchRowInput[],
      shared: Omit<GenerateInput, 'batch'> = {},
      opts: { idempotencyKey?: string } = {},
    ) => call('generate', { id: templateId, body: { ...shared, batch: rows }, idempotencyKey: opts.idempotencyKey }),
    /** POST /api/generations: a video from a model, a prompt and uploaded storage keys. */
    createGeneration: (body: CreateGenerationInput, opts: { idempotencyKey?: string } = {}) =>
      call('createGeneration', { body, idempotencyKey: opts.idempotencyKey }),
    generations,
    uploads,
    characters: {
      list: (query?: CharacterListQuery) => call('listCharacters', { query }),
      create: (body: CharacterCreateInput) => call('createCharacter', { body }),
      /** PATCH: fields not sent keep their value; reference_image_keys replaces the list. */
      update: (id: string, body: CharacterPatchInput) => call('updateCharacter', { id, body }),
      delete: (id: string) => call('deleteCharacter', { id }),
    },
    credits: () => call('credits'),
    webhooks: {
      secret: () => call('webhookSecret'),
      rotate: () => call('rotateWebhookSecret'),
      deliveries: (generationId: string) => call('webhookDeliveries', { id: generationId }),
      replay: (generationId: string) => call('replayWebhook', { id: generationId }),
      /** The organization's login webhook: login.needs_person and login.finished, signed with the same secret. */
      login: {
        get: () => call('loginWebhook'),
        set: (url: string) => call('setLoginWebhook', { body: { url } }),
        remove: () => call('deleteLoginWebhook'),
        deliveries: (query?: { limit?: number }) => call('loginWebhookDeliveries', { query }),
      },
    },
  };
}

export type AgentStudioClient = ReturnType<typeof createAgentStudioClient>;
