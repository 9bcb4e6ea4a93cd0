import { startSite, type FixtureSite } from '../test/fixtures/sites/index.js';
import { startTestServer, type TestServer } from '../test/helpers/test-server.js';
import { interleavedPairs } from './lib/pairs.js';
import { round } from './lib/stats.js';

/** Interleaved pairs (by reference, inline) of fresh logins, and of cache hits. */
const FRESH_PAIRS = 21;
const HIT_PAIRS = 300;
/** What a login by reference may cost over the same login with inline cred (issue "saved logins"). */
const TARGET_RATIO = 1.02;
const LABEL = 'bench site';

async function login(t: TestServer, body: Record<string, unknown>, site: FixtureSite): Promise<void> {
  const r = await fetch(`${t.url}/api/login`, {
    method: 'POST',
    headers: { authorization: `Bearer ${t.key}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  const text = await r.text();
  if (r.status !== 200)
    throw new Error(`login failed: ${r.status} ${text.slice(0, 200).split(site.credentials.password).join('***')}`);
}

/**
 * A login by reference to a saved login ({credential}) against the same login with inline cred, on the
 * classic-csrf fixture site: fresh logins (useCache false: the secrets are read from the OS keychain, the
 * origin is checked before each field is typed, the use is logged) and cache hits.
 */
export async function runVaultBench(): Promise<Record<string, unknown>> {
  const t = await startTestServer({
    server: { rateLimit: { perKeyPerSecond: 1e6, perKeyBurst: 1e6 } },
    log: { level: 'warn' },
    login: { timeoutMs: 30_000 },
  });
  const site = await startSite('classic-csrf');
  try {
    await t.core.login.vault.savedLogins.create(
      t.orgId,
      {
        label: LABEL,
        loginUrl: site.loginUrl,
        loginMethod: 'password',
        username: site.credentials.username,
        password: site.credentials.password,
        shareWith: 'all',
      },
      'api',
    );
    const inline = (useCache: boolean) => ({
      cred: { username: site.credentials.username, password: site.credentials.password },
      domain: site.loginUrl,
      useCache,
    });
    const byReference = (useCache: boolean) => ({ credential: LABEL, useCache });
    const idlePool = async () => {
      while (t.core.login.browsers.stats().running > 0) await new Promise((r) => setTimeout(r, 5));
      await new Promise((r) => setTimeout(r, 30));
    };
    // warm both paths (and the cache entry both share: same site, username and password)
    for (const body of [inline(false), byReference(false), inline(true), byReference(true)]) await login(t, body, site);
    const fresh = await interleavedPairs(
      FRESH_PAIRS,
      () => login(t, byReference(false), site),
      () => login(t, inline(false), site),
      idlePool,
    );
    const hits = await interleavedPairs(
      HIT_PAIRS,
      () => login(t, byReference(true), site),
      () => login(t, inline(true), site),
      async () => {},
    );
    process.stdout.write(
      `  fresh: reference ${Math.round(fresh.medianA)} ms, inline ${Math.round(fresh.medianB)} ms; ` +
        `cache hit: reference ${hits.medianA.toFixed(2)} ms, inline ${hits.medianB.toFixed(2)} ms\n`,
    );
    return {
      fresh: {
        reference_p50_ms: round(fresh.medianA),
        inline_p50_ms: round(fresh.medianB),
        paired_ratio: round(fresh.pairedRatio, 3),
        target_ratio: TARGET_RATIO,
        pairs: FRESH_PAIRS,
      },
      cache_hit: {
        reference_p50_ms: round(hits.medianA, 2),
        inline_p50_ms: round(hits.medianB, 2),
        paired_ratio: round(hits.pairedRatio, 3),
        pairs: HIT_PAIRS,
      },
      note:
        'classic-csrf fixture site, POST /api/login to an in-process server; reference = {credential: label} (secrets ' +
        'from the secret store, origin checked before typing, use logged), inline = {cred, domain}; interleaved pairs, ' +
        'fresh logins each on an idle browser pool; paired_ratio = median of reference/inline per pair',
    };
  } finally {
    await site.close();
    await t.close();
  }
}
