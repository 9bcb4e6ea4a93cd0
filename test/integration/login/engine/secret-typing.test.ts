// Where the engine types a saved login's secrets (docs/security.md#a-saved-secret-goes-only-where-it-belongs), below the vault's own check of the page it
// is asked to open: only into the element it chose, and only while the frame and every frame around it up to the
// top-level page are on the saved login's origins. A page of another origin that frames the real login page and
// keeps moving the focus to an input of its own gets nothing — framed from another site, the same site (another
// port) or another loopback address. And a passkey answers only on the saved login's origins, not on every origin
// its RP ID would allow. In each, a recording site proves not one character of a secret arrived.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BrowserPool } from '../../../../src/main/core/login/browser/browser-pool.js';
import { resolveBrowserExecutable } from '../../../../src/main/core/login/browser/browser-resolver.js';
import {
  LoginEngine,
  type EngineLoginRequest,
  type LoginResult,
} from '../../../../src/main/core/login/flow/login-engine.js';
import { startSite, type FixtureSite } from '../../../fixtures/sites/index.js';
import { startPasskeySite, type PasskeySite } from '../../../fixtures/sites/passkey.site.js';
import { focusStealingPage, startRecordingSite } from '../../../helpers/recording-site.js';
import { distinctSecret, findSecrets } from '../../../helpers/vault-logins.js';
import { makePasskey } from '../passkeys/passkey-kit.js';

let pool: BrowserPool;
const engine = new LoginEngine({});
const login = (req: EngineLoginRequest): Promise<LoginResult> => pool.withContext((ctx) => engine.login(ctx, req));
const explain = (r: LoginResult): string => (r.ok ? 'ok' : `${r.reason}: ${r.message}\n${r.steps.join('\n')}`);

beforeAll(() => {
  pool = new BrowserPool({ executablePath: resolveBrowserExecutable({}).path, maxContexts: 2 });
});
afterAll(async () => {
  await pool?.dispose();
});

describe('a login page framed by a page of another origin that steals the focus', () => {
  const password = distinctSecret('framed-pw');
  let legit: FixtureSite;
  let origins: string[];
  beforeAll(async () => {
    legit = await startSite('classic-csrf', { password });
    origins = [legit.origin];
  });
  afterAll(async () => {
    await legit?.close();
  });

  it.each([
    ['another site (localhost)', 'localhost'],
    ['the same site (another port)', '127.0.0.1'],
    ['another loopback address', '127.0.0.2'],
  ] as const)('on %s: nothing is typed, credential_origin_mismatch', async (_name, host) => {
    const attacker = await startRecordingSite(host);
    try {
      attacker.route('/', focusStealingPage(legit.loginUrl));
      const result = await login({
        url: attacker.url('/'),
        username: legit.credentials.username,
        password,
        secretOrigins: origins,
        timeoutMs: 20_000,
      });
      expect(result.ok, explain(result)).toBe(false);
      if (result.ok) return;
      expect(result.reason, explain(result)).toBe('credential_origin_mismatch');
      expect(result.steps.join('\n')).toContain(`framed by a page on ${attacker.origin}`);
      expect(findSecrets(attacker.haystacks(), { password })).toEqual([]);
      expect(attacker.requests.filter((r) => r.url === '/steal' || r.url === '/key')).toEqual([]);
    } finally {
      await attacker.close();
    }
  });

  it('the same login page opened on its own origin still logs in (the control)', async () => {
    const result = await login({
      url: legit.loginUrl,
      username: legit.credentials.username,
      password,
      secretOrigins: origins,
      timeoutMs: 20_000,
    });
    expect(result.ok, explain(result)).toBe(true);
  });
});

describe('a passkey asked for on a sibling origin of its RP ID', () => {
  let site: PasskeySite;
  beforeAll(async () => {
    site = await startPasskeySite();
  });
  afterAll(async () => {
    await site?.close();
  });

  /** A page on localhost:<other port> (the same RP ID, localhost) that asks for an assertion at load and reports. */
  const siblingPage = `<!doctype html><title>Sign in</title><p>Signing in…</p><script>
    (async () => {
      try {
        const c = await navigator.credentials.get({ publicKey: {
          challenge: crypto.getRandomValues(new Uint8Array(32)), rpId: 'localhost', userVerification: 'preferred',
          timeout: 4000 } });
        await fetch('/assertion', { method: 'POST', body: c ? btoa(String.fromCharCode(...new Uint8Array(c.response.signature))) : 'none' });
      } catch (e) {
        await fetch('/refused', { method: 'POST', body: String(e && e.name) });
      }
    })();
  </script>`;

  it('is answered only on the saved login’s origin: the sibling page gets no credential', async () => {
    const sibling = await startRecordingSite('localhost', { '/': siblingPage });
    const passkey = makePasskey(site);
    const counts: Map<string, number>[] = [];
    try {
      const result = await login({
        url: sibling.url('/'),
        username: '',
        password: '',
        method: 'passkey',
        secretOrigins: [site.origin],
        passkeys: { passkeys: [passkey], refusedRpIds: [], saveSignCounts: async (c) => void counts.push(c) },
        timeoutMs: 12_000,
      });
      expect(result.ok, explain(result)).toBe(false);
      await expect.poll(() => sibling.requests.some((r) => r.url === '/refused' || r.url === '/assertion')).toBe(true);
      expect(sibling.requests.filter((r) => r.url === '/assertion')).toEqual([]);
      expect(counts.at(-1)?.get(passkey.credentialId) ?? 0).toBe(0);
    } finally {
      await sibling.close();
    }
  });

  it('the same page on the saved login’s origin gets its assertion (the control)', async () => {
    const sibling = await startRecordingSite('localhost', { '/': siblingPage });
    try {
      const result = await login({
        url: sibling.url('/'),
        username: '',
        password: '',
        method: 'passkey',
        secretOrigins: [sibling.origin],
        passkeys: { passkeys: [makePasskey(site)], refusedRpIds: [], saveSignCounts: async () => {} },
        timeoutMs: 8_000,
      });
      expect(result.steps.join('\n')).toContain('virtual authenticator ready'); // what matters: what the page got
      await expect.poll(() => sibling.requests.some((r) => r.url === '/assertion')).toBe(true);
    } finally {
      await sibling.close();
    }
  });
});
