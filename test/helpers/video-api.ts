import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { TestServer } from './test-server.js';

/** Tests read response bodies loosely; the shapes are asserted by the tests themselves. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Loose = any;

/** A parsed JSON response. */
export interface JsonResponse<T = Loose> {
  status: number;
  headers: Headers;
  body: T;
}

export async function call<T = Loose>(
  s: TestServer,
  path: string,
  init: RequestInit & { key?: string | null; json?: unknown } = {},
): Promise<JsonResponse<T>> {
  const res = await s.request(path, init);
  const text = await res.text();
  let body: unknown = text;
  try {
    body = text ? JSON.parse(text) : null;
  } catch {
    /* not JSON */
  }
  return { status: res.status, headers: res.headers, body: body as T };
}

export const dataUri = (bytes: Buffer, type: string) => `data:${type};base64,${bytes.toString('base64')}`;

/** POST /api/templates/:id/generate with a JSON body. */
export function generate(
  s: TestServer,
  templateId: string,
  body: unknown,
  opts: { key?: string; idempotencyKey?: string } = {},
) {
  const headers: Record<string, string> = {};
  if (opts.idempotencyKey) headers['idempotency-key'] = opts.idempotencyKey;
  return call(s, `/api/templates/${encodeURIComponent(templateId)}/generate`, {
    method: 'POST',
    json: body,
    key: opts.key,
    headers,
  });
}

/** The same with a multipart body. */
export function generateMultipart(
  s: TestServer,
  templateId: string,
  form: FormData,
  opts: { key?: string; idempotencyKey?: string } = {},
) {
  const headers: Record<string, string> = {};
  if (opts.idempotencyKey) headers['idempotency-key'] = opts.idempotencyKey;
  return call(s, `/api/templates/${encodeURIComponent(templateId)}/generate`, {
    method: 'POST',
    body: form,
    key: opts.key,
    headers,
  });
}

/** Presign + PUT: returns the storage key of an uploaded file of the org of `key`. */
export async function upload(s: TestServer, bytes: Buffer, contentType: string, key?: string): Promise<string> {
  const presign = await call(s, '/api/s3/presign-upload', {
    method: 'POST',
    json: { kind: 'upload', contentType },
    key,
  });
  if (presign.status !== 200) throw new Error(`presign failed: ${presign.status} ${JSON.stringify(presign.body)}`);
  const put = await fetch(presign.body.upload_url, {
    method: 'PUT',
    body: new Uint8Array(bytes),
    headers: { 'content-type': contentType },
  });
  if (put.status !== 200) throw new Error(`upload PUT failed: ${put.status} ${await put.text()}`);
  return presign.body.s3_key as string;
}

/** GET /api/generations/:id until it is no longer generating (or the time is up): its last answer. */
export async function finishedGeneration(s: TestServer, id: string, timeoutMs = 120_000): Promise<Loose> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const r = await call(s, `/api/generations/${id}`);
    if (r.body.status !== 'generating' || Date.now() > end) return r.body;
    await new Promise((res) => setTimeout(res, 100));
  }
}

/** A media host on 127.0.0.1: serves `files[path]` with its content type, 404 otherwise; counts hits. */
export async function startMediaHost(files: Record<string, { bytes: Buffer; type: string }>) {
  const hits: string[] = [];
  const server = http.createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0];
    hits.push(path);
    const f = files[path];
    if (!f) {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
      return;
    }
    res.writeHead(200, { 'content-type': f.type, 'content-length': String(f.bytes.length) }).end(f.bytes);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: (path: string) => `http://127.0.0.1:${port}${path}`,
    hits,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** A valid org template body (text-to-video) with overrides. */
export function templateBody(over: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    title: 'My template',
    category: 'text-to-video',
    duration_sec: 4,
    latency_estimate_sec: { typical: 30, busy: 60 },
    input_variables: [{ key: 'topic', label: 'Topic', type: 'text', required: true, min_length: 3, max_length: 50 }],
    prompt_template: 'A video about {{topic}}',
    ...over,
  };
}

export const balanceOf = (s: TestServer, orgId: string) => s.core.credits.balance(orgId);
export const chargesOf = (s: TestServer, orgId: string) =>
  s.core.credits.ledger(orgId, 10_000).filter((e) => e.kind === 'charge');
