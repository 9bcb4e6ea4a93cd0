// The one contract between the renderer and the main process. IPC_CONTRACT names every channel the
// preload offers: most stand for one route of the core's HTTP API (method, path and the shared zod
// schemas of its params, query, body and answer), so the desktop UI gets exactly what agents get;
// a few are answered by the main process itself. IPC_EVENTS names what main pushes to the window.
// Pure data + zod: main (src/main/core/desktop), the preload, the renderer and the e2e test bridge
// all read this table; nothing else lists channels.
import { z } from 'zod';
import { CreditsSchema } from './credits.schema.js';
import {
  AppInfoSchema,
  LoginAnswerHeadersSchema,
  PickedFileSchema,
  PickedFileToken,
  type PickedFile,
  UPLOAD_KINDS,
  UploadedFileSchema,
  type UploadedFile,
} from './desktop.schema.js';
import type { IpcResult } from './errors.js';
import { RESULTS_CHANNELS, LoginRequestHeadersSchema } from './ipc-results-channels.js';
import { SETTINGS_CHANNELS } from './ipc-settings-channels.js';
import { LoginRequestSchema, SessionIdParamsSchema, SessionListSchema, StorageStateSchema } from './login.schema.js';
import type { Scope } from './scopes.js';
import {
  PresignedUploadSchema,
  StoredUploadSchema,
  type PresignedUpload,
  type StoredUpload,
} from './uploads.schema.js';
import {
  CharacterCreateSchema,
  CharacterListQuerySchema,
  CharacterListSchema,
  CharacterSchema,
  GenerateRequestSchema,
  GenerateResponseSchema,
  GENERATION_STATUSES,
  GenerationIdParamsSchema,
  GenerationListQuerySchema,
  GenerationListSchema,
  GenerationSchema,
  TemplateDeletedSchema,
  TemplateIdParamsSchema,
  TemplateListQuerySchema,
  TemplateListSchema,
  TemplateSchema,
  TemplateWriteSchema,
} from './video.schema.js';

// ---------------------------------------------------------------------------------------------
// Channel kinds

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/**
 * What a route answers on success. `json`: the body, parsed with `schema` (plus the named headers,
 * parsed with `headers`, when the channel needs them). `empty`: a 204, the IPC value is null.
 * Files and streams never cross IPC: the renderer plays them from their signed URLs (video_url).
 */
export type HttpAnswer =
  | { kind: 'json'; schema: z.ZodType; headers?: z.ZodObject; /** When not 200 (201 Created). */ status?: 201 }
  | { kind: 'empty' };

/**
 * A route of the core's HTTP API. The IPC argument is `{ params, query, body }`, each part the route's
 * own schema (the body is the HTTP body schema itself); parts the route does not take are absent.
 */
export interface HttpChannel {
  kind: 'http';
  method: HttpMethod;
  /** Fastify-style path with `:params`, as the server registers it. */
  path: string;
  /** The scope the route requires (the desktop key has all of them). */
  scope: Scope;
  params?: z.ZodObject;
  query?: z.ZodObject;
  body?: z.ZodType;
  /** Request headers the route reads (lower-case names), passed as `headers` and sent as given. */
  headers?: z.ZodObject;
  answer: HttpAnswer;
}

/**
 * A picked file sent to storage. Its `file` field is of kind PickedFileToken (an opaque handle, never
 * a path; main keeps the path). Main POSTs `presign` (from the file's name and type), then PUTs the
 * bytes to the upload URL that answer gives (`put`, when the URL is the API's own local store).
 */
export interface UploadChannel {
  kind: 'upload';
  scope: Scope;
  args: z.ZodObject<{ file: typeof PickedFileToken }>;
  presign: { method: 'POST'; path: string; answer: z.ZodType<PresignedUpload> };
  put: { method: 'PUT'; path: string; answer: z.ZodType<StoredUpload> };
  result: z.ZodType<UploadedFile>;
}

/**
 * Answered by the main process itself: app facts, the OS file picker, opening a link, and the
 * desktop-only administration (keys and organizations of every org, the core's settings, the theme).
 */
export interface LocalChannel {
  kind: 'local';
  args: z.ZodType;
  result: z.ZodType;
  /** Called by the preload's own functions only: its `invoke` refuses it (e.g. a dropped file's path). */
  preloadOnly?: true;
}

export type Channel = HttpChannel | UploadChannel | LocalChannel;

// ---------------------------------------------------------------------------------------------
// The table

const json = <S extends z.ZodType>(schema: S) => ({ kind: 'json', schema }) as const;
const noArgs = z.undefined();

export const IPC_CONTRACT = {
  'app:getInfo': { kind: 'local', args: noArgs, result: AppInfoSchema },
  /** Opens an https:// link to a public host in the OS browser; anything else is refused. */
  'app:openExternal': {
    kind: 'local',
    args: z.object({ url: z.string().max(2048) }).strict(),
    result: z.object({ opened: z.boolean() }),
  },

  'sessions:list': {
    kind: 'http',
    method: 'GET',
    path: '/api/sessions',
    scope: 'sessions:read',
    answer: json(SessionListSchema),
  },
  'sessions:delete': {
    kind: 'http',
    method: 'DELETE',
    path: '/api/sessions/:id',
    scope: 'sessions:write',
    params: SessionIdParamsSchema,
    answer: { kind: 'empty' },
  },
  /** POST /api/login: the storageState, and whether it came from the cache (X-Session-Cache, X-Session-Id). */
  'sessions:testLogin': {
    kind: 'http',
    method: 'POST',
    path: '/api/login',
    scope: 'login:write',
    body: LoginRequestSchema,
    /** X-Login-Id: the id its login:step events carry and sessions:cancelLogin takes. */
    headers: LoginRequestHeadersSchema,
    answer: { kind: 'json', schema: StorageStateSchema, headers: LoginAnswerHeadersSchema },
  },

  'templates:list': {
    kind: 'http',
    method: 'GET',
    path: '/api/templates',
    scope: 'templates:read',
    query: TemplateListQuerySchema,
    answer: json(TemplateListSchema),
  },
  'templates:get': {
    kind: 'http',
    method: 'GET',
    path: '/api/templates/:id',
    scope: 'templates:read',
    params: TemplateIdParamsSchema,
    answer: json(TemplateSchema),
  },
  'templates:create': {
    kind: 'http',
    method: 'POST',
    path: '/api/templates',
    scope: 'templates:write',
    body: TemplateWriteSchema,
    answer: json(TemplateSchema),
  },
  /** Replaces every field (PUT). */
  'templates:update': {
    kind: 'http',
    method: 'PUT',
    path: '/api/templates/:id',
    scope: 'templates:write',
    params: TemplateIdParamsSchema,
    body: TemplateWriteSchema,
    answer: json(TemplateSchema),
  },
  'templates:delete': {
    kind: 'http',
    method: 'DELETE',
    path: '/api/templates/:id',
    scope: 'templates:write',
    params: TemplateIdParamsSchema,
    answer: json(TemplateDeletedSchema),
  },

  /** Shows the OS file picker; null when the person cancels. */
  'uploads:pickFile': {
    kind: 'local',
    args: z
      .object({ kind: z.enum(UPLOAD_KINDS) })
      .strict()
      .optional(),
    result: PickedFileSchema.nullable(),
  },
  /** Uploads a picked file; progress arrives as `upload:progress` events. */
  'uploads:upload': {
    kind: 'upload',
    scope: 'templates:read',
    args: z.object({ file: PickedFileToken }).strict(),
    presign: { method: 'POST', path: '/api/s3/presign-upload', answer: PresignedUploadSchema },
    put: { method: 'PUT', path: '/api/uploads/*', answer: StoredUploadSchema },
    result: UploadedFileSchema,
  },

  'characters:list': {
    kind: 'http',
    method: 'GET',
    path: '/api/characters',
    scope: 'characters:read',
    query: CharacterListQuerySchema,
    answer: json(CharacterListSchema),
  },
  'characters:create': {
    kind: 'http',
    method: 'POST',
    path: '/api/characters',
    scope: 'characters:write',
    body: CharacterCreateSchema,
    answer: json(CharacterSchema),
  },

  'generate:fromTemplate': {
    kind: 'http',
    method: 'POST',
    path: '/api/templates/:id/generate',
    scope: 'templates:read',
    params: TemplateIdParamsSchema,
    body: GenerateRequestSchema,
    answer: json(GenerateResponseSchema),
  },

  'generations:list': {
    kind: 'http',
    method: 'GET',
    path: '/api/generations',
    scope: 'generations:read',
    query: GenerationListQuerySchema,
    answer: json(GenerationListSchema),
  },
  'generations:get': {
    kind: 'http',
    method: 'GET',
    path: '/api/generations/:id',
    scope: 'generations:read',
    params: GenerationIdParamsSchema,
    answer: json(GenerationSchema),
  },
  'generations:cancel': {
    kind: 'http',
    method: 'POST',
    path: '/api/generations/:id/cancel',
    scope: 'generations:write',
    params: GenerationIdParamsSchema,
    answer: json(GenerationSchema),
  },

  /** The organization's balance and latest ledger entries. */
  'credits:get': {
    kind: 'http',
    method: 'GET',
    path: '/api/credits',
    scope: 'credits:read',
    answer: json(CreditsSchema),
  },

  // Settings: mailboxes, the webhook secret, the login methods, and the desktop-only administration.
  ...SETTINGS_CHANNELS,

  // Results, exports and media: session re-test, login cancel, stored files, character edits, saving.
  ...RESULTS_CHANNELS,
} as const satisfies Record<string, Channel>;

export type IpcContract = typeof IPC_CONTRACT;
export type ChannelName = keyof IpcContract;
export const CHANNEL_NAMES = Object.keys(IPC_CONTRACT) as ChannelName[];
export const isChannelName = (name: unknown): name is ChannelName =>
  typeof name === 'string' && Object.prototype.hasOwnProperty.call(IPC_CONTRACT, name);
/** A channel the page may invoke: every channel but the preload's own (LocalChannel.preloadOnly). */
export const isPageChannel = (name: unknown): name is ChannelName =>
  isChannelName(name) && !(IPC_CONTRACT[name] as Channel & { preloadOnly?: true }).preloadOnly;

/** The channels the page may call (the preload makes one named function for each). */
export const pageChannelNames = (): ChannelName[] => Object.keys(IPC_CONTRACT).filter(isPageChannel);

// ---------------------------------------------------------------------------------------------
// Events main pushes to the window (payloads validated in main before they are sent)

const FINISHED_STATUSES = GENERATION_STATUSES.filter((s) => s !== 'generating') as [
  'completed' | 'failed' | 'canceled',
  ...('completed' | 'failed' | 'canceled')[],
];

export const IPC_EVENTS = {
  /** One step of a running login (what the engine is doing), for a live trace. */
  'login:step': z.object({
    loginId: z.string().min(1),
    step: z.string().max(500),
    elapsedMs: z.number().int().min(0),
  }),
  /** A generation moved on: render progress 0-100, or its place in the render queue (1 = next). */
  'generation:progress': z.object({
    id: z.string().min(1),
    status: z.enum(GENERATION_STATUSES),
    progress: z.number().min(0).max(100),
    queuePosition: z.number().int().min(1).optional(),
  }),
  /** A generation reached completed, failed or canceled. */
  'generation:finished': z.object({ id: z.string().min(1), status: z.enum(FINISHED_STATUSES) }),
  /** Bytes of a picked file sent so far; `id` is its picked-file token. */
  'upload:progress': z.object({
    id: PickedFileToken.optional(),
    loaded: z.number().int().min(0),
    total: z.number().int().min(0),
  }),
} as const satisfies Record<string, z.ZodType>;

export type IpcEventName = keyof typeof IPC_EVENTS;
export type IpcEventPayload<E extends IpcEventName> = z.output<(typeof IPC_EVENTS)[E]>;
export const EVENT_NAMES = Object.keys(IPC_EVENTS) as IpcEventName[];
export const isEventName = (name: unknown): name is IpcEventName =>
  typeof name === 'string' && Object.prototype.hasOwnProperty.call(IPC_EVENTS, name);
export type UploadProgress = IpcEventPayload<'upload:progress'>;

// ---------------------------------------------------------------------------------------------
// Types derived from the table (the renderer's invoke, the preload's bridge)

type Part<K extends string, S, Optional extends boolean> = [S] extends [never]
  ? unknown
  : S extends z.ZodType
    ? Optional extends true
      ? { [P in K]?: z.input<S> }
      : { [P in K]: z.input<S> }
    : unknown;
type Flatten<T> = { [K in keyof T]: T[K] } & {};

/** What the renderer passes for a channel. */
export type ChannelArgs<C extends ChannelName> = IpcContract[C] extends infer D
  ? D extends { kind: 'http' }
    ? Flatten<
        Part<'params', D extends { params: infer S } ? S : never, false> &
          Part<'query', D extends { query: infer S } ? S : never, true> &
          Part<'body', D extends { body: infer S } ? S : never, false> &
          Part<'headers', D extends { headers: infer S } ? S : never, true>
      >
    : D extends { args: infer S extends z.ZodType }
      ? z.input<S>
      : never
  : never;

/** What the renderer gets back for a channel (the IpcResult's value). */
export type ChannelResult<C extends ChannelName> = IpcContract[C] extends infer D
  ? D extends { kind: 'http'; answer: infer A }
    ? A extends { kind: 'json'; schema: infer S extends z.ZodType; headers: infer H extends z.ZodType }
      ? { body: z.output<S>; headers: z.output<H> }
      : A extends { kind: 'json'; schema: infer S extends z.ZodType }
        ? z.output<S>
        : null
    : D extends { result: infer S extends z.ZodType }
      ? z.output<S>
      : never
  : never;

/** `[args]`, or `[args?]` when the channel needs none. */
export type ChannelArgsTuple<C extends ChannelName> =
  ChannelArgs<C> extends infer A
    ? undefined extends A
      ? [args?: A]
      : Partial<A> extends A
        ? [args?: A]
        : [args: A]
    : never;

/** What the preload exposes as `window.agentStudio`. */
/** One named function per page channel of the contract (the preload never exposes a generic invoke). */
export type BridgeChannels = {
  readonly [C in ChannelName]: (...args: ChannelArgsTuple<C>) => Promise<IpcResult<ChannelResult<C>>>;
};

export interface AgentStudioBridge {
  /**
   * The contract's page channels as named functions, e.g. `channels['sessions:list']()`; a bad argument
   * or a failed call is `{ ok: false, error }`, never a throw.
   */
  channels: BridgeChannels;
  /** Subscribes to a contract event; returns the unsubscribe function. */
  on<E extends IpcEventName>(event: E, listener: (payload: IpcEventPayload<E>) => void): () => void;
  /**
   * Registers a file dropped on the window as a picked file (uploads:pickDropped, by the path the OS
   * gave it); null when the File has no file on disk behind it (dragged from a web page).
   */
  pickDroppedFile(file: File): Promise<IpcResult<PickedFile | null>>;
}

// Types the renderer names, all inferred from the shared schemas.
export type { AppInfo, PickedFile, UploadedFile, UploadKind } from './desktop.schema.js';
export type {
  ApiKeySummary,
  ApiStatus,
  CoreSettings,
  CoreSettingsPatch,
  DesktopSettings,
  OrgSummary,
  Theme,
} from './desktop-admin.schema.js';
export type { LoginMethodInfo } from './login.schema.js';
export type { Mailbox, MailboxTestResult } from './mailboxes.schema.js';
export type { SessionValidation } from './login.schema.js';
export type { UploadInfo } from './uploads.schema.js';
export type { SavedFile } from './ipc-results-channels.js';
export type { WebhookSecret } from './webhooks.schema.js';
export type { Credits } from './credits.schema.js';
export type { SessionSummary, StorageState } from './login.schema.js';
export type {
  Character,
  GenerateResponse,
  Generation,
  GenerationStatus,
  Template,
  TemplateCategory,
  VariableType,
} from './video.schema.js';
export type InputVariable = z.output<typeof TemplateSchema>['input_variables'][number];
export type TemplateInput = z.input<typeof TemplateWriteSchema>;
export type CharacterInput = z.input<typeof CharacterCreateSchema>;
