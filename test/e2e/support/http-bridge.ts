// A stand-in for the preload + main process in a plain browser page: it fulfils the IPC contract
// (window.agentStudio) by calling the real HTTP API with an API key, the way DesktopClient does in
// process. Shipped to the page with page.addInitScript(installHttpBridge, options), so the function
// must be self-contained: no imports at run time (types only), no outer variables.
import type { IpcResult } from '../../../src/shared/errors.js';
import type { AgentStudioApi, AppInfo, PickedFile, UploadProgress } from '../../../src/shared/ipc-contract.js';

export interface HttpBridgeOptions {
  key: string;
  /** Same-origin prefix that the page's static server proxies to the API (keeps connect-src 'self'). */
  proxyPrefix: string;
  /** The API's own origin: absolute URLs it returns (upload URLs) are rewritten to go through the proxy. */
  apiOrigin: string;
  info: AppInfo;
}

export function installHttpBridge(opts: HttpBridgeOptions): void {
  type Result<T> = Promise<IpcResult<T>>;
  type Query = Record<string, string | number | boolean | undefined> | undefined;
  const progressListeners = new Set<(p: UploadProgress) => void>();
  const pickedFiles = new Map<string, File>();
  const calls: { channel: string; args: unknown }[] = [];
  (window as unknown as { __bridgeCalls: typeof calls }).__bridgeCalls = calls;

  const fail = (code: string, message: string, details?: Record<string, unknown>) => ({
    ok: false as const,
    error: { code, message, ...(details ? { details } : {}) },
  });
  const viaProxy = (url: string) =>
    url.startsWith(opts.apiOrigin) ? opts.proxyPrefix + url.slice(opts.apiOrigin.length) : url;

  async function http<T>(
    channel: string,
    args: unknown,
    method: string,
    path: string,
    init: { query?: Query; json?: unknown } = {},
  ): Result<T> {
    calls.push({ channel, args });
    const params = new URLSearchParams();
    for (const [k, v] of Object.entries(init.query ?? {})) if (v !== undefined && v !== '') params.set(k, String(v));
    const qs = params.toString();
    const headers: Record<string, string> = { authorization: `Bearer ${opts.key}` };
    if (init.json !== undefined) headers['content-type'] = 'application/json';
    let res: Response;
    try {
      res = await fetch(`${opts.proxyPrefix}${path}${qs ? `?${qs}` : ''}`, {
        method,
        headers,
        body: init.json === undefined ? undefined : JSON.stringify(init.json),
      });
    } catch (err) {
      return fail('server_error', `The local service did not answer: ${(err as Error).message}`);
    }
    const text = await res.text();
    let body: unknown = undefined;
    try {
      body = text ? JSON.parse(text) : undefined;
    } catch {
      body = text;
    }
    if (res.ok) return { ok: true, value: body as T };
    const b = (body && typeof body === 'object' ? body : {}) as {
      error?: string;
      message?: string;
      details?: Record<string, unknown>;
    };
    return fail(b.error ?? `http_${res.status}`, b.message ?? `The local service answered ${res.status}.`, {
      status: res.status,
      ...(b.details ?? {}),
    });
  }

  const map = async <R, T>(p: Result<R>, fn: (v: R) => T): Result<T> => {
    const r = await p;
    return r.ok ? { ok: true, value: fn(r.value) } : r;
  };
  const withPagination = <T>(b: { data: T[]; pagination?: { offset: number; limit: number; has_more: boolean } }) => ({
    data: b.data,
    pagination: b.pagination ?? { offset: 0, limit: b.data.length, has_more: false },
  });
  const emit = (p: UploadProgress) => progressListeners.forEach((l) => l(p));

  const api: AgentStudioApi = {
    app: {
      getInfo: async () => ({ ok: true, value: opts.info }),
      openExternal: async ({ url }) =>
        url.startsWith('https://')
          ? { ok: true, value: { opened: true } }
          : fail('validation_error', 'Only https:// links open in the browser.'),
    },
    sessions: {
      list: (args) =>
        map(http<{ data: never[] }>('sessions:list', args, 'GET', '/api/sessions', { query: args }), withPagination),
      delete: (args) =>
        map(http<void>('sessions:delete', args, 'DELETE', `/api/sessions/${encodeURIComponent(args.id)}`), () => ({
          deleted: true,
        })),
      testLogin: async (args) => {
        calls.push({ channel: 'sessions:testLogin', args: { ...args, password: '[redacted]' } });
        const started = Date.now();
        const res = await fetch(`${opts.proxyPrefix}/api/login`, {
          method: 'POST',
          headers: { authorization: `Bearer ${opts.key}`, 'content-type': 'application/json' },
          body: JSON.stringify({
            domain: args.url,
            loginMethod: args.method,
            cred: { username: args.username, password: args.password },
            useCache: args.useCache,
            ...(args.additionalFields ? { additionalFields: args.additionalFields } : {}),
          }),
        });
        const body = await res.json().catch(() => ({}));
        if (!res.ok)
          return fail(body.error ?? `http_${res.status}`, body.message ?? `HTTP ${res.status}`, {
            status: res.status,
            ...(body.details ?? {}),
          });
        const cache = res.headers.get('x-session-cache');
        return {
          ok: true,
          value: {
            cookies: body.cookies,
            origins: body.origins,
            duration_ms: Date.now() - started,
            from_cache: cache ? cache === 'hit' : null,
            session_id: res.headers.get('x-session-id'),
          },
        };
      },
    },
    templates: {
      list: (args) => http('templates:list', args, 'GET', '/api/templates', { query: args }),
      get: (args) => http('templates:get', args, 'GET', `/api/templates/${encodeURIComponent(args.id)}`),
      create: (args) => http('templates:create', args, 'POST', '/api/templates', { json: args.template }),
      update: (args) =>
        http('templates:update', args, 'PUT', `/api/templates/${encodeURIComponent(args.id)}`, { json: args.template }),
      delete: (args) =>
        map(http<void>('templates:delete', args, 'DELETE', `/api/templates/${encodeURIComponent(args.id)}`), () => ({
          deleted: true,
        })),
    },
    uploads: {
      // The OS dialog of the real app becomes the browser's file chooser (the test answers it).
      pickFile: (args) =>
        new Promise((resolve) => {
          calls.push({ channel: 'uploads:pickFile', args });
          const input = document.createElement('input');
          input.type = 'file';
          const kind = args?.kind ?? 'any';
          input.accept = kind === 'any' ? 'image/*,video/*,audio/*' : `${kind}/*`;
          input.addEventListener('change', () => {
            const file = input.files?.[0];
            if (!file) return resolve({ ok: true, value: null });
            const token = `tok-${Math.random().toString(36).slice(2)}`;
            pickedFiles.set(token, file);
            const picked: PickedFile = {
              token,
              name: file.name,
              size: file.size,
              content_type: file.type || 'application/octet-stream',
            };
            resolve({ ok: true, value: picked });
          });
          input.addEventListener('cancel', () => resolve({ ok: true, value: null }));
          input.click();
        }),
      upload: async ({ token }) => {
        const file = pickedFiles.get(token);
        if (!file) return fail('not_found', 'Pick the file again: this upload handle is unknown or used.');
        emit({ token, loaded: 0, total: file.size, phase: 'presigning' });
        const presign = await http<{ s3_key: string; upload_url: string; content_type: string; max_bytes: number }>(
          'uploads:upload',
          { token },
          'POST',
          '/api/s3/presign-upload',
          {
            json: { kind: 'upload', contentType: file.type, fileName: file.name },
          },
        );
        if (!presign.ok) return presign;
        const { s3_key, upload_url, content_type, max_bytes } = presign.value;
        if (file.size > max_bytes) return fail('file_too_large', `${file.name} is larger than ${max_bytes} bytes.`);
        const status = await new Promise<{ status: number; body: string }>((resolve) => {
          const xhr = new XMLHttpRequest();
          xhr.open('PUT', viaProxy(upload_url));
          xhr.setRequestHeader('content-type', content_type);
          xhr.upload.onprogress = (e) =>
            emit({ token, loaded: e.loaded, total: e.total || file.size, phase: 'uploading' });
          xhr.onload = () => resolve({ status: xhr.status, body: xhr.responseText });
          xhr.onerror = () => resolve({ status: 0, body: '' });
          xhr.send(file);
        });
        if (status.status < 200 || status.status >= 300) {
          emit({ token, loaded: 0, total: file.size, phase: 'failed' });
          let message = `Upload failed (${status.status}).`;
          try {
            message = (JSON.parse(status.body) as { message?: string }).message ?? message;
          } catch {
            // not JSON
          }
          return fail('upload_failed', message);
        }
        emit({ token, loaded: file.size, total: file.size, phase: 'done' });
        pickedFiles.delete(token);
        return { ok: true, value: { s3_key, content_type, size: file.size, name: file.name } };
      },
    },
    characters: {
      list: (args) => http('characters:list', args, 'GET', '/api/characters', { query: args }),
      create: (args) => http('characters:create', args, 'POST', '/api/characters', { json: args }),
    },
    generate: {
      fromTemplate: (args) => {
        const { templateId, ...body } = args;
        return http(
          'generate:fromTemplate',
          args,
          'POST',
          `/api/templates/${encodeURIComponent(templateId)}/generate`,
          { json: body },
        );
      },
    },
    generations: {
      list: (args) => http('generations:list', args, 'GET', '/api/generations', { query: args }),
      get: (args) => http('generations:get', args, 'GET', `/api/generations/${encodeURIComponent(args.id)}`),
      cancel: (args) =>
        http('generations:cancel', args, 'POST', `/api/generations/${encodeURIComponent(args.id)}/cancel`),
    },
    credits: {
      get: () => http('credits:get', undefined, 'GET', '/api/credits'),
    },
    events: {
      onUploadProgress(listener) {
        progressListeners.add(listener);
        return () => void progressListeners.delete(listener);
      },
    },
  };
  Object.defineProperty(window, 'agentStudio', { value: Object.freeze(api), configurable: false, writable: false });
}
