// A sign-in page behind the real BotD detector (test/fixtures/sites/bot-wall.site.ts): the login browser passes it by
// default, each of BotD's detections and the usual client checks say "a person's browser", and a wall that refuses
// any browser ends as bot_detected (403), never as a wrong password. Each verdict 5 times out of 5.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BOT_WALL_REFUSAL, startBotWall, type FixtureSite } from '../../../fixtures/sites/index.js';
import { startTestServer, type TestServer } from '../../../helpers/test-server.js';

type Wall = FixtureSite & { lastVerdict(): { bot: boolean; botKind?: string; detections: string[] } | null };

const RUNS = 5;

/** The state's cookies open the account page (server-rendered: the cookie header is the whole proof). */
async function signedIn(site: FixtureSite, state: { cookies: { name: string; value: string }[] }): Promise<boolean> {
  const cookie = state.cookies.map((c) => `${c.name}=${c.value}`).join('; ');
  const res = await fetch(site.protectedUrl, { headers: { cookie }, redirect: 'manual' });
  return res.status === 200 && (await res.text()).includes(site.loggedInText);
}
const body = (site: FixtureSite, password = site.credentials.password) => ({
  cred: { username: site.credentials.username, password },
  domain: site.loginUrl,
  useCache: false,
});

describe('a login page behind BotD', () => {
  let t: TestServer;
  let wall: Wall;
  let always: Wall;
  beforeAll(async () => {
    [t, wall, always] = await Promise.all([startTestServer(), startBotWall(), startBotWall({ wall: 'always' })]);
  });
  afterAll(() => Promise.all([t?.close(), wall?.close(), always?.close()]));

  it(`the right password logs in past the detector, and the state opens the account (${RUNS} of ${RUNS})`, async () => {
    for (let run = 1; run <= RUNS; run++) {
      const res = await t.request('/api/login', { method: 'POST', json: body(wall) });
      const answer = await res.json();
      expect({ run, status: res.status, verdict: wall.lastVerdict() }).toEqual({
        run,
        status: 200,
        verdict: { bot: false, detections: [] },
      });
      expect(await signedIn(wall, answer)).toBe(true);
    }
    expect(wall.stats().botRefusals ?? 0).toBe(0);
  });

  it(`a wrong password is the site's own 401 (${RUNS} of ${RUNS})`, async () => {
    for (let run = 1; run <= RUNS; run++) {
      const res = await t.request('/api/login', { method: 'POST', json: body(wall, 'not-the-password') });
      const answer = await res.json();
      expect({ run, status: res.status, error: answer.error, bot: wall.lastVerdict()?.bot }).toEqual({
        run,
        status: 401,
        error: 'AUTHENTICATION_FAILED',
        bot: false,
      });
      expect(answer.message).toMatch(/Incorrect email or password/);
    }
  });

  it(`a wall that refuses the browser is BOT_DETECTED (403) with its words, never a wrong password (${RUNS} of ${RUNS})`, async () => {
    for (let run = 1; run <= RUNS; run++) {
      const res = await t.request('/api/login', { method: 'POST', json: body(always) });
      const answer = await res.json();
      expect({ run, status: res.status, error: answer.error, reason: answer.details?.reason }).toEqual({
        run,
        status: 403,
        error: 'BOT_DETECTED',
        reason: 'bot_detected',
      });
      expect(answer.message).toContain(BOT_WALL_REFUSAL);
    }
    expect(always.stats().botRefusals).toBe(RUNS);
  });
});
