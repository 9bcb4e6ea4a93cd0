import fs from 'node:fs';
import path from 'node:path';
import type { BrowserContext } from 'playwright-core';
import { startSite, type FixtureSite } from '../test/fixtures/sites/index.js';
import { MANUAL_SCRIPTS } from '../test/fixtures/sites/manual-scripts.js';
import { spawnServer } from '../test/helpers/spawn.js';
import { tempDir } from '../test/helpers/temp-dir.js';
import { startTestServer } from '../test/helpers/test-server.js';
import { load } from './lib/load.js';
import { percentile, round, rssSampler } from './lib/stats.js';

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

/** (a) fresh login via the API vs. a hand-written script on the same warm browser, and (c) 8 concurrent fresh logins. */
async function freshAndConcurrent(site: FixtureSite) {
  const t = await startTestServer({
    server: { rateLimit: { perKeyPerSecond: 1e6, perKeyBurst: 1e6 } },
    log: { level: 'warn' },
  });
  const post = (useCache: boolean) =>
    fetch(`${t.url}/api/login`, {
      method: 'POST',
      headers: { authorization: `Bearer ${t.key}`, 'content-type': 'application/json' },
      body: body(site, useCache),
    });
  try {
    // warm the browser
    if ((await post(false)).status !== 200) throw new Error('warm-up login failed');
    const manual = async (ctx: BrowserContext) => {
      const page = await ctx.newPage();
      await MANUAL_SCRIPTS[SITE].submit(page, site, site.credentials.password);
      await page.waitForURL((u) => u.pathname === new URL(site.protectedUrl).pathname);
      return ctx.storageState();
    };
    await t.core.login.browsers.withContext(manual);
    const api: number[] = [];
    const script: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      // interleave so drift affects both equally
      let t0 = performance.now();
      const res = await post(false);
      if (res.status !== 200) throw new Error(`login failed: ${res.status}`);
      await res.arrayBuffer();
      api.push(performance.now() - t0);
      t0 = performance.now();
      await t.core.login.browsers.withContext(manual);
      script.push(performance.now() - t0);
    }
    const fresh = {
      runs: RUNS,
      api_p50_ms: round(percentile(api, 50)),
      api_p95_ms: round(percentile(api, 95)),
      script_p50_ms: round(percentile(script, 50)),
      script_p95_ms: round(percentile(script, 95)),
      ratio_p50: round(percentile(api, 50) / percentile(script, 50)),
      target_ratio: 1.3,
    };

    // (c) one fresh login, then 8 at once (distinct usernames so single flight does not merge them)
    const many = (n: number) =>
      Promise.all(
        Array.from({ length: n }, (_, i) =>
          fetch(`${t.url}/api/login`, {
            method: 'POST',
            headers: { authorization: `Bearer ${t.key}`, 'content-type': 'application/json' },
            body: JSON.stringify({
              cred: { username: site.credentials.username, password: site.credentials.password },
              domain: site.loginUrl,
              useCache: false,
              additionalFields: { bench: String(i) },
            }),
          }).then(async (r) => {
            await r.arrayBuffer();
            if (r.status !== 200) throw new Error(`concurrent login failed: ${r.status}`);
          }),
        ),
      );
    const median = async (fn: () => Promise<unknown>, n = 5) => {
      const times: number[] = [];
      for (let i = 0; i < n; i++) {
        const t0 = performance.now();
        await fn();
        times.push(performance.now() - t0);
      }
      return percentile(times, 50);
    };
    const one = await median(() => many(1));
    const sampler = rssSampler(process.pid);
    const eight = await median(() => many(8), 3);
    const peak = sampler.stop();
    // Baseline: the hand-written script under the same concurrency on the same pool.
    const manualOne = await median(() => t.core.login.browsers.withContext(manual));
    const manualEight = await median(
      () => Promise.all(Array.from({ length: 8 }, () => t.core.login.browsers.withContext(manual))),
      3,
    );
    const concurrent = {
      one_ms: round(one),
      eight_wall_ms: round(eight),
      ratio: round(eight / one),
      target_ratio: 3,
      script_one_ms: round(manualOne),
      script_eight_wall_ms: round(manualEight),
      script_ratio: round(manualEight / manualOne),
      max_contexts: t.core.config.browser.maxContexts,
      peak_rss_mb: round(peak / 1024 / 1024, 1),
      rss_note: 'bench process (API server in-process) plus its Chromium processes',
      target_peak_rss_mb: 1536,
      note: 'medians (5 single, 3 batches of 8); script_* is the hand-written script at the same concurrency, for comparison',
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
    const key = /^\s+(pk_\S+)$/m.exec(server.stdout())?.[1];
    if (!key) throw new Error('no first-run key');
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
    return { site: SITE, fresh_login: fresh, cached_login: cache, concurrent_logins: concurrent };
  } finally {
    await site.close();
  }
}
