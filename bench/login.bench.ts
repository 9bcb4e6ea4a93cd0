import fs from 'node:fs';
import path from 'node:path';
import type { BrowserContext } from 'playwright-core';
import { startSite, type FixtureSite } from '../test/fixtures/sites/index.js';
import { MANUAL_SCRIPTS } from '../test/fixtures/sites/manual-scripts.js';
import { firstRunKey, spawnServer } from '../test/helpers/spawn.js';
import { tempDir } from '../test/helpers/temp-dir.js';
import { startTestServer } from '../test/helpers/test-server.js';
import { runCodeArrivalBench } from './login-codes.bench.js';
import { load } from './lib/load.js';
import { interleavedPairs, timed } from './lib/pairs.js';
import { memorySampler, percentile, round } from './lib/stats.js';

const SITE = 'classic-csrf' as const;
const RUNS = 15;

function body(site: FixtureSite, useCache: boolean) {
  return JSON.stringify({
    cred: { username: site.credentials.username, password: site.credentials.password },
    loginMethod: 'password',
    domain: site.loginUrl,
    useCache,
  });
}

/** Concurrency levels of (c); the pool keeps its default maxContexts for both the API and the script. */
const CONCURRENCY = [1, 4, 8] as const;
/** Batches per level (medians of batch wall times; API and script batches alternate). */
const BATCHES: Record<(typeof CONCURRENCY)[number], number> = { 1: 11, 4: 15, 8: 11 };

/** Batches of 8 API logins at once while memory is sampled (after the timed batches). */
const MEMORY_BATCHES = 3;

/**
 * (a) fresh login via the API vs. a hand-written script on the same warm browser, and (c) batches of
 * 1, 4 and 8 concurrent fresh logins, API vs. the script at the same concurrency on the same pool.
 */
async function freshAndConcurrent(site: FixtureSite) {
  const t = await startTestServer({
    server: { rateLimit: { perKeyPerSecond: 1e6, perKeyBurst: 1e6 } },
    log: { level: 'warn' },
  });
  // Distinct additionalFields per concurrent request, so single flight does not merge them (the
  // engine reports the key as not found on the page and goes on).
  const post = (i?: number) =>
    fetch(`${t.url}/api/login`, {
      method: 'POST',
      headers: { authorization: `Bearer ${t.key}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        cred: { username: site.credentials.username, password: site.credentials.password },
        loginMethod: 'password',
        domain: site.loginUrl,
        useCache: false,
        ...(i === undefined ? {} : { additionalFields: { bench: String(i) } }),
      }),
    }).then(async (r) => {
      await r.arrayBuffer();
      if (r.status !== 200) throw new Error(`login failed: ${r.status}`);
    });
  const manual = async (ctx: BrowserContext) => {
    const page = await ctx.newPage();
    await MANUAL_SCRIPTS[SITE].submit(page, site, site.credentials.password);
    await page.waitForURL((u) => u.pathname === new URL(site.protectedUrl).pathname);
    return ctx.storageState();
  };
  const script = () => t.core.login.browsers.withContext(manual);
  try {
    // warm the browser, the server and the script path
    await post();
    await script();
    // Each timed run starts on an idle pool (the contexts of the previous run closed), so no run pays
    // for another's teardown.
    const idlePool = async () => {
      while (t.core.login.browsers.stats().running > 0) await new Promise((r) => setTimeout(r, 5));
      await new Promise((r) => setTimeout(r, 50));
    };
    const api: number[] = [];
    const scriptMs: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      // interleave so drift affects both equally
      await idlePool();
      api.push(await timed(() => post()));
      await idlePool();
      scriptMs.push(await timed(script));
    }
    const fresh = {
      runs: RUNS,
      api_p50_ms: round(percentile(api, 50)),
      api_p95_ms: round(percentile(api, 95)),
      script_p50_ms: round(percentile(scriptMs, 50)),
      script_p95_ms: round(percentile(scriptMs, 95)),
      ratio_p50: round(percentile(api, 50) / percentile(scriptMs, 50)),
      target_ratio: 1.1,
    };

    const levels: Record<string, unknown> = {};
    // API and script batches alternate which goes first in each pair.
    for (const n of CONCURRENCY) {
      const apiBatch = () => Promise.all(Array.from({ length: n }, (_, i) => post(i)));
      const scriptBatch = () => Promise.all(Array.from({ length: n }, script));
      const {
        medianA: a,
        medianB: m,
        pairedRatio,
      } = await interleavedPairs(BATCHES[n], apiBatch, scriptBatch, idlePool);
      levels[String(n)] = {
        batches: BATCHES[n],
        api_wall_ms: round(a),
        script_wall_ms: round(m),
        ratio: round(a / m),
        // Each API batch against the script batch next to it (drift on the machine cancels out).
        paired_ratio: round(pairedRatio),
        api_logins_per_min: Math.round((n / a) * 60_000),
        script_logins_per_min: Math.round((n / m) * 60_000),
      };
    }
    // Memory on its own, so sampling /proc does not weigh on the timed batches: 8 logins at once
    // through the API, as a user's agents would start them.
    const sampler = memorySampler(process.pid);
    for (let b = 0; b < MEMORY_BATCHES; b++) await Promise.all(Array.from({ length: 8 }, (_, i) => post(i)));
    const peak = sampler.stop();
    const concurrent = {
      levels,
      target_ratio: 1.05,
      max_contexts: t.core.config.browser.maxContexts,
      peak_rss_mb: round(peak.rss / 1024 / 1024, 1),
      peak_pss_mb: round(peak.pss / 1024 / 1024, 1),
      memory_note:
        `${MEMORY_BATCHES} batches of 8 logins at once through the API; bench process (API server in-process) plus its Chromium ` +
        'processes. rss sums each process (shared pages count once per process), pss shares them out',
      target_peak_rss_mb: 1536,
      note: 'median wall time of a batch of n logins started at once on an idle pool; API and script batches alternate, same pool',
    };
    return { fresh, concurrent };
  } finally {
    await t.close();
  }
}

/** (b) cached login over HTTP against the headless server in its own process. */
async function cached(site: FixtureSite) {
  const dataDir = tempDir();
  fs.writeFileSync(
    path.join(dataDir, 'config.json'),
    JSON.stringify({ server: { rateLimit: { perKeyPerSecond: 1e6, perKeyBurst: 1e6 } } }),
  );
  const server = await spawnServer(['--port', '0', '--data-dir', dataDir]);
  try {
    const key = firstRunKey(server);
    const headers = { authorization: `Bearer ${key}`, 'content-type': 'application/json' };
    const prime = await fetch(`${server.url}/api/login`, { method: 'POST', headers, body: body(site, true) });
    if (prime.status !== 200) throw new Error(`priming login failed: ${prime.status}`);
    // warm-up, then measure: latency at concurrency 1, throughput at concurrency 16
    await load({
      url: `${server.url}/api/login`,
      method: 'POST',
      headers,
      body: body(site, true),
      connections: 8,
      durationMs: 2000,
    });
    const serial = await load({
      url: `${server.url}/api/login`,
      method: 'POST',
      headers,
      body: body(site, true),
      connections: 1,
      durationMs: 3000,
    });
    const parallel = await load({
      url: `${server.url}/api/login`,
      method: 'POST',
      headers,
      body: body(site, true),
      connections: 16,
      durationMs: 5000,
    });
    if (Object.keys(parallel.statuses).some((s) => s !== '200'))
      throw new Error(`non-200 answers: ${JSON.stringify(parallel.statuses)}`);
    return {
      p50_ms_at_concurrency_1: round(serial.p50Ms, 3),
      p95_ms_at_concurrency_1: round(serial.p95Ms, 3),
      req_per_sec_at_concurrency_16: Math.round(parallel.reqPerSec),
      p50_ms_at_concurrency_16: round(parallel.p50Ms, 3),
      requests: parallel.requests,
      target_p50_ms: 3,
      target_req_per_sec: 3000,
      note: 'server in its own process (default logging), load generator in the bench process, same 2-core machine',
    };
  } finally {
    server.child.kill('SIGTERM');
    await server.exited;
  }
}

export async function runLoginBench(): Promise<Record<string, unknown>> {
  const site = await startSite(SITE);
  try {
    const { fresh, concurrent } = await freshAndConcurrent(site);
    const cache = await cached(site);
    const codes = await runCodeArrivalBench();
    return {
      site: SITE,
      fresh_login: fresh,
      cached_login: cache,
      concurrent_logins: concurrent,
      code_arrival_to_login: codes,
    };
  } finally {
    await site.close();
  }
}
