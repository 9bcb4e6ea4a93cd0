import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import type { Readable } from 'node:stream';

export interface RawResponse {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
}

/**
 * An HTTP request with a streamed body via node:http (fetch cannot send a lying Content-Length or
 * stream without buffering). Resolves with the response even if the server closes the upload early.
 */
export function sendRaw(
  url: string,
  opts: {
    method?: string;
    headers?: Record<string, string | number>;
    body?: Readable | Buffer;
    endWithoutBody?: boolean;
  },
): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    let answered = false;
    const req = http.request(url, { method: opts.method ?? 'PUT', headers: opts.headers }, (res) => {
      answered = true;
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (body += c));
      res.on('end', () => {
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body });
        req.destroy();
      });
      res.on('error', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
    });
    req.on('error', (err) => {
      if (!answered) reject(err);
    });
    if (Buffer.isBuffer(opts.body)) req.end(opts.body);
    else if (opts.body) {
      opts.body.on('error', (err) => req.destroy(err));
      opts.body.pipe(req);
    } else if (opts.endWithoutBody) req.flushHeaders();
    else req.end();
  });
}

/** Every file under dir (recursively), relative paths. */
export function listFiles(dir: string): string[] {
  if (!fs.existsSync(dir)) return [];
  return (fs.readdirSync(dir, { recursive: true }) as string[])
    .filter((p) => fs.statSync(path.join(dir, p)).isFile())
    .sort();
}

/** Waits (polling a condition, not a fixed sleep) until fn() is true or the deadline passes. */
export async function waitFor(fn: () => boolean, timeoutMs = 5000, stepMs = 20): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (!fn()) {
    if (Date.now() > until) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, stepMs));
  }
}
