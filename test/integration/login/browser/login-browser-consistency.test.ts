// The browser that logs in and the context the agent then uses do not contradict each other (docs/login-service.md#bot-walls):
// a login's answer says what the login browser presented to the site (`browser`: user agent, language, time zone), the
// same facts come back from the cache and from an async login's state, Playwright takes the answer as it is, and the
// typed client's newLoggedInContext gives the agent's context the same facts. The server here stands for a machine
// in Tokyo with a German desktop (its environment says so), the agent's browser for one in UTC and en-US, so nothing
// matches by chance.
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAgentStudioClient } from '../../../../src/client/agent-studio-client.js';
import { newLoggedInContext } from '../../../../src/client/playwright.js';
import { StorageStateSchema, type StorageState } from '../../../../src/shared/login.schema.js';
import { startBotWall, type FixtureSite, type SeenBrowser } from '../../../fixtures/sites/index.js';
import { launchTestBrowser, opensProtectedPage } from '../../../helpers/browser.js';
import { startTestServer, type TestServer } from '../../../helpers/test-server.js';

type Wall = FixtureSite & { lastSeen(): SeenBrowser | null };

const SERVER_MACHINE = { LANG: 'de_DE.UTF-8', LC_ALL: '', LC_MESSAGES: '', TZ: 'Asia/Tokyo' };

/** What a context presents at the site's /whoami page. */
async function whoami(site: FixtureSite, context: Awaited<ReturnType<Browser['newContext']>>): Promise<SeenBrowser> {
  const page = await context.newPage();
  await page.goto(new URL('/whoami', site.loginUrl).href);
  return JSON.parse(await page.locator('#seen').innerText()) as SeenBrowser;
}

describe('what the login browser presented comes back with the state, and the agent presents the same', () => {
  let t: TestServer;
  let wall: Wall;
  let agent: Browser;
  const body = (extra: Record<string, unknown> = {}) => ({
    cred: { username: wall.credentials.username, password: wall.credentials.password },
    domain: wall.loginUrl,
    ...extra,
  });
  beforeAll(async () => {
    [t, wall, agent] = await Promise.all([
      startTestServer({}, { overrides: { browserEnv: { ...process.env, ...SERVER_MACHINE } } }),
      startBotWall(),
      launchTestBrowser(),
    ]);
  });
  afterAll(() => Promise.all([t?.close(), wall?.close(), agent?.close()]));

  let fresh: StorageState;

  it("a fresh login's answer carries the user agent, language and time zone the site saw", async () => {
    const res = await t.request('/api/login', { method: 'POST', json: body({ useCache: false }) });
    expect(res.status).toBe(200);
    fresh = StorageStateSchema.parse(await res.json());
    const seen = wall.lastSeen()!;
    expect(fresh.browser).toEqual({ userAgent: seen.userAgentHeader, locale: 'de-DE', timezoneId: 'Asia/Tokyo' });
    expect(seen).toMatchObject({ userAgent: seen.userAgentHeader, language: 'de-DE', timeZone: 'Asia/Tokyo' });
    expect(seen.acceptLanguage).toBe('de-DE');
    expect(fresh.browser!.userAgent).toMatch(/Chrome\/\d+/);
    expect(fresh.browser!.userAgent).not.toMatch(/headless/i);
  });

  it('Playwright takes the answer as it is (newContext ignores `browser`), and it opens the account', async () => {
    expect(await opensProtectedPage(agent, wall, fresh)).toBe(true);
  });

  it("newLoggedInContext's context presents to the site what the login browser did", async () => {
    const bare = await agent.newContext();
    const client = createAgentStudioClient({ apiKey: t.key, baseUrl: t.url });
    const context = await newLoggedInContext(agent, {
      client,
      domain: wall.loginUrl,
      username: wall.credentials.username,
      password: wall.credentials.password,
    });
    try {
      // The agent's own browser says otherwise by itself: what the login answer carries is what makes them agree.
      const own = await whoami(wall, bare);
      expect(own).toMatchObject({ language: 'en-US', timeZone: 'UTC' });
      expect(own.userAgent).toMatch(/HeadlessChrome/);
      const seen = await whoami(wall, context);
      expect({
        userAgent: seen.userAgent,
        header: seen.userAgentHeader,
        language: seen.language,
        acceptLanguage: seen.acceptLanguage,
        timeZone: seen.timeZone,
      }).toEqual({
        userAgent: fresh.browser!.userAgent,
        header: fresh.browser!.userAgent,
        language: 'de-DE',
        acceptLanguage: 'de-DE',
        timeZone: 'Asia/Tokyo',
      });
      const page = await context.newPage();
      await page.goto(wall.protectedUrl);
      await page.getByText(wall.loggedInText).first().waitFor({ timeout: 5000 });
    } finally {
      await Promise.all([bare.close(), context.close()]);
    }
  });

  it('a cached answer and an async login’s state carry the same facts', async () => {
    const cached = await t.request('/api/login', { method: 'POST', json: body() });
    expect(cached.headers.get('x-session-cache')).toBe('hit');
    expect((await cached.json()).browser).toEqual(fresh.browser);

    const client = createAgentStudioClient({ apiKey: t.key, baseUrl: t.url });
    const { login_id: id } = await client.startLogin(body({ useCache: false }));
    const { run, state } = await client.waitForLogin(id);
    expect(run.status).toBe('succeeded');
    expect(state?.browser).toEqual(fresh.browser);
  });
});
