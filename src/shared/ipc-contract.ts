// The one contract between the renderer and the main process. IPC_CONTRACT names every channel the
// preload offers: most stand for one route of the core's HTTP API (method, path and the shared zod
// schemas of its params, query, body and answer), so the desktop UI gets exactly what agents get;
// a few are answered by the main process itself. IPC_EVENTS names what main pushes to the window.
// Pure data + zod: main (src/main/core/desktop), the preload, the renderer and the e2e test bridge
// all read this table; nothing else lists channels.
import { z } from 'zod';
import type { ApiRouteName, ApiRoutes, SuccessBody } from './api/index.js';
import {
  AppInfoSchema,
  PickedFileSchema,
  PickedFileToken,
  type PickedFile,
  UPLOAD_KINDS,
  UploadedFileSchema,
} from './desktop.schema.js';
import type { IpcResult } from './errors.js';
import { PERSON_REASONS } from './person-task.js';
import { AUTOSTART_CHANNELS } from './ipc-autostart-channels.js';
import { BACKUP_CHANNELS } from './ipc-backup-channels.js';
import { CRASH_REPORTS_CHANNELS } from './ipc-crash-reports-channels.js';
import { UPDATES_CHANNELS } from './ipc-updates-channels.js';
import { CREDENTIALS_CHANNELS } from './ipc-credentials-channels.js';
import { PROFILES_CHANNELS } from './ipc-profiles-channels.js';
import { RESULTS_CHANNELS } from './ipc-results-channels.js';
import { SETTINGS_CHANNELS } from './ipc-settings-channels.js';
import { STUDIO_CHANNELS } from './ipc-studio-channels.js';
import { GENERATION_STATUSES, TemplateSchema, TemplateWriteSchema } from './video.schema.js';
import { CharacterCreateSchema } from './video-characters.schema.js';

// ---------------------------------------------------------------------------------------------
// Channel kinds

export type { Channel, HttpChannel, LocalChannel, UploadChannel } from './ipc-channel.js';
import type { Channel } from './ipc-channel.js';

// ---------------------------------------------------------------------------------------------
// The table

const noArgs = z.undefined();

export const IPC_CONTRACT = {
  'app:getInfo': { kind: 'local', args: noArgs, result: AppInfoSchema },
  /** Opens an https:// link to a public host in the OS browser; anything else is refused. */
  'app:openExternal': {
    kind: 'local',
    args: z.object({ url: z.string().max(2048) }).strict(),
    result: z.object({ opened: z.boolean() }),
  },

  'sessions:list': { kind: 'http', route: 'listSessions' },
  'sessions:delete': { kind: 'http', route: 'deleteSession' },
  /** POST /api/login: the storageState, and whether it came from the cache (X-Session-Cache, X-Session-Id). */
  'sessions:testLogin': { kind: 'http', route: 'login' },

  'templates:list': { kind: 'http', route: 'listTemplates' },
  'templates:get': { kind: 'http', route: 'getTemplate' },
  'templates:create': { kind: 'http', route: 'createTemplate' },
  /** Replaces every field (PUT). */
  'templates:update': { kind: 'http', route: 'replaceTemplate' },
  'templates:delete': { kind: 'http', route: 'deleteTemplate' },

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
    args: z.object({ file: PickedFileToken }).strict(),
    presign: 'presignUpload',
    put: 'putUpload',
    result: UploadedFileSchema,
  },

  'characters:list': { kind: 'http', route: 'listCharacters' },
  'characters:create': { kind: 'http', route: 'createCharacter' },

  'generate:fromTemplate': { kind: 'http', route: 'generate' },

  'generations:list': { kind: 'http', route: 'listGenerations' },
  'generations:get': { kind: 'http', route: 'getGeneration' },
  'generations:cancel': { kind: 'http', route: 'cancelGeneration' },
  'generations:delete': { kind: 'http', route: 'deleteGeneration' },

  /** The organization's balance and latest ledger entries. */
  'credits:get': { kind: 'http', route: 'credits' },

  // Settings: mailboxes, the webhook secret, the login methods, and the desktop-only administration.
  ...SETTINGS_CHANNELS,

  // Results, exports and media: session re-test, login cancel, stored files, character edits, saving.
  ...RESULTS_CHANNELS,

  // Saved logins: the vault's routes, and Reveal, Copy and Test now for the person.
  ...CREDENTIALS_CHANNELS,

  // Your browsers: the person's own browser profiles, listed and imported from by the person (never over HTTP).
  ...PROFILES_CHANNELS,

  // Video studio: the AI providers this computer can use (connect one from the window), quotes.
  ...STUDIO_CHANNELS,

  // Backup: now, on a schedule to a folder, and a restore into a new folder (paths from OS dialogs only).
  ...BACKUP_CHANNELS,

  // Start-up: whether the OS starts the app in the background when the person logs in (read back from the OS).
  ...AUTOSTART_CHANNELS,

  // Updates: the policy and channel, a check, a download (SHA-512 and size checked) and the restart that installs.
  ...UPDATES_CHANNELS,

  // Crash reports: the dumps kept in the data folder (never uploaded), counted, and their folder opened.
  ...CRASH_REPORTS_CHANNELS,
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
  'completed' | 'failed' | 'canceled' | 'aborted',
  ...('completed' | 'failed' | 'canceled' | 'aborted')[],
];

export const IPC_EVENTS = {
  /** One step of a running login (what the engine is doing), for a live trace. */
  'login:step': z.object({
    loginId: z.string().min(1),
    step: z.string().max(500),
    elapsedMs: z.number().int().min(0),
  }),
  /**
   * A login of the window's organization waits for a person: the window shows its live page (`takeoverUrl`, whose
   * #token is the key to it) under a "Needs you" banner. `site` is the host the login is for; `reason` where it stopped.
   */
  'login:needs-person': z.object({
    loginId: z.string().min(1),
    reason: z.enum(PERSON_REASONS),
    site: z.string().max(300),
    takeoverUrl: z.url({ protocol: /^https?$/ }),
  }),
  /** A login that has an id ended (its banner goes away). */
  'login:finished': z.object({
    loginId: z.string().min(1),
    status: z.enum(['succeeded', 'failed', 'cancelled']),
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
  ? D extends { kind: 'http'; route: infer N extends ApiRouteName }
    ? Flatten<
        Part<'params', ApiRoutes[N] extends { params: infer S } ? S : never, false> &
          Part<'query', ApiRoutes[N] extends { query: infer S } ? S : never, true> &
          Part<'body', ApiRoutes[N] extends { body: infer S } ? S : never, false> &
          Part<'headers', ApiRoutes[N] extends { headers: infer S } ? S : never, true>
      >
    : D extends { args: infer S extends z.ZodType }
      ? z.input<S>
      : never
  : never;

/** What the renderer gets back for a channel (the IpcResult's value). */
export type ChannelResult<C extends ChannelName> = IpcContract[C] extends infer D
  ? D extends { kind: 'http'; route: infer N extends ApiRouteName }
    ? SuccessBody<ApiRoutes[N]> extends infer B
      ? ApiRoutes[N] extends { answerHeaders: infer H extends z.ZodType }
        ? { body: B; headers: z.output<H> }
        : [B] extends [void]
          ? null
          : B
      : never
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
export type { ProviderStatus } from './ipc-studio-channels.js';
export type { SessionSummary, StorageState } from './login.schema.js';
export type { Character } from './video-characters.schema.js';
export type { GenerateResponse, Generation } from './video-generations.schema.js';
export type { GenerationStatus, Template, TemplateCategory, VariableType } from './video.schema.js';
export type InputVariable = z.output<typeof TemplateSchema>['input_variables'][number];
export type TemplateInput = z.input<typeof TemplateWriteSchema>;
export type CharacterInput = z.input<typeof CharacterCreateSchema>;
