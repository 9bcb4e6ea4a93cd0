// Round 4 of the real-web styles (issue 42), each verdict 5 times out of 5 through POST /api/login.
// material-login: a form-less Material card whose only worded control is a language select ("English"), beside a
// "Remember username" switch and an icon-only round submit disabled until both fields are filled. The submit must be
// that button (enabled once filled), never the language select or the switch.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSite, type FixtureSite } from '../../../fixtures/sites/index.js';
import { loginWithSteps } from '../../../helpers/login-with-steps.js';
import { startTestServer, type TestServer } from '../../../helpers/test-server.js';

const RUNS = 5;

/** The state's cookies open the protected page (server-rendered: the cookie header is the whole proof). */
async function signedIn(site: FixtureSite, state: { cookies: { name: string; value: string }[] }): Promise<boolean> {
  const cookie = state.cookies.map((c) => `${c.name}=${c.value}`).join('; ');
  const res = await fetch(site.protectedUrl, { headers: { cookie }, redirect: 'manual' });
  return res.status === 200 && (await res.text()).includes(site.loggedInText);
}

describe('material-login: the submit is the form’s own (icon-only, enabled once filled), never "English"', () => {
  let t: TestServer;
  let site: FixtureSite;
  beforeAll(async () => {
    [t, site] = await Promise.all([startTestServer(), startSite('material-login')]);
  });
  afterAll(() => Promise.all([t?.close(), site?.close()]));

  /** One login with an id; its steps as they happened. */
  const login = (id: string, password: string) => loginWithSteps(t, id, site, site.credentials.username, password);

  it(`the right password signs in with the round arrow button, and the state opens the app (${RUNS} of ${RUNS})`, async () => {
    for (let run = 1; run <= RUNS; run++) {
      const { status, answer, steps } = await login(`material-ok-${run}`, site.credentials.password);
      expect({ run, status }).toEqual({ run, status: 200 });
      expect(await signedIn(site, answer)).toBe(true);
      const submitted = steps.filter((s) => s.startsWith('submitted'));
      expect({ run, submitted }).toEqual({ run, submitted: ["submitted with button '(no text)'"] });
      // Found while still disabled (the fields empty): the control the page enables once they are filled.
      expect(steps.join('\n')).not.toMatch(/English|Remember username/);
    }
  });

  it(`a wrong password is the site's own 401, in its words (${RUNS} of ${RUNS})`, async () => {
    for (let run = 1; run <= RUNS; run++) {
      const { status, answer } = await login(`material-wrong-${run}`, 'not-the-password');
      expect({ run, status, error: answer.error }).toEqual({ run, status: 401, error: 'AUTHENTICATION_FAILED' });
      expect(answer.message).toMatch(/Invalid username or password/);
    }
  });
});
