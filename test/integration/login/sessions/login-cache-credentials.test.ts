import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSite, type FixtureSite } from '../../../fixtures/sites/index.js';
import { startTestServer, type TestServer } from '../../../helpers/test-server.js';

/**
 * The session cache answers only the credentials that made the entry: a wrong password with
 * useCache:true is a miss that logs in fresh (and fails), never the cached live session.
 */
const WRONG_PASSWORD = 'not-the-password-Qx7v';

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer({ login: { timeoutMs: 30_000 } });
});
afterAll(async () => {
  await t?.close();
});

function login(site: FixtureSite, over: { password?: string; additionalFields?: Record<string, string> } = {}) {
  return t.request('/api/login', {
    method: 'POST',
    json: {
      cred: { username: site.credentials.username, password: over.password ?? site.credentials.password },
      loginMethod: 'password',
      domain: site.loginUrl,
      additionalFields: over.additionalFields ?? site.credentials.additionalFields ?? {},
      useCache: true,
    },
  });
}

describe('session cache and credentials (classic-csrf site)', () => {
  let site: FixtureSite;
  beforeAll(async () => {
    site = await startSite('classic-csrf');
  });
  afterAll(() => site.close());

  it('a wrong password is a fresh login that fails (401), and the good entry still answers the right one', async () => {
    const good = await login(site);
    expect(good.status).toBe(200);
    const goodId = good.headers.get('x-session-id');
    const attempts = site.stats().loginAttempts;

    const wrong = await login(site, { password: WRONG_PASSWORD });
    const body = await wrong.json();
    expect(wrong.status, JSON.stringify(body)).toBe(401);
    expect(body).toMatchObject({ error: 'AUTHENTICATION_FAILED', details: { reason: 'invalid_credentials' } });
    expect(wrong.headers.get('x-session-cache')).toBeNull();
    expect(site.stats().loginAttempts).toBe(attempts + 1); // it went to the site: not a cache hit

    const again = await login(site);
    expect(again.status).toBe(200);
    expect(again.headers.get('x-session-cache')).toBe('hit');
    expect(again.headers.get('x-session-id')).toBe(goodId);
    expect(site.stats().loginAttempts).toBe(attempts + 1);
  });

  it('concurrent right and wrong passwords never share one login', async () => {
    // An empty cache first, so both requests miss and go to the flight table at the same time.
    const drop = (await (await t.request('/api/sessions')).json()) as { data: { id: string }[] };
    for (const e of drop.data) await t.request(`/api/sessions/${e.id}`, { method: 'DELETE' });
    const attempts = site.stats().loginAttempts;
    const answers = await Promise.all([login(site), login(site, { password: WRONG_PASSWORD })]);
    expect(answers.map((a) => a.status)).toEqual([200, 401]);
    expect(site.stats().loginAttempts - attempts).toBe(2);
    // and the failed one did not replace what the right one stored
    const after = await login(site);
    expect(after.headers.get('x-session-cache')).toBe('hit');
    expect(after.headers.get('x-session-id')).toBe(answers[0].headers.get('x-session-id'));
  });

  it('an entry written before credential hashes existed is a miss, replaced by the next successful login', async () => {
    const first = await login(site);
    const id = first.headers.get('x-session-id')!;
    t.core.db.prepare('UPDATE login_sessions SET credential_hash = NULL WHERE id = ?').run(id);
    const listed = (await (await t.request('/api/sessions')).json()) as { data: { id: string; fresh: boolean }[] };
    expect(listed.data.find((e) => e.id === id)?.fresh).toBe(false);

    // A legacy entry answers no password at all, the right one included.
    const wrong = await login(site, { password: WRONG_PASSWORD });
    expect(wrong.status).toBe(401);
    const fresh = await login(site);
    expect(fresh.status).toBe(200);
    expect(fresh.headers.get('x-session-cache')).toBe('miss');
    expect(fresh.headers.get('x-session-id')).not.toBe(id);
    const hit = await login(site);
    expect(hit.headers.get('x-session-cache')).toBe('hit');
    expect(hit.headers.get('x-session-id')).toBe(fresh.headers.get('x-session-id'));
  });

  it('keeps neither password in the database files or the log', async () => {
    await login(site);
    await login(site, { password: WRONG_PASSWORD });
    await t.core.logger.flush();
    // Before and after a checkpoint: the WAL holds the newest pages, the main file the rest.
    const check = () => {
      const files = fs.readdirSync(t.dataDir).filter((f) => f.startsWith('agent-studio.db'));
      expect(files).toContain('agent-studio.db');
      for (const f of [...files, path.join('logs', 'agent-studio.log')]) {
        const bytes = fs.readFileSync(path.join(t.dataDir, f));
        expect(bytes.includes(Buffer.from(site.credentials.password)), `password in ${f}`).toBe(false);
        expect(bytes.includes(Buffer.from(WRONG_PASSWORD)), `wrong password in ${f}`).toBe(false);
      }
    };
    check();
    t.core.db.pragma('wal_checkpoint(TRUNCATE)');
    check();
  });
});

describe('session cache and additionalFields (extra-fields site)', () => {
  let site: FixtureSite;
  beforeAll(async () => {
    site = await startSite('extra-fields');
  });
  afterAll(() => site.close());

  // The site accepts its Company ID in any case: "ACME" is different but also valid credentials.
  it('different but also valid additionalFields are a miss, and the newest success becomes the entry', async () => {
    const lower = await login(site, { additionalFields: { tenant: 'acme' } });
    expect(lower.status).toBe(200);
    const logins = site.stats().successfulLogins;

    const upper = await login(site, { additionalFields: { tenant: 'ACME' } });
    expect(upper.status).toBe(200);
    expect(upper.headers.get('x-session-cache')).toBe('miss');
    expect(site.stats().successfulLogins).toBe(logins + 1);
    expect((await login(site, { additionalFields: { tenant: 'ACME' } })).headers.get('x-session-cache')).toBe('hit');

    // A wrong Company ID is a failed fresh login that leaves the "ACME" entry in place.
    const wrongTenant = await login(site, { additionalFields: { tenant: 'globex' } });
    expect(wrongTenant.status).toBe(401);
    const still = await login(site, { additionalFields: { tenant: 'ACME' } });
    expect(still.headers.get('x-session-cache')).toBe('hit');
    expect(still.headers.get('x-session-id')).toBe(upper.headers.get('x-session-id'));
  });

  // No fixture site accepts two different passwords for one user; the additionalFields case above
  // covers "different but also valid credentials".
});
