// The core's HTTP API over real HTTP on 127.0.0.1 with an API key: the CoreApi the renderer e2e test
// gives the app's IPC dispatcher instead of the in-process one, so the UI is tested over the wire too.
import http from 'node:http';
import type { Readable } from 'node:stream';
import type { CoreApi } from '../../../src/main/core/http/in-process-api.js';

export function createHttpApi(opts: { url: string; key: string }): CoreApi {
  const base = new URL(opts.url);
  return {
    request: (req) =>
      new Promise((resolve, reject) => {
        const target = new URL(req.url, base);
        const out = http.request(
          target,
          { method: req.method, headers: { ...req.headers, authorization: `Bearer ${opts.key}` } },
          (res) => {
            const chunks: Buffer[] = [];
            res.on('data', (c: Buffer) => chunks.push(c));
            res.on('error', reject);
            res.on('end', () =>
              resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString() }),
            );
          },
        );
        out.on('error', reject);
        if (req.body === undefined || typeof req.body === 'string') out.end(req.body);
        else (req.body as Readable).pipe(out);
      }),
    serves: (url) => url.origin === base.origin,
  };
}
