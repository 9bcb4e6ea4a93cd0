import Fastify from 'fastify';
import type { AddressInfo } from 'node:net';
import { startTestServer } from '../test/helpers/test-server.js';
import { load, type LoadResult } from './lib/load.js';
import { percentile, round } from './lib/stats.js';

const CONNECTIONS = 16;
const DURATION_MS = 1000;
/** Short interleaved rounds: a busy machine slows both sides alike; the median pair ratio is reported. */
const ROUNDS = 6;

const summary = (r: LoadResult) => ({
  req_per_sec: round(r.reqPerSec, 0),
  p50_ms: round(r.p50Ms),
  p95_ms: round(r.p95Ms),
  p99_ms: round(r.p99Ms),
  requests: r.requests,
  errors: r.errors,
  non_200: Object.entries(r.statuses)
    .filter(([s]) => s !== '200')
    .reduce((n, [, c]) => n + c, 0),
});

/**
 * GET /api/templates (auth + rate limit + zod query + SQLite + JSON) against a bare Fastify route
 * answering the same JSON from memory, in the same process and run, on loopback. Target: >= 0.5x.
 */
export async function runTemplatesBench(): Promise<Record<string, unknown>> {
  const t = await startTestServer({
    server: { rateLimit: { perKeyPerSecond: 1e6, perKeyBurst: 1e6 } },
    log: { level: 'warn' },
  });
  const bare = Fastify({ logger: false });
  try {
    const first = await fetch(`${t.url}/api/templates`, { headers: { authorization: `Bearer ${t.key}` } });
    if (first.status !== 200) throw new Error(`GET /api/templates answered ${first.status}`);
    const payload = await first.text();
    bare.get('/api/templates', async (_req, reply) => reply.type('application/json; charset=utf-8').send(payload));
    await bare.listen({ host: '127.0.0.1', port: 0 });
    const bareUrl = `http://127.0.0.1:${(bare.server.address() as AddressInfo).port}/api/templates`;

    const opts = { connections: CONNECTIONS, durationMs: DURATION_MS };
    await load({ ...opts, url: bareUrl, durationMs: 500 }); // warm-up
    await load({
      ...opts,
      url: `${t.url}/api/templates`,
      headers: { authorization: `Bearer ${t.key}` },
      durationMs: 500,
    });
    const api: LoadResult[] = [];
    const baseline: LoadResult[] = [];
    for (let i = 0; i < ROUNDS; i++) {
      // interleaved so machine drift affects both equally
      baseline.push(await load({ ...opts, url: bareUrl }));
      api.push(await load({ ...opts, url: `${t.url}/api/templates`, headers: { authorization: `Bearer ${t.key}` } }));
    }
    const best = (rs: LoadResult[]) => rs.reduce((a, b) => (b.reqPerSec > a.reqPerSec ? b : a));
    const ratios = api.map((a, i) => a.reqPerSec / baseline[i].reqPerSec);
    const ratio = percentile(ratios, 50);
    return {
      payload_bytes: Buffer.byteLength(payload),
      templates_listed: (JSON.parse(payload) as { data: unknown[] }).data.length,
      connections: CONNECTIONS,
      duration_ms_per_round: DURATION_MS,
      rounds: ROUNDS,
      api_best: summary(best(api)),
      bare_fastify_best: summary(best(baseline)),
      round_ratios: ratios.map((r) => round(r)),
      ratio: round(ratio),
      target_ratio: 0.5,
      pass: ratio >= 0.5,
    };
  } finally {
    await bare.close();
    await t.close();
  }
}
