import type { BrowserContext } from 'playwright-core';
import { REAL_WEB4_SITES, REAL_WEB_SITES, startSite, type FixtureSite } from '../test/fixtures/sites/index.js';
import { MANUAL_SCRIPTS } from '../test/fixtures/sites/manual-scripts.js';
import { startTestServer, type TestServer } from '../test/helpers/test-server.js';
import { interleavedPairs } from './lib/pairs.js';
import { round } from './lib/stats.js';

/** Timed pairs (one API login, one script run) per site, after one warm-up pair. */
const RUNS = 5;
/** The site whose page never goes quiet, and how much slower than the script the engine may be there. */
const POLLING_SITE = 'polling-console' as const;
const POLLING_TARGET_RATIO = 1.2;

/** Never let a password reach the output, even if an error message were to quote it. */
const redact = (text: string, site: FixtureSite) => text.split(site.credentials.password).join('***');

async function apiLogin(t: TestServer, site: FixtureSite): Promise<void> {
  const r = await fetch(`${t.url}/api/login`, {
    method: 'POST',
    headers: { authorization: `Bearer ${t.key}`, 'content-type': 'application/json' },
    body: JSON.stringify({
      cred: { username: site.credentials.username, password: site.credentials.password },
      loginMethod: 'password',
      domain: site.loginUrl,
      useCache: false,
    }),
  });
  const text = await r.text();
  if (r.status === 200) return;
  let detail = text.slice(0, 300);
  try {
    const json = JSON.parse(text) as { error?: unknown; message?: unknown };
    const error = typeof json.error === 'object' ? JSON.stringify(json.error) : json.error;
    detail = [error, json.message].filter((x) => x !== undefined).join(': ');
  } catch {
    // not JSON: keep the start of the body
  }
  throw new Error(redact(`${site.name}: API login failed: ${r.status} ${detail}`, site));
}

/** The hand-written script on a context of the engine's own pool, until the page shows the signed-in state. */
function scriptLogin(t: TestServer, site: FixtureSite, name: (typeof BENCH_SITES)[number]) {
  return t.core.login.browsers.withContext(async (ctx: BrowserContext) => {
    const page = await ctx.newPage();
    await MANUAL_SCRIPTS[name].submit(page, site, site.credentials.password);
    // The sites differ in what the URL does on success (same URL, hash, redirect): wait for the text.
    await page.getByText(site.loggedInText).first().waitFor();
    return ctx.storageState();
  });
}

/** Every real-web style (issue 42: "no style over 1.2x of a hand-written script"). */
const BENCH_SITES = [...REAL_WEB_SITES, ...REAL_WEB4_SITES];

/**
 * Fresh login on each real-web fixture site (a late dialog, an email-first identifier step, HTTP Basic, a CPU-heavy
 * boot, a page that never goes quiet, an icon-only submit, a cross-origin sign-in frame, a Material card, …): the
 * login engine through POST /api/login against the site's hand-written Playwright script on the same browser pool.
 */
export async function runRealWebLoginBench(): Promise<Record<string, unknown>> {
  const t = await startTestServer({
    server: { rateLimit: { perKeyPerSecond: 1e6, perKeyBurst: 1e6 } },
    log: { level: 'warn' },
    login: { timeoutMs: 30_000 },
  });
  // Each timed run starts on an idle pool (the contexts of the previous run closed).
  const idlePool = async () => {
    while (t.core.login.browsers.stats().running > 0) await new Promise((r) => setTimeout(r, 5));
    await new Promise((r) => setTimeout(r, 50));
  };
  const sites: Record<string, Record<string, number>> = {};
  try {
    for (const name of BENCH_SITES) {
      process.stdout.write(`  ${name} …`);
      const site = await startSite(name);
      try {
        const api = () => apiLogin(t, site);
        const script = () => scriptLogin(t, site, name);
        // warm the site, the browser and both paths
        await idlePool();
        await api();
        await idlePool();
        await script();
        const { medianA: a, medianB: s, pairedRatio } = await interleavedPairs(RUNS, api, script, idlePool);
        sites[name] = {
          api_p50_ms: round(a),
          script_p50_ms: round(s),
          ratio_p50: round(a / s),
          paired_ratio: round(pairedRatio),
          runs: RUNS,
        };
        process.stdout.write(` api ${Math.round(a)} ms, script ${Math.round(s)} ms\n`);
      } catch (err) {
        process.stdout.write(' failed\n');
        throw err;
      } finally {
        await site.close();
      }
    }
  } finally {
    await t.close();
  }
  return {
    sites,
    polling_page: {
      site: POLLING_SITE,
      ratio_p50: sites[POLLING_SITE]?.ratio_p50,
      target_ratio: POLLING_TARGET_RATIO,
    },
    note:
      `per site: ${RUNS} interleaved pairs after one warm-up pair, each run on an idle pool; API = POST /api/login ` +
      '(useCache false) to an in-process server, script = the hand-written Playwright script on a context of the ' +
      "same pool until the site's logged-in text shows, then storageState(). ratio_p50 = API median / script " +
      'median; paired_ratio = median of API/script per pair',
  };
}
