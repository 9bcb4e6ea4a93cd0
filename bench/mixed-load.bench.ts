// Cached logins while fresh ones run (issue "Performance"): the server in its own process; 8 fresh logins at once in
// a loop (each with its own browser context) and, at the same time, an open-loop stream of cached logins at a fixed
// rate; the cached ones' latency, errors, and the memory of the server's process tree. The soak repeats the round and
// follows the server's RSS from round to round. The fresh logins sign in to a second instance of the site (another
// origin): a fresh login of the very account the cached ones ask for replaces its cache entry (the newest login
// wins), and the cached requests would then wait for a login of their own — a different thing from waiting behind
// other logins, which is what this measures.
import http from 'node:http';
import {
  memorySamplerProcess,
  rssBytes,
  startBenchServer,
  startSiteProcess,
  type BenchServer,
  type SiteProcess,
} from './lib/processes.js';
import { percentile, round } from './lib/stats.js';

const FRESH_AT_ONCE = 8;
const CACHED_PER_SEC = 200;
const ROUND_SEC = Number(process.env.MIXED_ROUND_SEC ?? 60);
const SOAK_ROUNDS = Number(process.env.MIXED_SOAK_ROUNDS ?? 10);
/** The phase of fresh logins alone, before the rounds (memory of 8 at once). */
const FRESH_ONLY_SEC = Number(process.env.MIXED_FRESH_ONLY_SEC ?? 30);

function loginBody(site: SiteProcess, fresh: number | null): string {
  // The same account on both instances; only the origin differs.
  return JSON.stringify({
    cred: { username: site.credentials.username, password: site.credentials.password },
    loginMethod: 'password',
    domain: site.loginUrl,
    useCache: fresh === null,
    // Distinct fields per fresh login: single flight would otherwise merge the concurrent ones.
    ...(fresh === null ? {} : { additionalFields: { bench: String(fresh) } }),
  });
}

function post(agent: http.Agent, s: BenchServer, body: string): Promise<{ status: number; ms: number }> {
  const url = new URL('/api/login', s.server.url);
  const t0 = performance.now();
  return new Promise((resolve) => {
    const req = http.request(
      {
        agent,
        hostname: url.hostname,
        port: url.port,
        path: url.pathname,
        method: 'POST',
        headers: { authorization: `Bearer ${s.key}`, 'content-type': 'application/json' },
      },
      (res) => {
        res.resume();
        res.on('end', () => resolve({ status: res.statusCode ?? 0, ms: performance.now() - t0 }));
      },
    );
    req.on('error', () => resolve({ status: 0, ms: performance.now() - t0 }));
    req.end(body);
  });
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, Math.max(0, ms)));

/** Fresh logins in batches of FRESH_AT_ONCE until `deadline` (performance.now() ms). */
async function freshBatches(s: BenchServer, freshSite: SiteProcess, deadline: number) {
  const freshAgent = new http.Agent({ keepAlive: true, maxSockets: FRESH_AT_ONCE });
  let done = 0;
  let failed = 0;
  for (let batch = 0; performance.now() < deadline; batch++) {
    const results = await Promise.all(
      Array.from({ length: FRESH_AT_ONCE }, (_, i) =>
        post(freshAgent, s, loginBody(freshSite, batch * FRESH_AT_ONCE + i)),
      ),
    );
    done += results.length;
    failed += results.filter((r) => r.status !== 200).length;
  }
  freshAgent.destroy();
  return { done, failed };
}

/** One round: fresh logins in batches of 8 for ROUND_SEC while cached logins go out at CACHED_PER_SEC. */
async function round1(s: BenchServer, site: SiteProcess, freshSite: SiteProcess) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 64 });
  const deadline = performance.now() + ROUND_SEC * 1000;
  const freshLoop = freshBatches(s, freshSite, deadline);
  // Open loop: each cached login is sent on its schedule, whether or not the ones before have been answered.
  const cached: Promise<{ status: number; ms: number }>[] = [];
  const start = performance.now();
  for (let i = 0; start + (i * 1000) / CACHED_PER_SEC < deadline; i++) {
    await sleep(start + (i * 1000) / CACHED_PER_SEC - performance.now());
    cached.push(post(agent, s, loginBody(site, null)));
  }
  const answers = await Promise.all(cached);
  const fresh = await freshLoop;
  agent.destroy();
  const ms = answers.map((a) => a.ms);
  return {
    cached_requests: answers.length,
    cached_errors: answers.filter((a) => a.status !== 200).length,
    cached_p50_ms: round(percentile(ms, 50)),
    cached_p99_ms: round(percentile(ms, 99)),
    cached_max_ms: round(Math.max(...ms)),
    fresh_logins: fresh.done,
    fresh_failed: fresh.failed,
  };
}

export async function runMixedLoadBench(): Promise<Record<string, unknown>> {
  // Each site in its own process: the bench's event loop only sends and times requests.
  const site = await startSiteProcess('classic-csrf');
  const freshSite = await startSiteProcess('classic-csrf');
  const s = await startBenchServer();
  try {
    // The cache entry the cached logins hit, and a warm browser.
    const agent = new http.Agent({ keepAlive: true });
    for (const body of [loginBody(site, null), loginBody(freshSite, -1)])
      if ((await post(agent, s, body)).status !== 200) throw new Error('the priming login failed');
    agent.destroy();

    const pid = s.server.child.pid!;
    // The memory of 8 logins at once on their own (no cached load): the tree's PSS peak and the server's share of it.
    const freshOnlySampler = memorySamplerProcess(pid, 250);
    const freshOnly = await freshBatches(s, freshSite, performance.now() + FRESH_ONLY_SEC * 1000);
    const freshOnlyMem = await freshOnlySampler.stop();
    await sleep(2000);

    const rounds: Record<string, unknown>[] = [];
    const rssAfter: number[] = [];
    let peak = { rss: 0, pss: 0 };
    for (let r = 0; r < SOAK_ROUNDS; r++) {
      const sampler = memorySamplerProcess(pid);
      const result = await round1(s, site, freshSite);
      const mem = await sampler.stop();
      peak = { rss: Math.max(peak.rss, mem.rss), pss: Math.max(peak.pss, mem.pss) };
      await sleep(2000); // the round's contexts closed
      rssAfter.push(rssBytes(pid));
      rounds.push({ ...result, server_rss_mb_after: round(rssAfter[r]! / 2 ** 20, 1) });
      process.stdout.write(`round ${r + 1}: ${JSON.stringify(rounds[r])}\n`);
    }
    const first = rounds[0] as { cached_p99_ms: number; cached_errors: number };
    const growth = rssAfter[rssAfter.length - 1]! / rssAfter[0]!;
    const p99s = rounds.map((r) => (r as { cached_p99_ms: number }).cached_p99_ms);
    const errors = rounds.reduce((n, r) => n + (r as { cached_errors: number }).cached_errors, 0);
    return {
      fresh_at_once: FRESH_AT_ONCE,
      cached_per_sec: CACHED_PER_SEC,
      round_sec: ROUND_SEC,
      rounds: rounds.length,
      first_round: rounds[0],
      cached_p99_ms_first_round: first.cached_p99_ms,
      cached_p99_ms_worst_round: Math.max(...p99s),
      cached_errors_all_rounds: errors,
      target_p99_ms: 50,
      pass_p99: first.cached_p99_ms <= 50 && errors === 0,
      peak_tree_pss_mb: round(peak.pss / 2 ** 20, 1),
      peak_tree_rss_mb: round(peak.rss / 2 ** 20, 1),
      target_pss_mb: 600,
      fresh_only: {
        seconds: FRESH_ONLY_SEC,
        logins: freshOnly.done,
        failed: freshOnly.failed,
        peak_tree_pss_mb: round(freshOnlyMem.pss / 2 ** 20, 1),
        server_pss_mb_at_peak: round(freshOnlyMem.rootPssAtPeak / 2 ** 20, 1),
        target_pss_mb: 600,
        pass: freshOnlyMem.pss / 2 ** 20 <= 600,
      },
      server_rss_mb_after_each_round: rssAfter.map((b) => round(b / 2 ** 20, 1)),
      soak_rss_growth_round1_to_last: round(growth, 3),
      target_growth: 1.1,
      pass_soak: growth <= 1.1,
      round_details: rounds,
      note:
        'server (default config, rate limit raised) and its Chromium in their own process tree; each fixture site in its ' +
        'own process; the load from the bench process; pss/rss of the server tree sampled every 500 ms by a separate process during each round',
    };
  } finally {
    await s.stop();
    await freshSite.close();
    await site.close();
  }
}
