// The desktop UI's way into the core: every IPC call becomes an in-process request to the same
// Fastify app that serves agents (app.inject), with the desktop API key. So the UI gets exactly the
// HTTP API's validation, scopes, rate limits and error bodies. Plain Node: never imports electron.
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { Readable, Transform } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import type { IpcResult } from '../../../shared/errors.js';
import {
  parseChannelArgs,
  type Character,
  type Credits,
  type Domain,
  type GenerateResult,
  type Generation,
  type IpcHandlers,
  type LoginTestResult,
  type Page,
  type PickedFile,
  type SessionSummary,
  type Template,
  type UploadProgress,
  type UploadedFile,
} from '../../../shared/ipc-contract.js';
import type { Core } from '../create-core.js';

type Query = Record<string, string | number | boolean | undefined>;
type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

const fail = (
  code: string,
  message: string,
  details?: Record<string, unknown>,
): { ok: false; error: { code: string; message: string; details?: Record<string, unknown> } } => ({
  ok: false,
  error: details ? { code, message, details } : { code, message },
});

function toQueryString(query: Query | undefined): string {
  const params = new URLSearchParams();
  for (const [k, v] of Object.entries(query ?? {})) if (v !== undefined && v !== '') params.set(k, String(v));
  const s = params.toString();
  return s ? `?${s}` : '';
}

function pageOf<T>(
  body: unknown,
  listKeys: string[],
  map: (raw: Record<string, unknown>) => T = (r) => r as T,
): Page<T> {
  const b = (body ?? {}) as Record<string, unknown>;
  let list: unknown = Array.isArray(body) ? body : b.data;
  for (const k of listKeys) if (!Array.isArray(list)) list = b[k];
  const items = Array.isArray(list) ? (list as Record<string, unknown>[]).map(map) : [];
  const p = (b.pagination ?? {}) as Partial<Page<T>['pagination']>;
  return {
    data: items,
    pagination: { offset: p.offset ?? 0, limit: p.limit ?? items.length, has_more: p.has_more ?? false },
  };
}

const CONTENT_TYPES: Record<string, string> = {
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.webp': 'image/webp',
  '.gif': 'image/gif',
  '.mp4': 'video/mp4',
  '.mov': 'video/quicktime',
  '.webm': 'video/webm',
  '.mp3': 'audio/mpeg',
  '.wav': 'audio/wav',
  '.m4a': 'audio/mp4',
  '.aac': 'audio/aac',
  '.ogg': 'audio/ogg',
  '.weba': 'audio/webm',
};
export const contentTypeOf = (fileName: string): string =>
  CONTENT_TYPES[path.extname(fileName).toLowerCase()] ?? 'application/octet-stream';
export const UPLOAD_EXTENSIONS = {
  image: ['png', 'jpg', 'jpeg', 'webp', 'gif'],
  video: ['mp4', 'mov', 'webm'],
  audio: ['mp3', 'wav', 'm4a', 'aac', 'ogg', 'weba'],
} as const;

export interface DesktopClientDeps {
  app: FastifyInstance;
  key: string;
  /**
   * Host header of the in-process requests: `127.0.0.1:<port>` when the API listens, so the URLs the
   * service makes from it (upload and video URLs) point at the real server.
   */
  host?: string;
}

export class DesktopClient {
  constructor(private readonly deps: DesktopClientDeps) {}

  /** One in-process request; a non-2xx answer becomes `{ ok: false, error }` with the API's code and message. */
  async request<T>(
    method: HttpMethod,
    url: string,
    opts: { query?: Query; json?: unknown; payload?: Buffer | Readable; headers?: Record<string, string> } = {},
  ): Promise<IpcResult<T> & { headers?: Record<string, unknown> }> {
    const headers: Record<string, string> = {
      authorization: `Bearer ${this.deps.key}`,
      host: this.deps.host ?? '127.0.0.1',
      ...opts.headers,
    };
    let payload: string | Buffer | Readable | undefined = opts.payload;
    if (opts.json !== undefined) {
      headers['content-type'] = 'application/json';
      payload = JSON.stringify(opts.json);
    }
    let res;
    try {
      res = await this.deps.app.inject({ method, url: url + toQueryString(opts.query), headers, payload });
    } catch (err) {
      return fail('server_error', `The local service did not answer: ${(err as Error).message}`);
    }
    let body: unknown = undefined;
    if (res.body) {
      try {
        body = JSON.parse(res.body);
      } catch {
        body = res.body;
      }
    }
    if (res.statusCode >= 200 && res.statusCode < 300) return { ok: true, value: body as T, headers: res.headers };
    const b = (typeof body === 'object' && body ? body : {}) as {
      error?: unknown;
      message?: unknown;
      details?: unknown;
    };
    const code = typeof b.error === 'string' ? b.error : `http_${res.statusCode}`;
    const message = typeof b.message === 'string' ? b.message : `The local service answered ${res.statusCode}.`;
    const details = {
      status: res.statusCode,
      ...(typeof b.details === 'object' && b.details ? (b.details as Record<string, unknown>) : {}),
    };
    return fail(code, message, details);
  }

  private async map<R, T>(p: Promise<IpcResult<R>>, fn: (value: R) => T): Promise<IpcResult<T>> {
    const res = await p;
    return res.ok ? { ok: true, value: fn(res.value) } : res;
  }

  readonly sessions: IpcHandlers<'sessions'> = {
    list: (args) =>
      this.map(this.request<unknown>('GET', '/api/sessions', { query: { ...args } }), (b) =>
        pageOf<SessionSummary>(b, ['sessions']),
      ),
    delete: (args) =>
      this.map(this.request<unknown>('DELETE', `/api/sessions/${encodeURIComponent(args.id)}`), () => ({
        deleted: true,
      })),
    testLogin: async (args) => {
      const started = Date.now();
      const res = await this.request<{ cookies?: LoginTestResult['cookies']; origins?: LoginTestResult['origins'] }>(
        'POST',
        '/api/login',
        {
          json: {
            domain: args.url,
            loginMethod: args.method,
            cred: { username: args.username, password: args.password },
            useCache: args.useCache,
            ...(args.additionalFields && Object.keys(args.additionalFields).length
              ? { additionalFields: args.additionalFields }
              : {}),
          },
        },
      );
      if (!res.ok) return res;
      const cacheHeader = String(res.headers?.['x-session-cache'] ?? '').toLowerCase();
      const sessionId = res.headers?.['x-session-id'];
      return {
        ok: true,
        value: {
          cookies: res.value.cookies ?? [],
          origins: res.value.origins ?? [],
          duration_ms: Date.now() - started,
          from_cache: cacheHeader ? cacheHeader === 'hit' : null,
          session_id: typeof sessionId === 'string' ? sessionId : null,
        },
      };
    },
  };

  readonly templates: IpcHandlers<'templates'> = {
    list: (args) =>
      this.map(this.request<unknown>('GET', '/api/templates', { query: { ...args } }), (b) =>
        pageOf<Template>(b, ['templates']),
      ),
    get: (args) =>
      this.map(this.request<unknown>('GET', `/api/templates/${encodeURIComponent(args.id)}`), (b) =>
        unwrap<Template>(b, 'template'),
      ),
    create: (args) =>
      this.map(this.request<unknown>('POST', '/api/templates', { json: args.template }), (b) =>
        unwrap<Template>(b, 'template'),
      ),
    update: (args) =>
      this.map(
        this.request<unknown>('PUT', `/api/templates/${encodeURIComponent(args.id)}`, { json: args.template }),
        (b) => unwrap<Template>(b, 'template'),
      ),
    delete: (args) =>
      this.map(this.request<unknown>('DELETE', `/api/templates/${encodeURIComponent(args.id)}`), () => ({
        deleted: true,
      })),
  };

  readonly characters: IpcHandlers<'characters'> = {
    list: (args) =>
      this.map(this.request<unknown>('GET', '/api/characters', { query: { ...args } }), (b) =>
        pageOf<Character>(b, ['characters']),
      ),
    create: (args) =>
      this.map(this.request<unknown>('POST', '/api/characters', { json: args }), (b) =>
        unwrap<Character>(b, 'character'),
      ),
  };

  readonly generate: IpcHandlers<'generate'> = {
    fromTemplate: (args) => {
      const { templateId, ...body } = args;
      return this.request<GenerateResult>('POST', `/api/templates/${encodeURIComponent(templateId)}/generate`, {
        json: body,
      });
    },
  };

  readonly generations: IpcHandlers<'generations'> = {
    list: (args) =>
      this.map(this.request<unknown>('GET', '/api/generations', { query: { ...args } }), (b) =>
        pageOf<Generation>(b, ['generations']),
      ),
    get: (args) =>
      this.map(this.request<unknown>('GET', `/api/generations/${encodeURIComponent(args.id)}`), (b) =>
        unwrap<Generation>(b, 'generation'),
      ),
    cancel: (args) =>
      this.map(this.request<unknown>('POST', `/api/generations/${encodeURIComponent(args.id)}/cancel`), (b) =>
        unwrap<Generation>(b, 'generation'),
      ),
  };

  readonly credits: IpcHandlers<'credits'> = {
    get: () => this.request<Credits>('GET', '/api/credits'),
  };

  /**
   * Presigns an upload and PUTs the file to the URL the service returned: in process when the URL
   * points at this server, over HTTP otherwise (S3). Progress is reported as bytes are read.
   */
  async uploadFile(
    file: { path: string; name?: string; contentType?: string; token: string },
    onProgress: (p: UploadProgress) => void = () => {},
  ): Promise<IpcResult<UploadedFile>> {
    const name = file.name ?? path.basename(file.path);
    const contentType = file.contentType ?? contentTypeOf(name);
    let size: number;
    try {
      size = (await fs.promises.stat(file.path)).size;
    } catch (err) {
      return fail(
        'file_unreadable',
        `Cannot read ${name}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`,
      );
    }
    onProgress({ token: file.token, loaded: 0, total: size, phase: 'presigning' });
    const presign = await this.request<{ s3_key: string; upload_url: string; content_type: string; max_bytes: number }>(
      'POST',
      '/api/s3/presign-upload',
      {
        json: { kind: 'upload', contentType, fileName: name },
      },
    );
    if (!presign.ok) {
      onProgress({ token: file.token, loaded: 0, total: size, phase: 'failed' });
      return presign;
    }
    const { s3_key, upload_url, max_bytes } = presign.value;
    if (typeof max_bytes === 'number' && size > max_bytes) {
      onProgress({ token: file.token, loaded: 0, total: size, phase: 'failed' });
      return fail(
        'file_too_large',
        `${name} is ${formatMb(size)}; the limit for ${contentType} is ${formatMb(max_bytes)}.`,
      );
    }
    let loaded = 0;
    const counter = new Transform({
      transform(chunk: Buffer, _enc, done) {
        loaded += chunk.length;
        onProgress({ token: file.token, loaded, total: size, phase: 'uploading' });
        done(null, chunk);
      },
    });
    const source = fs.createReadStream(file.path);
    source.on('error', (err) => counter.destroy(err));
    const body = source.pipe(counter);
    const target = new URL(upload_url, 'http://127.0.0.1');
    const headers = { 'content-type': presign.value.content_type ?? contentType, 'content-length': String(size) };
    let result: IpcResult<unknown>;
    if (isLoopback(target.hostname)) {
      result = await this.request('PUT', target.pathname + target.search, { payload: body, headers });
    } else {
      try {
        const res = await fetch(target, {
          method: 'PUT',
          headers,
          body: Readable.toWeb(body) as ReadableStream,
          duplex: 'half',
        } as RequestInit);
        result = res.ok
          ? { ok: true, value: null }
          : fail('upload_failed', `The storage answered ${res.status} ${res.statusText}.`);
      } catch (err) {
        result = fail('upload_failed', `Upload failed: ${(err as Error).message}`);
      }
    }
    if (!result.ok) {
      onProgress({ token: file.token, loaded, total: size, phase: 'failed' });
      return result;
    }
    onProgress({ token: file.token, loaded: size, total: size, phase: 'done' });
    return { ok: true, value: { s3_key, content_type: contentType, size, name } };
  }
}

function unwrap<T>(body: unknown, key: string): T {
  const b = body as Record<string, unknown> | null;
  return (b && typeof b === 'object' && key in b && typeof b[key] === 'object' ? b[key] : body) as T;
}

const isLoopback = (host: string) => ['127.0.0.1', 'localhost', '[::1]', '::1'].includes(host);
const formatMb = (bytes: number) => `${(bytes / (1024 * 1024)).toFixed(1)} MB`;

/**
 * Dispatches one IPC call: parses the argument with the contract, then calls the client's handler.
 * Used by the Electron IPC layer and by tests that stand in for it.
 */
export async function dispatchIpc(
  handlers: Partial<Record<Domain, Record<string, (args: never) => Promise<IpcResult<unknown>>>>>,
  name: string,
  raw: unknown,
): Promise<IpcResult<unknown>> {
  const parsed = parseChannelArgs(name, raw);
  if (!parsed.ok) return parsed;
  const [domain, method] = name.split(':') as [Domain, string];
  const fn = handlers[domain]?.[method] as ((args: unknown) => Promise<IpcResult<unknown>>) | undefined;
  if (!fn) return fail('unknown_channel', `No handler for "${name}"`);
  try {
    return await fn(parsed.value);
  } catch (err) {
    return fail('internal_error', (err as Error).message);
  }
}

// ---------------------------------------------------------------------------------------------
// Uploads: the renderer can only upload files the user picked

export interface UploadsHandlerDeps {
  client: DesktopClient;
  /** Shows the OS file picker (Electron dialog); resolves the chosen path, or null when cancelled. */
  chooseFile(kind: 'image' | 'video' | 'audio' | 'any'): Promise<string | null>;
  /** Delivers progress to the page (throttled here to ~10 events a second). */
  sendProgress(progress: UploadProgress): void;
}

const MAX_PICKED = 100;

/**
 * The uploads channels. A picked file is known to the renderer only by an opaque token, so a
 * compromised page cannot make the app read an arbitrary path.
 */
export function createUploadsHandlers(deps: UploadsHandlerDeps): IpcHandlers<'uploads'> {
  const picked = new Map<string, PickedFile & { path: string }>();
  return {
    pickFile: async (args) => {
      const file = await deps.chooseFile(args?.kind ?? 'any');
      if (!file) return { ok: true, value: null };
      let size: number;
      try {
        const stat = await fs.promises.stat(file);
        if (!stat.isFile()) return fail('validation_error', `${path.basename(file)} is not a file.`);
        size = stat.size;
      } catch (err) {
        return fail(
          'file_unreadable',
          `Cannot read ${path.basename(file)}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`,
        );
      }
      const entry = {
        token: crypto.randomUUID(),
        name: path.basename(file),
        size,
        content_type: contentTypeOf(file),
        path: file,
      };
      picked.set(entry.token, entry);
      if (picked.size > MAX_PICKED) picked.delete(picked.keys().next().value as string);
      const { path: _path, ...visible } = entry;
      return { ok: true, value: visible };
    },
    upload: async ({ token }) => {
      const entry = picked.get(token);
      if (!entry) return fail('not_found', 'Pick the file again: this upload handle is unknown or already used.');
      // The first and last byte counts always go out; in between at most one event per 100 ms.
      let lastSent = 0;
      const send = (p: UploadProgress) => {
        if (p.phase === 'uploading' && p.loaded < p.total) {
          const now = Date.now();
          if (now - lastSent < 100) return;
          lastSent = now;
        }
        deps.sendProgress(p);
      };
      const res = await deps.client.uploadFile(
        { path: entry.path, name: entry.name, contentType: entry.content_type, token },
        send,
      );
      if (res.ok) picked.delete(token);
      return res;
    },
  };
}

// ---------------------------------------------------------------------------------------------
// The desktop API key

export const DESKTOP_KEY_ACCOUNT = 'desktop-api-key';

export interface DesktopKey {
  key: string;
  /** True when the key's plaintext is kept in the secret store (survives restarts). */
  persisted: boolean;
  secretStoreError: string | null;
}

/**
 * The key the UI presents. Reuses the stored desktop key, else the first-run default key, else
 * creates one for the default org. When the secret store is unusable the key lives for this launch
 * only and is revoked when the core is disposed (so no orphaned live keys pile up).
 */
export async function resolveDesktopKey(core: Core): Promise<DesktopKey> {
  const valid = (key: string | null): key is string => !!key && core.keys.authenticate(key) !== null;
  let secretStoreError: string | null = null;
  try {
    const stored = await core.secrets.get(DESKTOP_KEY_ACCOUNT);
    if (valid(stored)) return { key: stored, persisted: true, secretStoreError };
    const defaultId = await core.secrets.get('default-api-key-id');
    const defaultKey = defaultId ? await core.secrets.get(`api-key:${defaultId}`) : null;
    if (valid(defaultKey)) {
      await core.secrets.set(DESKTOP_KEY_ACCOUNT, defaultKey);
      return { key: defaultKey, persisted: true, secretStoreError };
    }
  } catch (err) {
    secretStoreError = (err as Error).message;
  }
  const org = core.orgs.findByName('default') ?? core.orgs.list()[0] ?? core.orgs.create('default');
  const { key, info } = core.keys.create(org.id, { name: 'desktop', scopes: ['*'] });
  if (!secretStoreError) {
    try {
      await core.secrets.set(DESKTOP_KEY_ACCOUNT, key);
      return { key, persisted: true, secretStoreError };
    } catch (err) {
      secretStoreError = (err as Error).message;
    }
  }
  core.onDispose(() => core.keys.revoke(info.id));
  return { key, persisted: false, secretStoreError };
}
