// POST /api/signup with loginMethod "passkey": the account is made where people make it, on the relying party's
// own sign-up page ("Create your account": name, email, "Create a passkey"; no password), the site's
// @simplewebauthn/server verifies the registration, and the new passkey is kept in a saved login (private key in
// the secret store). Then that saved login is what signs in, and the key never shows outside the secret store.
// A site with no way to make a passkey answers 422 PASSKEY_NOT_OFFERED and nothing is saved.
import fs from 'node:fs';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FixtureSite } from '../../../fixtures/sites/index.js';
import { startSignup, type OutboundMail } from '../../../fixtures/sites/index.js';
import { displayName } from '../../../fixtures/sites/lib/site-kit.js';
import { startPasskeySite, type PasskeySite } from '../../../fixtures/sites/passkey.site.js';
import { launchTestBrowser, opensProtectedPage } from '../../../helpers/browser.js';
import { startTestServer, type TestServer } from '../../../helpers/test-server.js';
import { filesUnder, findSecrets, recordingClient, settle, type Json } from '../../../helpers/vault-logins.js';
import type { SavedLoginSecrets } from '../../../../src/main/core/login/vault/saved-logins.service.js';

let t: TestServer;
let browser: Browser;

beforeAll(async () => {
  [t, browser] = await Promise.all([
    startTestServer({ login: { timeoutMs: 30_000, codeTimeoutMs: 15_000 }, log: { level: 'debug' } }),
    launchTestBrowser(),
  ]);
});
afterAll(async () => {
  await browser?.close();
  await t?.close();
});

/** The new account's check: the protected page greets it by name. */
const opensAs = (site: PasskeySite, email: string, state: unknown) =>
  opensProtectedPage(
    browser,
    { ...site, loggedInText: `Signed in as ${displayName(email)}` } as unknown as FixtureSite,
    state,
  );

const savedLoginIds = async (): Promise<string[]> =>
  ((await (await t.request('/api/credentials')).json()) as { data: Json[] }).data.map((s) => s.id as string);

describe('POST /api/signup with loginMethod "passkey"', () => {
  let site: PasskeySite;
  beforeAll(async () => {
    site = await startPasskeySite();
  });
  afterAll(async () => {
    await site?.close();
  });

  it('creates the account with a passkey the site verified, keeps it in a saved login, and signs in with it', async () => {
    const http = recordingClient(t);
    const email = 'grace.passkey@example.com';
    const res = await http.post('/api/signup', {
      loginMethod: 'passkey',
      cred: { username: email },
      domain: site.signupUrl,
      additionalFields: { name: 'Grace Hopper' },
    });
    const answer = (await res.json()) as Json;
    expect(res.status, JSON.stringify(answer)).toBe(200);

    // the relying party made the account and verified the registration of its passkey
    expect(site.accounts()).toEqual([{ email, name: 'Grace Hopper' }]);
    expect(site.stats()).toMatchObject({ signups: 1, registered: 1, refused: [] });
    const atSite = site.passkeys().find((p) => p.username === email)!;
    expect(atSite).toBeDefined();

    // the answer: the storageState, the saved login keeping the passkey, and the passkey's metadata only
    expect(answer).toEqual({
      cookies: expect.any(Array),
      origins: expect.any(Array),
      browser: { userAgent: expect.any(String), locale: expect.any(String), timezoneId: expect.any(String) },
      credential: expect.stringMatching(/^cred_/),
      passkey: { rp_id: site.rpId, credential_id: atSite.credentialId },
    });
    expect(res.headers.get('x-session-id')).toMatch(/^ses_/);
    expect(await opensAs(site, email, answer)).toBe(true);

    // the saved login: a passkey login on the sign-up page's origin, no password (the form had none)
    const id = answer.credential as string;
    const meta = (await (await http.request(`/api/credentials/${id}`)).json()) as Json;
    expect(meta).toMatchObject({
      loginMethod: 'passkey',
      username: email,
      origins: [site.origin],
      secrets: ['additionalFields'],
      passkeys: [{ rp_id: site.rpId, credential_id: atSite.credentialId, created_at: expect.any(Number) }],
    });
    const uses = (await (await http.request(`/api/credentials/${id}/uses`)).json()) as { data: Json[] };
    expect(uses.data[0]).toMatchObject({ endpoint: 'signup', outcome: 'success' });

    // a later login by the saved login uses the passkey (no password exists to fall back to)
    const login = await http.post('/api/login', { loginMethod: 'passkey', credential: id, useCache: false });
    const state = (await login.json()) as Json;
    expect(login.status, JSON.stringify(state)).toBe(200);
    expect(site.stats()).toMatchObject({ passkeySignIns: 1, passwordSignIns: 0, refused: [] });
    expect(await opensAs(site, email, state)).toBe(true);

    // the private key is in the secret store, with the counter the relying party last accepted
    const stored = JSON.parse((await t.core.secrets.get(`saved-login:${id}`))!) as SavedLoginSecrets;
    expect(stored.passkeys).toEqual([
      expect.objectContaining({
        rpId: site.rpId,
        credentialId: atSite.credentialId,
        signCount: site.passkeys().find((p) => p.username === email)!.counter,
        privateKey: expect.any(String),
      }),
    ]);
    const key = stored.passkeys![0].privateKey;
    const der = Buffer.from(key, 'base64');

    // ... and nowhere else: not in an answer, the log, or a file of the data dir
    await settle(t);
    const log = fs.readFileSync(t.core.logger.file, 'utf8');
    expect(log).toContain('passkey added');
    const haystacks = [...filesUnder(t.dataDir), { where: 'the log file', data: log }, ...(await http.answers())];
    const hits = findSecrets(haystacks, {
      'private key': key,
      'private key (base64url)': der.toString('base64url'),
    });
    for (const { where, data } of haystacks)
      if (Buffer.from(data).includes(der.subarray(-32))) hits.push(`raw private key in ${where}`);
    expect(hits).toEqual([]);
  }, 120_000);

  it('a form that asks for a password gets a generated one; the passkey comes from the security settings', async () => {
    const http = recordingClient(t);
    const email = 'katherine.johnson@example.com';
    const res = await http.post('/api/signup', {
      loginMethod: 'passkey',
      cred: { username: email },
      domain: site.passwordSignupUrl,
      additionalFields: { name: 'Katherine Johnson' },
    });
    const answer = (await res.json()) as Json;
    expect(res.status, JSON.stringify(answer)).toBe(200);
    const atSite = site.passkeys().find((p) => p.username === email)!;
    expect(answer.passkey).toEqual({ rp_id: site.rpId, credential_id: atSite.credentialId });
    expect(await opensAs(site, email, answer)).toBe(true);

    // the saved login keeps the generated password too (a site that falls back to it), never shown
    const id = answer.credential as string;
    const meta = (await (await http.request(`/api/credentials/${id}`)).json()) as Json;
    expect(meta).toMatchObject({ loginMethod: 'passkey', secrets: ['password', 'additionalFields'] });
    const stored = JSON.parse((await t.core.secrets.get(`saved-login:${id}`))!) as SavedLoginSecrets;
    expect(stored.password).toMatch(/^\S{20,}$/);
    expect(stored.passkeys?.map((p) => p.credentialId)).toEqual([atSite.credentialId]);
    await settle(t);
    const log = fs.readFileSync(t.core.logger.file, 'utf8');
    expect(
      findSecrets([{ where: 'the log file', data: log }, ...(await http.answers())], { password: stored.password! }),
    ).toEqual([]);

    const login = await http.post('/api/login', { credential: id, useCache: false });
    expect(login.status).toBe(200);
    expect(await opensAs(site, email, await login.json())).toBe(true);
  }, 120_000);

  it('a saved login makes the account (credential): it keeps the passkey and becomes a passkey login', async () => {
    const email = 'dorothy.vaughan@example.com';
    const password = 'Dorothy-Vaughan-1910';
    const made = await t.request('/api/credentials', {
      method: 'POST',
      json: { label: 'Keyhaven Dorothy', loginUrl: site.passwordSignupUrl, username: email, password },
    });
    expect(made.status).toBe(201);
    const { id } = (await made.json()) as { id: string };
    const res = await t.request('/api/signup', {
      method: 'POST',
      json: { loginMethod: 'passkey', credential: id, additionalFields: { name: 'Dorothy Vaughan' } },
    });
    const answer = (await res.json()) as Json;
    expect(res.status, JSON.stringify(answer)).toBe(200);
    const atSite = site.passkeys().find((p) => p.username === email)!;
    expect(answer).toMatchObject({ credential: id, passkey: { rp_id: site.rpId, credential_id: atSite.credentialId } });
    const meta = (await (await t.request(`/api/credentials/${id}`)).json()) as Json;
    expect(meta).toMatchObject({
      loginMethod: 'passkey',
      passkeys: [{ rp_id: site.rpId, credential_id: atSite.credentialId }],
    });
    const stored = JSON.parse((await t.core.secrets.get(`saved-login:${id}`))!) as SavedLoginSecrets;
    expect(stored.password).toBe(password);
  }, 120_000);

  it('an email the site already has: 409 USER_EXISTS, nothing saved', async () => {
    const before = await savedLoginIds();
    const res = await t.request('/api/signup', {
      method: 'POST',
      json: {
        loginMethod: 'passkey',
        cred: { username: site.credentials.username },
        domain: site.signupUrl,
        additionalFields: { name: 'Alice Again' },
      },
    });
    const body = (await res.json()) as { error: string; details: Json };
    expect(res.status, JSON.stringify(body)).toBe(409);
    expect(body.error).toBe('USER_EXISTS');
    expect(await savedLoginIds()).toEqual(before);
  }, 60_000);
});

describe('the body', () => {
  it('needs cred.password unless loginMethod is passkey, and knows only password and passkey', async () => {
    const post = (json: Json) => t.request('/api/signup', { method: 'POST', json });
    const base = { cred: { username: 'nobody@example.com' }, domain: 'http://127.0.0.1:9/signup' };
    const noPassword = await post(base);
    expect(noPassword.status).toBe(400);
    expect(JSON.stringify(await noPassword.json())).toContain('cred.password is required');
    const otherMethod = await post({ ...base, loginMethod: 'otp_email' });
    expect(otherMethod.status).toBe(400);
    expect(JSON.stringify(await otherMethod.json())).toContain('loginMethod');
  });
});

describe('a site that offers no passkey', () => {
  it('signs up with a generated password, finds no way to make a passkey: 422 PASSKEY_NOT_OFFERED, nothing saved', async () => {
    // Northwind: a password sign-up, a verification link by mail (through the inbox endpoint), no passkeys.
    const site = await startSignup({
      sendMail: async (m: OutboundMail) => {
        const res = await t.request('/api/login/inbox', {
          method: 'POST',
          json: { to: m.to, from: m.from, subject: m.subject, text: m.text, html: m.html },
        });
        expect(res.status).toBe(202);
      },
    });
    try {
      const before = await savedLoginIds();
      const http = recordingClient(t);
      const res = await http.post('/api/signup', {
        loginMethod: 'passkey',
        cred: { username: site.credentials.username },
        domain: site.loginUrl,
        additionalFields: site.credentials.additionalFields,
      });
      const body = (await res.json()) as { error: string; message: string; details: Json };
      expect(res.status, JSON.stringify(body)).toBe(422);
      expect(body.error).toBe('PASSKEY_NOT_OFFERED');
      expect(body.details.reason).toBe('passkey_not_offered');
      // the form asked for a password: it got a generated one (the account exists), which no answer carries
      expect(site.accounts().find((a) => a.email === site.credentials.username)).toMatchObject({ verified: true });
      expect(body.details.steps).toEqual(expect.arrayContaining([expect.stringMatching(/filled password/)]));
      expect(await savedLoginIds()).toEqual(before);
      const sessions = (await (await t.request('/api/sessions')).json()) as { data: Json[] };
      expect(sessions.data.filter((s) => s.origin === new URL(site.loginUrl).origin)).toEqual([]);
    } finally {
      await site.close();
    }
  }, 120_000);
});
