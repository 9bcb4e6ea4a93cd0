/**
 * A login's steps as they happen (login.step events, for the desktop window) and cancelling a
 * running login by the id its caller gave in X-Login-Id.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSite } from '../../fixtures/sites/index.js';
import { startTestServer, type TestServer } from '../../helpers/test-server.js';

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer({ login: { timeoutMs: 30_000, codeTimeoutMs: 60_000 } });
});
afterAll(async () => {
  await t?.close();
});

function login(json: unknown, loginId?: string) {
  return t.request('/api/login', { method: 'POST', json, headers: loginId ? { 'x-login-id': loginId } : {} });
}

describe('live login steps and cancel', () => {
  it('publishes each step with the login id and the elapsed time, never a secret', async () => {
    const site = await startSite('classic-csrf');
    const seen: { orgId: string; loginId: string; step: string; elapsedMs: number }[] = [];
    const off = t.core.events.on('login.step', (e) => seen.push(e));
    try {
      const res = await login({ cred: site.credentials, domain: site.loginUrl, useCache: false }, 'live-1');
      expect(res.status).toBe(200);
      expect(seen.length).toBeGreaterThan(3);
      expect(seen.every((e) => e.loginId === 'live-1' && e.orgId === t.orgId)).toBe(true);
      expect(seen[0].step).toMatch(/opened login page/);
      expect(seen.at(-1)!.step).toMatch(/captured/);
      const elapsed = seen.map((e) => e.elapsedMs);
      expect([...elapsed].sort((a, b) => a - b)).toEqual(elapsed);
      expect(JSON.stringify(seen)).not.toContain(site.credentials.password);
    } finally {
      off();
      await site.close();
    }
  });

  it('cancels a login that waits for a code: 409 LOGIN_CANCELLED; an unknown id is 404', async () => {
    const site = await startSite('email-code', { sendMail: async () => {} });
    const waiting = new Promise<void>((resolve) => {
      const off = t.core.events.on('login.step', (e) => {
        if (e.loginId === 'live-2' && /waiting for the email/.test(e.step)) {
          off();
          resolve();
        }
      });
    });
    try {
      const pending = login(
        { cred: site.credentials, loginMethod: 'otp_email', domain: site.loginUrl, useCache: false },
        'live-2',
      );
      await waiting;
      const cancel = await t.request('/api/login/live-2/cancel', { method: 'POST' });
      expect(cancel.status, await cancel.clone().text()).toBe(204);
      const res = await pending;
      const body = (await res.json()) as { error: string; details: { reason: string } };
      expect(res.status).toBe(409);
      expect(body).toMatchObject({ error: 'LOGIN_CANCELLED', details: { reason: 'cancelled' } });
      const again = await t.request('/api/login/live-2/cancel', { method: 'POST' });
      expect(again.status).toBe(404);
      // Another organization cannot cancel it (ids are per organization).
      const other = t.newOrg('other');
      const foreign = await t.request('/api/login/live-2/cancel', { method: 'POST', key: other.key });
      expect(foreign.status).toBe(404);
    } finally {
      await site.close();
    }
  });
});
