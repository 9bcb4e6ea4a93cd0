// The last styles of issue 42, each verdict 5 times out of 5 through POST /api/login in one core:
// - silent-submit: a submit that silently does nothing is no_outcome (422), never a 401; a refusal only in the
//   login request's answer (401 with a body) is the site's 401 in its words.
// - busy-app-dialog: a login dialog opened by style changes ~1 s after load, over a real WebSocket and 500 ms polling.
// - basic-xhr-shell: a PAM-style login by XHR with HTTP Basic; a wrong password right after a right one and a
//   session check is still refused.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSite, type FixtureSite } from '../../../fixtures/sites/index.js';
import { loginWithSteps } from '../../../helpers/login-with-steps.js';
import { startTestServer, type TestServer } from '../../../helpers/test-server.js';

const RUNS = 5;

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer();
});
afterAll(() => t?.close());

/** One fresh login with an id: its answer and its steps as they happened. */
const login = (id: string, site: FixtureSite, username: string, password: string) =>
  loginWithSteps(t, id, site, username, password);

const cookieHeader = (state: { cookies: { name: string; value: string }[] }) =>
  state.cookies.map((c) => `${c.name}=${c.value}`).join('; ');

describe('silent-submit: no visible effect is no_outcome, a refused request is the site’s 401', () => {
  let site: FixtureSite;
  beforeAll(async () => {
    site = await startSite('silent-submit');
  });
  afterAll(() => site?.close());

  it(`the right password signs in (${RUNS} of ${RUNS})`, async () => {
    for (let run = 1; run <= RUNS; run++) {
      const { status, answer } = await login(
        `silent-ok-${run}`,
        site,
        site.credentials.username,
        site.credentials.password,
      );
      expect({ run, status }).toEqual({ run, status: 200 });
      const page = await fetch(site.protectedUrl, { headers: { cookie: cookieHeader(answer) }, redirect: 'manual' });
      expect(await page.text()).toContain(site.loggedInText);
    }
  });

  it(`a submit the page drops without a word (short password: nothing sent) is 422 no_outcome (${RUNS} of ${RUNS})`, async () => {
    for (let run = 1; run <= RUNS; run++) {
      const { status, answer } = await login(`silent-short-${run}`, site, site.credentials.username, 'short');
      expect({ run, status, error: answer.error, reason: answer.details?.reason }).toEqual({
        run,
        status: 422,
        error: 'NO_OUTCOME',
        reason: 'no_outcome',
      });
    }
  });

  it(`a request answered 200 that the page ignores is 422 no_outcome (${RUNS} of ${RUNS})`, async () => {
    for (let run = 1; run <= RUNS; run++) {
      const { status, answer } = await login(`silent-200-${run}`, site, 'alice', site.credentials.password);
      expect({ run, status, reason: answer.details?.reason }).toEqual({ run, status: 422, reason: 'no_outcome' });
    }
  });

  it(`a wrong password refused by the login request (401 with a body) is the site's 401 in its words (${RUNS} of ${RUNS})`, async () => {
    for (let run = 1; run <= RUNS; run++) {
      const { status, answer } = await login(
        `silent-wrong-${run}`,
        site,
        site.credentials.username,
        'not-the-password',
      );
      expect({ run, status, reason: answer.details?.reason }).toEqual({
        run,
        status: 401,
        reason: 'invalid_credentials',
      });
      expect(answer.message).toContain('Invalid e-mail or password.');
    }
  });
});

describe('busy-app-dialog: a late login dialog over an app that never goes idle', () => {
  let site: FixtureSite;
  beforeAll(async () => {
    site = await startSite('busy-app-dialog');
  });
  afterAll(() => site?.close());

  it(`the right password signs in once the dialog shows, and the steps say what was waited for (${RUNS} of ${RUNS})`, async () => {
    for (let run = 1; run <= RUNS; run++) {
      const { status, answer, steps } = await login(
        `busy-ok-${run}`,
        site,
        site.credentials.username,
        site.credentials.password,
      );
      expect({ run, status, steps }).toMatchObject({ run, status: 200 });
      expect(steps.join('\n')).toMatch(/waited .* s for the page to settle \(.*the hidden login form to be shown/);
      const me = await fetch(`${site.origin}/api/status`, { headers: { cookie: cookieHeader(answer) } });
      expect(await me.json()).toMatchObject({ user: expect.any(String) });
    }
  });

  it(`a wrong password is the site's 401 (${RUNS} of ${RUNS})`, async () => {
    for (let run = 1; run <= RUNS; run++) {
      const { status, answer } = await login(`busy-wrong-${run}`, site, site.credentials.username, 'not-the-password');
      expect({ run, status, reason: answer.details?.reason }).toEqual({
        run,
        status: 401,
        reason: 'invalid_credentials',
      });
      expect(answer.message).toContain('Invalid username or password');
    }
  });
});

describe('basic-xhr-shell: a PAM-style XHR Basic login', () => {
  let site: FixtureSite;
  beforeAll(async () => {
    site = await startSite('basic-xhr-shell');
  });
  afterAll(() => site?.close());

  it(`right password 200, its session checked, then a wrong password is 401 (${RUNS} of ${RUNS})`, async () => {
    for (let run = 1; run <= RUNS; run++) {
      const right = await login(`pam-ok-${run}`, site, site.credentials.username, site.credentials.password);
      expect({ run, status: right.status }).toEqual({ run, status: 200 });
      const shell = await fetch(site.protectedUrl, {
        headers: { cookie: cookieHeader(right.answer) },
        redirect: 'manual',
      });
      expect(await shell.text()).toContain(site.loggedInText);
      const check = await t.request(`/api/sessions/${right.sessionId}/validate`, { method: 'POST' });
      expect({ run, status: check.status }).toEqual({ run, status: 200 });
      const wrong = await login(`pam-wrong-${run}`, site, site.credentials.username, 'not-the-password');
      expect({ run, status: wrong.status, reason: wrong.answer.details?.reason }).toEqual({
        run,
        status: 401,
        reason: 'invalid_credentials',
      });
    }
  });
});
