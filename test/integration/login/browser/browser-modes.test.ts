// The person's real browser when headless is refused (docs/login-service.md#bot-walls): a sign-in page whose wall refuses browsers
// without a window (bot-wall's `wall: 'headless'`: BotD, plus the window frame a headless build lacks) refuses the
// default mode every time and lets `headed` (a real window, off-screen; here on the app's own Xvfb when there is no
// display) and `own-chrome` (the installed browser, found by the resolver) through, each 5 of 5; a saved login's mode
// is used when the request names none, and the request's wins over it. Without Xvfb and a display, headed is a typed
// 503, never a 500.
import { execFileSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolveInstalledBrowser } from '../../../../src/main/core/login/browser/browser-resolver.js';
import { findOnPath } from '../../../../src/main/electron/system-tools.js';
import { BOT_WALL_REFUSAL, startBotWall, type FixtureSite, type SeenBrowser } from '../../../fixtures/sites/index.js';
import { requireSystemPart } from '../../../helpers/requires.js';
import { startTestServer, tempDir, type TestServer } from '../../../helpers/test-server.js';

type Wall = FixtureSite & { lastSeen(): SeenBrowser | null };

const RUNS = 5;

// Linux without a display: the app starts its own Xvfb for a headed browser, so Xvfb must be there (CI has it).
const skipReason =
  process.platform !== 'linux'
    ? 'the headed-browser tests run on Linux'
    : !process.env.DISPLAY &&
        !requireSystemPart(
          'Xvfb',
          !!findOnPath('Xvfb', process.env, process.platform),
          'Debian: apt-get install xvfb; a headed Chromium needs a display',
        )
      ? 'no display and no Xvfb'
      : null;

/** The state's cookies open the account page (server-rendered: the cookie header is the whole proof). */
async function signedIn(site: FixtureSite, state: { cookies: { name: string; value: string }[] }): Promise<boolean> {
  const cookie = state.cookies.map((c) => `${c.name}=${c.value}`).join('; ');
  const res = await fetch(site.protectedUrl, { headers: { cookie }, redirect: 'manual' });
  return res.status === 200 && (await res.text()).includes(site.loggedInText);
}

describe.skipIf(skipReason !== null)(
  `browser modes against a wall that refuses headless browsers${skipReason ? ` (skipped: ${skipReason})` : ''}`,
  () => {
    let t: TestServer;
    let wall: Wall;
    const body = (extra: Record<string, unknown> = {}) => ({
      cred: { username: wall.credentials.username, password: wall.credentials.password },
      domain: wall.loginUrl,
      useCache: false,
      ...extra,
    });
    beforeAll(async () => {
      [t, wall] = await Promise.all([startTestServer(), startBotWall({ wall: 'headless' })]);
    });
    afterAll(() => Promise.all([t?.close(), wall?.close()]));

    it(`the default (headless) browser is refused as a bot: BOT_DETECTED, ${RUNS} of ${RUNS}`, async () => {
      for (let run = 1; run <= RUNS; run++) {
        const res = await t.request('/api/login', { method: 'POST', json: body() });
        const answer = await res.json();
        expect({ run, status: res.status, error: answer.error, frame: wall.lastSeen()?.frame }).toEqual({
          run,
          status: 403,
          error: 'BOT_DETECTED',
          frame: { width: 0, height: 0 }, // no window around the page: what the wall looks for
        });
        expect(answer.message).toContain(BOT_WALL_REFUSAL);
      }
    });

    it(`mode "headed" logs in, and the state opens the account (${RUNS} of ${RUNS})`, async () => {
      for (let run = 1; run <= RUNS; run++) {
        const res = await t.request('/api/login', { method: 'POST', json: body({ browser: { mode: 'headed' } }) });
        const answer = await res.json();
        const seen = wall.lastSeen();
        expect({ run, status: res.status, framed: (seen?.frame.height ?? 0) > 0, position: seen?.position }).toEqual({
          run,
          status: 200,
          framed: true,
          position: { x: -10000, y: -10000 }, // off-screen: the person at the computer sees no window
        });
        expect(await signedIn(wall, answer)).toBe(true);
        expect(answer.browser.userAgent).toBe(seen!.userAgentHeader);
        expect(answer.browser.userAgent).not.toMatch(/headless/i);
      }
    });

    it(`mode "own-chrome" launches the installed browser the resolver finds, and logs in (${RUNS} of ${RUNS})`, async () => {
      for (let run = 1; run <= RUNS; run++) {
        const res = await t.request('/api/login', { method: 'POST', json: body({ browser: { mode: 'own-chrome' } }) });
        expect({ run, status: res.status }).toEqual({ run, status: 200 });
        expect(await signedIn(wall, await res.json())).toBe(true);
      }
      // On this machine: Debian's /usr/bin/chromium (the only browser installed); its own --version is what ran.
      const installed = resolveInstalledBrowser().path;
      const launched = t.core.login.browsers.launched('own-chrome');
      expect(launched?.executablePath).toBe(installed);
      const version = /(\d+\.\d+\.\d+\.\d+)/.exec(
        execFileSync(installed, ['--version'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }),
      )?.[1];
      expect(launched?.version).toBe(version);
    });

    it("a saved login's mode is used when the request names none, and the request's wins over it", async () => {
      const created = await t.request('/api/credentials', {
        method: 'POST',
        json: {
          label: 'Northgate (headed)',
          loginUrl: wall.loginUrl,
          username: wall.credentials.username,
          password: wall.credentials.password,
          browser: { mode: 'headed' },
        },
      });
      expect(created.status).toBe(201);
      expect((await created.json()).browser).toEqual({ mode: 'headed' });
      const byReference = await t.request('/api/login', {
        method: 'POST',
        json: { credential: 'Northgate (headed)', useCache: false },
      });
      expect(byReference.status).toBe(200);
      expect(await signedIn(wall, await byReference.json())).toBe(true);
      const overridden = await t.request('/api/login', {
        method: 'POST',
        json: { credential: 'Northgate (headed)', useCache: false, browser: { mode: 'headless' } },
      });
      expect({ status: overridden.status, error: (await overridden.json()).error }).toEqual({
        status: 403,
        error: 'BOT_DETECTED',
      });
    });

    it('without a display and without Xvfb, mode "headed" is 503 DISPLAY_UNAVAILABLE saying why', async () => {
      const noXvfb = await startTestServer(
        {},
        { overrides: { browserEnv: { ...process.env, DISPLAY: '', PATH: tempDir('no-xvfb-') } } },
      );
      try {
        const res = await noXvfb.request('/api/login', { method: 'POST', json: body({ browser: { mode: 'headed' } }) });
        const answer = await res.json();
        expect({ status: res.status, error: answer.error, details: answer.details }).toEqual({
          status: 503,
          error: 'DISPLAY_UNAVAILABLE',
          details: { mode: 'headed', reason: 'xvfb_missing' },
        });
        expect(answer.message).toMatch(/no DISPLAY is set and Xvfb is not installed/);
      } finally {
        await noXvfb.close();
      }
    });
  },
);
