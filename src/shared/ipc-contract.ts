// The IPC contract between the renderer (through the preload) and the main process.
// One entry per channel: its name is `<domain>:<method>`, its single argument is parsed with `args`
// in the main process, and its result type is carried by the phantom `result` field.
// Imports only zod and the shared API schemas: the preload bundles this file, the renderer uses its types.
import { z } from 'zod';
import type { IpcResult } from './errors.js';
import type { IPC_CHANNELS } from './ipc-channels.js';
import { LOGIN_METHODS, type SessionSummary, type StorageState } from './login.schema.js';
import {
  CharacterCreateSchema,
  GenerateRequestSchema,
  GENERATION_STATUSES,
  TEMPLATE_CATEGORIES,
  TemplateWriteSchema,
  type Character,
  type GenerateResponse,
  type Generation,
  type GenerationStatus,
  type Template,
  type TemplateCategory,
  type VariableType,
} from './video.schema.js';

// ---------------------------------------------------------------------------------------------
// Result shapes (what the renderer receives). They mirror the HTTP API bodies.

export interface Pagination {
  offset: number;
  limit: number;
  has_more: boolean;
}
export interface Page<T> {
  data: T[];
  pagination: Pagination;
}

export interface AppInfo {
  version: string;
  /** Where agents reach the local API, or null when it could not listen (see serverError). */
  serverUrl: string | null;
  serverError: string | null;
  dataDir: string;
  /** Whether the desktop API key is kept in the secret store (else a per-launch key is used). */
  hasDesktopKey: boolean;
  secretBackend: 'keychain' | 'file';
  secretStoreError: string | null;
  platform: string;
}

export type { SessionSummary, Template, Character, Generation, GenerationStatus, TemplateCategory, VariableType };
export type InputVariable = Template['input_variables'][number];
export type SessionCookie = StorageState['cookies'][number];

export interface LoginTestResult {
  cookies: SessionCookie[];
  origins: StorageState['origins'];
  /** Wall time of the request, measured by the main process. */
  duration_ms: number;
  /** From the X-Session-Cache header: true when the cached session was served. */
  from_cache: boolean | null;
  /** The cache entry (X-Session-Id), to find it in the sessions list. */
  session_id: string | null;
}

export interface PickedFile {
  /** Opaque handle of a file the user chose; the renderer never sees or sends a path. */
  token: string;
  name: string;
  size: number;
  content_type: string;
}

export interface UploadedFile {
  s3_key: string;
  content_type: string;
  size: number;
  name: string;
}

export interface UploadProgress {
  token: string;
  loaded: number;
  total: number;
  phase: 'presigning' | 'uploading' | 'done' | 'failed';
}

export type GenerateResult = GenerateResponse;

export interface Credits {
  org_id: string;
  balance: number;
  ledger: { amount: number; kind: string; ref: string | null; created_at: number }[];
}

// ---------------------------------------------------------------------------------------------
// Argument schemas

const id = z.string().trim().min(1, 'id is required').max(200);
const limitOffset = (max: number) => ({
  limit: z.number().int().min(1).max(max).optional(),
  offset: z.number().int().min(0).optional(),
});
const noArgs = z.undefined().or(z.object({}).strict()).optional();

export const LOGIN_TEST_METHODS = LOGIN_METHODS;
export const LoginTestArgs = z.object({
  url: z
    .string()
    .trim()
    .min(1, 'URL is required')
    .max(2048)
    .refine((v) => /^https?:\/\/[^/\s]+/i.test(v), 'URL must start with http:// or https://'),
  username: z.string().max(512),
  password: z.string().max(4096),
  method: z.enum(LOGIN_TEST_METHODS),
  useCache: z.boolean(),
  additionalFields: z.record(z.string().max(256), z.string().max(4096)).optional(),
});
export type LoginTestArgs = z.infer<typeof LoginTestArgs>;

export const UPLOAD_KINDS = ['image', 'video', 'audio', 'any'] as const;

/** The server's own write schemas: the IPC layer rejects exactly what the HTTP API would. */
export const TemplateInput = TemplateWriteSchema;
export type TemplateInput = z.input<typeof TemplateWriteSchema>;
export const CharacterInput = CharacterCreateSchema;
export type CharacterInput = z.input<typeof CharacterCreateSchema>;
export const GenerateArgs = GenerateRequestSchema.extend({ templateId: id });
export type GenerateArgs = z.input<typeof GenerateArgs>;

// ---------------------------------------------------------------------------------------------
// The contract

export interface ChannelDef<A extends z.ZodType, R> {
  args: A;
  /** Phantom: never read at run time; carries the result type. */
  result?: R;
}
const channel =
  <R>() =>
  <A extends z.ZodType>(args: A): ChannelDef<A, R> => ({ args });

export const ipcContract = {
  app: {
    getInfo: channel<AppInfo>()(noArgs),
    /** Opens an https:// link in the OS browser (anything else is refused). */
    openExternal: channel<{ opened: boolean }>()(z.object({ url: z.string().max(2048) })),
  },
  sessions: {
    list: channel<Page<SessionSummary>>()(z.object({ ...limitOffset(100) }).optional()),
    delete: channel<{ deleted: boolean }>()(z.object({ id })),
    testLogin: channel<LoginTestResult>()(LoginTestArgs),
  },
  templates: {
    list: channel<Page<Template>>()(
      z.object({ category: z.enum(TEMPLATE_CATEGORIES).optional(), ...limitOffset(100) }).optional(),
    ),
    get: channel<Template>()(z.object({ id })),
    create: channel<Template>()(z.object({ template: TemplateInput })),
    /** Replaces every field (PUT). */
    update: channel<Template>()(z.object({ id, template: TemplateWriteSchema })),
    delete: channel<{ deleted: boolean }>()(z.object({ id })),
  },
  uploads: {
    /** Shows the OS file picker; null when the user cancels. */
    pickFile: channel<PickedFile | null>()(z.object({ kind: z.enum(UPLOAD_KINDS) }).optional()),
    /** Presigns and uploads a picked file; progress arrives as `uploads:progress` events. */
    upload: channel<UploadedFile>()(z.object({ token: z.string().min(1).max(100) })),
  },
  characters: {
    list: channel<Page<Character>>()(
      z
        .object({
          q: z.string().trim().min(2, 'search needs at least 2 characters').max(100).optional(),
          ...limitOffset(60),
        })
        .optional(),
    ),
    create: channel<Character>()(CharacterInput),
  },
  generate: {
    fromTemplate: channel<GenerateResult>()(GenerateArgs),
  },
  generations: {
    list: channel<Page<Generation>>()(
      z
        .object({
          status: z.enum(GENERATION_STATUSES).optional(),
          template_id: z.string().max(200).optional(),
          ...limitOffset(100),
        })
        .optional(),
    ),
    get: channel<Generation>()(z.object({ id })),
    cancel: channel<Generation>()(z.object({ id })),
  },
  credits: {
    /** The organization's balance and latest ledger entries. */
    get: channel<Credits>()(noArgs),
  },
} as const;

export type IpcContract = typeof ipcContract;
export type Domain = keyof IpcContract;
export type MethodOf<D extends Domain> = keyof IpcContract[D] & string;
export type ChannelName = { [D in Domain]: `${D}:${MethodOf<D>}` }[Domain];

// Compile-time check: ipc-channels.ts (used by the preload) lists exactly the contract's channels.
type ListedChannels = { [D in keyof typeof IPC_CHANNELS]: (typeof IPC_CHANNELS)[D][number] };
type ContractChannels = { [D in Domain]: MethodOf<D> };
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
export const CHANNEL_LIST_MATCHES_CONTRACT: Same<ListedChannels, ContractChannels> = true;

type ArgsOf<C> = C extends ChannelDef<infer A, unknown> ? z.input<A> : never;
type ParsedArgsOf<C> = C extends ChannelDef<infer A, unknown> ? z.output<A> : never;
type ResultOf<C> = C extends ChannelDef<z.ZodType, infer R> ? R : never;

/** Main-process events pushed to the renderer (subscribed through named `on*` functions). */
export interface IpcEvents {
  'uploads:progress': UploadProgress;
}
export const IPC_EVENTS = ['uploads:progress'] as const satisfies readonly (keyof IpcEvents)[];

/** What `window.agentStudio` offers: one named async function per channel, plus event subscriptions. */
export type AgentStudioApi = {
  [D in Domain]: {
    [M in MethodOf<D>]: undefined extends ArgsOf<IpcContract[D][M]>
      ? (args?: ArgsOf<IpcContract[D][M]>) => Promise<IpcResult<ResultOf<IpcContract[D][M]>>>
      : (args: ArgsOf<IpcContract[D][M]>) => Promise<IpcResult<ResultOf<IpcContract[D][M]>>>;
  };
} & {
  events: {
    onUploadProgress(listener: (progress: UploadProgress) => void): () => void;
  };
};

/** The main-process side: one handler per channel, receiving the parsed argument. */
export type IpcHandlers<D extends Domain> = {
  [M in MethodOf<D>]: (args: ParsedArgsOf<IpcContract[D][M]>) => Promise<IpcResult<ResultOf<IpcContract[D][M]>>>;
};

export const channelName = <D extends Domain>(domain: D, method: MethodOf<D>): string => `${domain}:${method}`;

/** Every channel, for the preload (to build named functions) and the main process (to register). */
export function listChannels(): { domain: Domain; method: string; name: string }[] {
  return (Object.keys(ipcContract) as Domain[]).flatMap((domain) =>
    Object.keys(ipcContract[domain]).map((method) => ({ domain, method, name: `${domain}:${method}` })),
  );
}

/** Parses one channel's argument; a failure is a validation_error result, never a throw. */
export function parseChannelArgs(
  name: string,
  raw: unknown,
): { ok: true; value: unknown } | { ok: false; error: { code: string; message: string } } {
  const [domain, method] = name.split(':') as [Domain, string];
  const def = (ipcContract[domain] as Record<string, ChannelDef<z.ZodType, unknown>> | undefined)?.[method];
  if (!def) return { ok: false, error: { code: 'unknown_channel', message: `Unknown IPC channel "${name}"` } };
  const res = def.args.safeParse(raw);
  if (res.success) return { ok: true, value: res.data };
  const message = res.error.issues
    .map((i) => `${i.path.length ? i.path.join('.') : 'argument'}: ${i.message}`)
    .join('; ');
  return { ok: false, error: { code: 'validation_error', message } };
}
