/**
 * A sign-in widget that sends its request seconds after the click (a proof-of-work puzzle first, or an
 * out-of-process frame on a busy machine): the engine sees the form react (button disabled, "Verifying
 * you are human…") and waits for the request instead of submitting again. A second submit would be a
 * second login attempt: a wrong password counted twice towards the site's lockout.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSite } from '../../../fixtures/sites/index.js';
import { startTestServer, type TestServer } from '../../../helpers/test-server.js';

const WORK_MS = 4000;
let t: TestServer;

beforeAll(async () => {
  t = await startTestServer({ login: { timeoutMs: 40_000 } });
});
afterAll(async () => {
  await t?.close();
});

describe.concurrent('a sign-in request that leaves seconds after the submit', () => {
  for (const [label, password, status, successes] of [
    ['the right password logs in', undefined, 200, 1],
    ['a wrong password is a 401', 'wrong password 123', 401, 0],
  ] as const) {
    it(`${label} after exactly one submission`, async () => {
      const site = await startSite('cross-origin-iframe', { submitWorkMs: WORK_MS });
      try {
        const res = await t.request('/api/login', {
          method: 'POST',
          json: {
            cred: { username: site.credentials.username, password: password ?? site.credentials.password },
            loginMethod: 'password',
            domain: site.loginUrl,
            useCache: false,
          },
        });
        const body = await res.json();
        expect(res.status, JSON.stringify(body)).toBe(status);
        if (status === 401) {
          expect(body).toMatchObject({ details: { reason: 'invalid_credentials' } });
          // The trace of the attempt: one submit, waited for (the page closes before a second one's
          // request could reach the site, so the trace is what shows it).
          expect(body.details.steps.filter((s: string) => s.startsWith('submitted'))).toEqual([
            "submitted with button 'Sign in'",
          ]);
        }
        expect(site.stats()).toEqual({ loginAttempts: 1, successfulLogins: successes });
      } finally {
        await site.close();
      }
    });
  }
});
