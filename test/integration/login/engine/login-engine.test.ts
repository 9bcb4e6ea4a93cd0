import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BrowserPool } from '../../../../src/main/core/login/browser-pool.js';
import { resolveBrowserExecutable } from '../../../../src/main/core/login/browser-resolver.js';
import {
  LoginEngine,
  type EngineLoginRequest,
  type LoginResult,
} from '../../../../src/main/core/login/login-engine.js';
import type { LogSink } from '../../../../src/main/core/logger.js';
import {
  ALL_SITES,
  NON_LOGINABLE_SITES,
  startSite,
  type FixtureSite,
  type SiteName,
} from '../../../fixtures/sites/index.js';

const WRONG_PASSWORD = 'Tr0ub4dor&3-wrong';
const logLines: string[] = [];
const recordingLog: LogSink = {
  debug: (o, m) => logLines.push(JSON.stringify([o, m])),
  info: (o, m) => logLines.push(JSON.stringify([o, m])),
  warn: (o, m) => logLines.push(JSON.stringify([o, m])),
  error: (o, m) => logLines.push(JSON.stringify([o, m])),
};

let pool: BrowserPool;
const engine = new LoginEngine({ log: recordingLog });

beforeAll(() => {
  pool = new BrowserPool({ executablePath: resolveBrowserExecutable({}).path, maxContexts: 3, log: recordingLog });
});

afterAll(async () => {
  await pool?.dispose();
});

function login(req: EngineLoginRequest, signal?: AbortSignal): Promise<LoginResult> {
  return pool.withContext((ctx) => engine.login(ctx, req, signal));
}

/** Nothing secret may appear in the trace, the message or the logs. */
function expectNoSecrets(result: LoginResult, secrets: string[]): void {
  const text = JSON.stringify({ steps: result.steps, message: result.ok ? '' : result.message }) + logLines.join('\n');
  for (const s of secrets) expect(text).not.toContain(s);
}

/** Opens protectedUrl in a NEW context seeded with the returned storageState. */
async function expectSessionWorks(site: FixtureSite, result: LoginResult): Promise<void> {
  if (!result.ok) throw new Error(`login failed: ${result.reason}: ${result.message}\n${result.steps.join('\n')}`);
  await pool.withContext(
    async (ctx) => {
      const page = await ctx.newPage();
      await page.goto(site.protectedUrl);
      await page.getByText(site.loggedInText).first().waitFor({ state: 'visible', timeout: 10_000 });
    },
    { contextOptions: { storageState: result.storageState } },
  );
}

const LOGINABLE = ALL_SITES.filter((s) => !NON_LOGINABLE_SITES.includes(s));

describe.concurrent('LoginEngine on fixture sites: correct credentials', () => {
  it.each(LOGINABLE)('%s: logs in and the returned session opens the protected page', async (name: SiteName) => {
    const site = await startSite(name);
    try {
      const { username, password, additionalFields } = site.credentials;
      const result = await login({ url: site.loginUrl, username, password, additionalFields });
      await expectSessionWorks(site, result);
      expect(site.stats()).toEqual({ loginAttempts: 1, successfulLogins: 1 });
      expect(result.steps[0]).toMatch(/^opened login page/);
      expect(result.steps.some((s) => s.startsWith('login succeeded'))).toBe(true);
      expectNoSecrets(result, [password, ...Object.values(additionalFields ?? {})]);
    } finally {
      await site.close();
    }
  });
});

describe.concurrent('LoginEngine on fixture sites: failures', () => {
  it.each(LOGINABLE)('%s: a wrong password gives invalid_credentials after one attempt', async (name: SiteName) => {
    const site = await startSite(name);
    try {
      const { username, additionalFields } = site.credentials;
      const result = await login({ url: site.loginUrl, username, password: WRONG_PASSWORD, additionalFields });
      expect(result).toMatchObject({ ok: false, reason: 'invalid_credentials' });
      expect(site.stats()).toEqual({ loginAttempts: 1, successfulLogins: 0 });
      expectNoSecrets(result, [WRONG_PASSWORD, username]);
    } finally {
      await site.close();
    }
  });

  it.each([
    ['captcha', 'captcha_blocked'],
    ['locked', 'account_locked'],
    ['mfa', 'mfa_required'],
  ] as const)('%s: correct credentials end in %s', async (name, reason) => {
    const site = await startSite(name);
    try {
      const { username, password } = site.credentials;
      const result = await login({ url: site.loginUrl, username, password });
      expect(result).toMatchObject({ ok: false, reason });
      expect(site.stats().successfulLogins).toBe(0);
      expectNoSecrets(result, [password]);
    } finally {
      await site.close();
    }
  });
});
