// Saved logins (docs/saved-logins.md#logging-in-by-reference) with every login method, by reference: a password with an authenticator
// code, an emailed code and a sign-in link read from a real IMAP mailbox (Dovecot), and Google-style OAuth, whose
// saved login must list the provider's origin. Each state opens the protected page in a new browser context; a
// session signed out on the site is renewed by POST /api/refresh {credential}.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSite, type FixtureSite } from '../../../fixtures/sites/index.js';
import { opensProtectedPage, useSiteBrowser } from '../../../helpers/browser.js';
import { startDovecot, type Dovecot } from '../../../helpers/dovecot.js';
import { startTestServer, type TestServer } from '../../../helpers/test-server.js';
import {
  addMailbox,
  distinctSecret,
  MAIL_USER,
  randomTotpSecret,
  saveLogin,
  signOutOnSite,
  startGoogleSite,
  toMailbox,
  type GoogleSite,
  type Json,
} from '../../../helpers/vault-logins.js';

const MAIL_PASSWORD = distinctSecret('imap');
const ANN = { login: 'ann@example.com', password: distinctSecret('google-ann'), totpSecret: randomTotpSecret() };
const BOB = { login: 'bob@example.com', password: distinctSecret('google-bob') };

let t: TestServer;
let dovecot: Dovecot;
let google: GoogleSite;
let mailboxId: string;
const { browser } = useSiteBrowser();
const cleanups: Array<() => Promise<unknown>> = [];

beforeAll(async () => {
  [dovecot, google] = await Promise.all([
    startDovecot({ users: [{ user: MAIL_USER, password: MAIL_PASSWORD }] }),
    startGoogleSite([ANN, BOB]),
  ]);
  t = await startTestServer({
    login: { timeoutMs: 45_000, codeTimeoutMs: 20_000, oauth: { google: { origins: [google.idp.origin] } } },
  });
  mailboxId = await addMailbox(t, dovecot, MAIL_PASSWORD);
});
afterAll(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
  await t?.close();
  await google?.close();
  await dovecot?.close();
});

/** A fixture site for one test, closed after the file. */
async function site(...args: Parameters<typeof startSite>): Promise<FixtureSite> {
  const s = await startSite(...args);
  cleanups.push(() => s.close());
  return s;
}

const post = (path: string, json: unknown) => t.request(path, { method: 'POST', json });
const save = (body: Json) => saveLogin(post, { shareWith: 'all', ...body });

async function loginByReference(credential: string): Promise<{ state: Json; sessionId: string }> {
  const res = await post('/api/login', { credential, useCache: false });
  const state = (await res.json()) as Json;
  expect(res.status, JSON.stringify(state)).toBe(200);
  expect(res.headers.get('x-session-cache')).toBe('miss');
  return { state, sessionId: res.headers.get('x-session-id')! };
}

async function uses(id: string): Promise<Json[]> {
  return ((await (await t.request(`/api/credentials/${id}/uses`)).json()) as { data: Json[] }).data;
}

async function session(id: string): Promise<Json | undefined> {
  const list = (await (await t.request('/api/sessions')).json()) as { data: Json[] };
  return list.data.find((s) => s.id === id);
}

describe('login by reference with every method', () => {
  it('password + authenticator code: the saved login’s TOTP secret answers the two-step prompt', async () => {
    const totpSecret = randomTotpSecret();
    const password = distinctSecret('totp-pw');
    const keystone = await site('totp', { totpSecret, password });
    const saved = await save({
      label: 'Keystone',
      loginUrl: keystone.loginUrl,
      username: keystone.credentials.username,
      password,
      totpSecret,
    });
    expect(saved).toMatchObject({ loginMethod: 'password', secrets: ['password', 'totpSecret'] });
    const { state, sessionId } = await loginByReference('Keystone');
    expect(keystone.stats().successfulLogins).toBe(1);
    expect(await opensProtectedPage(browser(), keystone, state)).toBe(true);
    expect(await session(sessionId)).toMatchObject({ credential_id: saved.id, stored_credentials: true });
    expect((await uses(saved.id))[0]).toMatchObject({ endpoint: 'login', outcome: 'success', origin: keystone.origin });
  });

  it('otp_email: the code comes to the saved login’s mailbox (Dovecot IMAP)', async () => {
    const password = distinctSecret('email-pw');
    const acme = await site('email-code', { password, sendMail: toMailbox(dovecot) });
    const saved = await save({
      label: 'Acme Cloud',
      loginUrl: acme.loginUrl,
      loginMethod: 'otp_email',
      username: acme.credentials.username,
      password,
      mailboxId,
    });
    expect(saved).toMatchObject({ loginMethod: 'otp_email', mailboxId, secrets: ['password'] });
    const { state } = await loginByReference(saved.id);
    expect(acme.stats()).toMatchObject({ codesSent: 1, successfulLogins: 1 });
    expect(await opensProtectedPage(browser(), acme, state)).toBe(true);
    expect((await uses(saved.id))[0]).toMatchObject({ endpoint: 'login', outcome: 'success' });
  });

  it('magic_link: the sign-in link from the mailbox, no password at all', async () => {
    const driftwood = await site('magic-link', { sendMail: toMailbox(dovecot) });
    const saved = await save({
      label: 'Driftwood',
      loginUrl: driftwood.loginUrl,
      loginMethod: 'magic_link',
      username: driftwood.credentials.username,
      mailboxId,
      notes: distinctSecret('magic-notes'),
    });
    expect(saved.secrets).toEqual(['notes']);
    const { state } = await loginByReference('Driftwood');
    expect(driftwood.stats()).toMatchObject({ successfulLogins: 1, decoyHits: 0 });
    expect(await opensProtectedPage(browser(), driftwood, state)).toBe(true);
  });

  it('oauth_google with the default origins (the site’s and the configured provider’s): the provider’s 2-Step too', async () => {
    const { idp, site: acmeNotes } = google;
    const saved = await save({
      label: 'Acme Notes (Google)',
      loginUrl: acmeNotes.loginUrl,
      loginMethod: 'oauth_google',
      username: ANN.login,
      password: ANN.password,
      totpSecret: ANN.totpSecret,
    });
    expect(saved.origins).toEqual([acmeNotes.origin, idp.origin]);
    const before = idp.stats().logins;
    const { state } = await loginByReference(saved.label);
    expect(idp.stats().logins).toBe(before + 1);
    expect(await opensProtectedPage(browser(), acmeNotes as unknown as FixtureSite, state)).toBe(true);
    expect((await uses(saved.id))[0]).toMatchObject({ outcome: 'success', origin: acmeNotes.origin });
  });

  it('oauth_google with only the site’s origin: 422 CREDENTIAL_ORIGIN_MISMATCH, the provider never gets the password', async () => {
    const { idp, site: acmeNotes } = google;
    const saved = await save({
      label: 'Acme Notes (site only)',
      loginUrl: acmeNotes.loginUrl,
      loginMethod: 'oauth_google',
      username: BOB.login,
      password: BOB.password,
      origins: [acmeNotes.origin],
    });
    expect(saved.origins).toEqual([acmeNotes.origin]);
    const before = idp.stats();
    const res = await post('/api/login', { credential: saved.label, useCache: false });
    const text = await res.text();
    expect(res.status, text).toBe(422);
    const answer = JSON.parse(text) as Json;
    expect(answer).toMatchObject({
      error: 'CREDENTIAL_ORIGIN_MISMATCH',
      details: { reason: 'credential_origin_mismatch' },
    });
    expect(answer.message).toContain(idp.origin);
    expect(text).not.toContain(BOB.password);
    // BOB has no second step: a password the provider received would be a login (right) or a failure (wrong).
    expect(idp.stats()).toEqual(before);
    expect((await uses(saved.id))[0]).toMatchObject({ endpoint: 'login', outcome: 'CREDENTIAL_ORIGIN_MISMATCH' });
  });
});

describe('POST /api/refresh {credential}', () => {
  it('renews a session signed out on the site with its saved login (a new emailed code), and logs a refresh use', async () => {
    const password = distinctSecret('refresh-pw');
    const acme = await site('email-code', { password, sendMail: toMailbox(dovecot) });
    const saved = await save({
      label: 'Acme Cloud (refresh)',
      loginUrl: acme.loginUrl,
      loginMethod: 'otp_email',
      username: acme.credentials.username,
      password,
      mailboxId,
    });
    const first = await loginByReference(saved.label);

    // still signed in: the session as it is, no new login
    const still = await post('/api/refresh', { credential: saved.label });
    expect(still.status, await still.clone().text()).toBe(200);
    expect(still.headers.get('x-session-refresh')).toBe('still-valid');
    expect(acme.stats().successfulLogins).toBe(1);

    // signed out on the site: its console now sends these cookies to the sign-in page
    await signOutOnSite(acme, first.state as { cookies: { name: string; value: string }[] });
    const res = await post('/api/refresh', { credential: saved.id });
    const renewed = (await res.json()) as Json;
    expect(res.status, JSON.stringify(renewed)).toBe(200);
    expect(res.headers.get('x-session-refresh')).toBe('renewed');
    expect(acme.stats()).toMatchObject({ codesSent: 2, successfulLogins: 2 });
    expect(await opensProtectedPage(browser(), acme, renewed)).toBe(true);

    const sessionId = res.headers.get('x-session-id')!;
    expect(await session(sessionId)).toMatchObject({ status: 'renewed', credential_id: saved.id });
    const log = await uses(saved.id);
    expect(log.map((u) => [u.endpoint, u.outcome])).toEqual([
      ['refresh', 'success'],
      ['login', 'success'],
    ]);
    expect(log[0]).toMatchObject({ keyId: t.core.keys.authenticate(t.key)!.keyId, origin: acme.origin });
  });
});
