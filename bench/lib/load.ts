import http from 'node:http';

export interface LoadResult {
  requests: number;
  errors: number;
  seconds: number;
  reqPerSec: number;
  p50Ms: number;
  p95Ms: number;
  p99Ms: number;
  statuses: Record<number, number>;
}

/**
 * Keep-alive HTTP load on loopback: `connections` parallel loops for `durationMs` (bounded by
 * `maxRequests`). Latencies are per request, in ms.
 */
export async function load(opts: {
  url: string;
  method?: string;
  headers?: Record<string, string>;
  body?: string;
  connections: number;
  durationMs: number;
  maxRequests?: number;
}): Promise<LoadResult> {
  const target = new URL(opts.url);
  if (!['127.0.0.1', 'localhost', '[::1]'].includes(target.hostname)) throw new Error('load() only targets loopback');
  const agent = new http.Agent({ keepAlive: true, maxSockets: opts.connections });
  const latencies: number[] = [];
  const statuses: Record<number, number> = {};
  let errors = 0;
  let sent = 0;
  const max = opts.maxRequests ?? Infinity;
  const started = performance.now();
  const deadline = started + opts.durationMs;
  const one = () =>
    new Promise<void>((resolve) => {
      const t0 = performance.now();
      const req = http.request(
        {
          agent,
          hostname: target.hostname,
          port: target.port,
          path: target.pathname + target.search,
          method: opts.method ?? 'GET',
          headers: opts.headers,
        },
        (res) => {
          res.on('data', () => {});
          res.on('end', () => {
            latencies.push(performance.now() - t0);
            statuses[res.statusCode ?? 0] = (statuses[res.statusCode ?? 0] ?? 0) + 1;
            resolve();
          });
        },
      );
      req.on('error', () => {
        errors++;
        resolve();
      });
      req.end(opts.body);
    });
  await Promise.all(
    Array.from({ length: opts.connections }, async () => {
      while (performance.now() < deadline && sent < max) {
        sent++;
        await one();
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  agent.destroy();
  const sorted = [...latencies].sort((a, b) => a - b);
  const pct = (p: number) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? NaN;
  return {
    requests: latencies.length,
    errors,
    seconds,
    reqPerSec: latencies.length / seconds,
    p50Ms: pct(50),
    p95Ms: pct(95),
    p99Ms: pct(99),
    statuses,
  };
}
