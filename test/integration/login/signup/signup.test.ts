/**
 * POST /api/signup against the "Northwind" sign-up site (test/fixtures/sites/signup.site.ts): the site
 * itself checked by a hand-written Playwright script first, then account creation with the
 * verification mail fed through POST /api/login/inbox and read from a Dovecot IMAP mailbox, a site that
 * asks to sign in after verifying, a code instead of a link, and the failures (409, 422, 504, 400).
 * Each returned state opens the protected page in a fresh browser context.
 */
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  SIGNUP_EXISTING_EMAIL,
  SIGNUP_EXISTS_MESSAGE,
  SIGNUP_NEW_NAME,
  SIGNUP_WEAK_PASSWORD_MESSAGE,
  startSignup,
  type OutboundMail,
  type SignupFixtureSite,
  type SignupSiteOptions,
} from '../../../fixtures/sites/index.js';
import { Outbox } from '../../../fixtures/sites/manual-scripts-codes.js';
import { launchTestBrowser, opensProtectedPage } from '../../../helpers/browser.js';
import { buildMail, startDovecot, type Dovecot } from '../../../helpers/dovecot.js';
import { startTestServer, type TestServer } from '../../../helpers/test-server.js';

const MAIL_USER = 'inbox';
const MAIL_PASSWORD = 'imap-secret-Sg4';

let t: TestServer;
let browser: Browser;
let dovecot: Dovecot;

beforeAll(async () => {
  [t, browser, dovecot] = await Promise.all([
    startTestServer({ login: { timeoutMs: 30_000, codeTimeoutMs: 15_000 } }),
    launchTestBrowser(),
    startDovecot({ users: [{ user: MAIL_USER, password: MAIL_PASSWORD }] }),
  ]);
});
afterAll(async () => {
  await browser?.close();
  await t?.close();
  await dovecot?.close();
});

type ErrorBody = { error: string; message: string; details: { reason?: string; steps?: string[] } };

/** The site's mail goes to the app's inbox endpoint, as a forwarder would send it. */
function viaInbox(server: TestServer = t): (m: OutboundMail) => Promise<void> {
  return async (m) => {
    const res = await server.request('/api/login/inbox', {
      method: 'POST',
      json: { to: m.to, from: m.from, subject: m.subject, text: m.text, html: m.html },
    });
    expect(res.status).toBe(202);
  };
}

async function withSite<T>(opts: SignupSiteOptions, fn: (site: SignupFixtureSite) => Promise<T>): Promise<T> {
  const site = await startSignup(opts);
  try {
    return await fn(site);
  } finally {
    await site.close();
  }
}

function signup(
  site: SignupFixtureSite,
  over: Record<string, unknown> = {},
  server: TestServer = t,
  headers: Record<string, string> = {},
) {
  return server.request('/api/signup', {
    method: 'POST',
    headers,
    json: {
      cred: { username: site.credentials.username, password: site.credentials.password },
      domain: site.loginUrl,
      additionalFields: site.credentials.additionalFields,
      ...over,
    },
  });
}

describe('the sign-up fixture site, by hand', () => {
  it('signs up, mails a verification link that signs in; rejects a taken email and a weak password', async () => {
    const outbox = new Outbox<OutboundMail>();
    await withSite({ sendMail: outbox.send }, async (site) => {
      const ctx = await browser.newContext();
      try {
        const page = await ctx.newPage();
        const fill = async (email: string, password: string) => {
          await page.goto(site.loginUrl);
          await page.getByLabel('Full name').fill(SIGNUP_NEW_NAME);
          await page.getByLabel('Work email').fill(email);
          await page.getByLabel('Password', { exact: true }).fill(password);
          await page.getByLabel('Confirm password').fill(password);
          await page.getByLabel('I agree to the').check();
          await page.getByRole('button', { name: 'Create account' }).click();
        };
        await fill(SIGNUP_EXISTING_EMAIL, site.credentials.password);
        await expect.poll(() => page.getByRole('alert').textContent()).toBe(SIGNUP_EXISTS_MESSAGE);
        await fill(site.credentials.username, 'short');
        await expect.poll(() => page.getByRole('alert').textContent()).toBe(SIGNUP_WEAK_PASSWORD_MESSAGE);
        expect(outbox.messages).toHaveLength(0);
        await fill(site.credentials.username, site.credentials.password);
        await page.getByRole('heading', { name: 'Verify your email' }).waitFor();
        const mail = await outbox.nth(0);
        expect(mail.to).toBe(site.credentials.username);
        const link = /^(http\S+\/verify-email\?token=\S+)$/m.exec(mail.text)?.[1];
        expect(link).toBeDefined();
        await page.goto(link!);
        await page.getByText(`Welcome to Northwind, ${SIGNUP_NEW_NAME}`).waitFor();
        // Single use: the link does not work twice.
        await page.goto(link!);
        await page.getByRole('heading', { name: 'This verification link has expired' }).waitFor();
        expect(site.accounts().find((a) => a.email === site.credentials.username)).toEqual({
          email: site.credentials.username,
          name: SIGNUP_NEW_NAME,
          verified: true,
          productNews: false,
        });
      } finally {
        await ctx.close();
      }
    });
  });
});

describe('POST /api/signup', () => {
  it('signs up with a saved login (credential): its secrets make the account and the session links to it', async () => {
    await withSite({ sendMail: viaInbox() }, async (site) => {
      const saved = await t.request('/api/credentials', {
        method: 'POST',
        json: {
          label: 'Northwind (new account)',
          loginUrl: site.loginUrl,
          username: site.credentials.username,
          password: site.credentials.password,
          additionalFields: site.credentials.additionalFields,
        },
      });
      expect(saved.status, await saved.clone().text()).toBe(201);
      const { id } = (await saved.json()) as { id: string };
      const res = await t.request('/api/signup', { method: 'POST', json: { credential: 'Northwind (new account)' } });
      const body = await res.json();
      expect(res.status, JSON.stringify(body)).toBe(200);
      expect(await opensProtectedPage(browser, site, body)).toBe(true);
      const sessions = (await (await t.request('/api/sessions')).json()) as { data: { id: string }[] };
      expect(sessions.data.find((e) => e.id === res.headers.get('x-session-id'))).toMatchObject({ credential_id: id });
      const uses = (await (await t.request(`/api/credentials/${id}/uses`)).json()) as { data: unknown[] };
      expect(uses.data[0]).toMatchObject({ endpoint: 'signup', outcome: 'success' });
    });
  });

  it('creates the account, follows the link from the inbox endpoint, and returns a working session', async () => {
    const live: { loginId: string; step: string }[] = [];
    const off = t.core.events.on('login.step', (e) => live.push(e));
    await withSite({ sendMail: viaInbox() }, async (site) => {
      const res = await signup(site, {}, t, { 'x-login-id': 'signup-1' });
      off();
      const body = await res.json();
      expect(res.status, JSON.stringify(body)).toBe(200);
      expect(await opensProtectedPage(browser, site, body)).toBe(true);
      // The steps went out live under the caller's id, without the password.
      expect(live.map((e) => e.loginId)).toEqual(live.map(() => 'signup-1'));
      expect(live.map((e) => e.step)).toContain("submitted with button 'Create account'");
      expect(JSON.stringify(live)).not.toContain(site.credentials.password);
      const account = site.accounts().find((a) => a.email === site.credentials.username);
      // The terms were accepted (the site refuses otherwise), the newsletter box stayed unticked.
      expect(account).toEqual({
        email: site.credentials.username,
        name: SIGNUP_NEW_NAME,
        verified: true,
        productNews: false,
      });
      // Cached like a login: listed under the id the answer names.
      const sessionId = res.headers.get('x-session-id');
      const sessions = (await (await t.request('/api/sessions')).json()) as { data: { id: string; origin: string }[] };
      expect(sessions.data.find((s) => s.id === sessionId)?.origin).toBe(site.origin);
    });
  });

  it('reads the verification mail from an IMAP mailbox, and signs in when the site asks to after verifying', async () => {
    const added = await t.request('/api/mailboxes', {
      method: 'POST',
      json: {
        name: 'Sign-ups',
        addresses: ['*@example.com'],
        imap: { host: '127.0.0.1', port: dovecot.port, secure: false, username: MAIL_USER, password: MAIL_PASSWORD },
      },
    });
    expect(added.status).toBe(201);
    const mailbox = (await added.json()) as { id: string };
    try {
      const toMailbox = async (m: OutboundMail) => dovecot.deliver(MAIL_USER, await buildMail(m));
      await withSite({ sendMail: toMailbox, afterVerify: 'login' }, async (site) => {
        const res = await signup(site);
        const body = await res.json();
        expect(res.status, JSON.stringify(body)).toBe(200);
        expect(await opensProtectedPage(browser, site, body)).toBe(true);
        // The session came from the login page the site sent us to after verifying.
        expect(site.stats().loginAttempts).toBe(1);
      });
    } finally {
      await t.request(`/api/mailboxes/${mailbox.id}`, { method: 'DELETE' });
    }
  });

  it('starts from the login page (follows "Create an account") and types an emailed code', async () => {
    await withSite({ sendMail: viaInbox(), verifyBy: 'code' }, async (site) => {
      const res = await signup(site, { domain: `${site.origin}/login` });
      const body = await res.json();
      expect(res.status, JSON.stringify(body)).toBe(200);
      expect(await opensProtectedPage(browser, site, body)).toBe(true);
      expect(site.stats().codeAttempts).toBe(1);
    });
  });

  it('is 409 USER_EXISTS when the site says the account exists', async () => {
    await withSite({ sendMail: viaInbox() }, async (site) => {
      const res = await signup(site, {
        cred: { username: SIGNUP_EXISTING_EMAIL, password: site.credentials.password },
      });
      const body = (await res.json()) as ErrorBody;
      expect(res.status, JSON.stringify(body)).toBe(409);
      expect(body.error).toBe('USER_EXISTS');
      expect(body.details.reason).toBe('user_exists');
      expect(body.message).toContain(SIGNUP_EXISTS_MESSAGE);
      expect(site.stats().codesSent).toBe(0);
    });
  });

  it("is 422 SIGNUP_REJECTED with the site's message for a weak password, which never reaches the answer", async () => {
    await withSite({ sendMail: viaInbox() }, async (site) => {
      const weak = 'hunter2!';
      const res = await signup(site, { cred: { username: site.credentials.username, password: weak } });
      const body = (await res.json()) as ErrorBody;
      expect(res.status, JSON.stringify(body)).toBe(422);
      expect(body.error).toBe('SIGNUP_REJECTED');
      expect(body.details.reason).toBe('signup_rejected');
      expect(body.message).toContain(SIGNUP_WEAK_PASSWORD_MESSAGE);
      expect(JSON.stringify(body)).not.toContain(weak);
      expect(site.accounts().map((a) => a.email)).toEqual([SIGNUP_EXISTING_EMAIL]);
    });
  });

  it('is 504 code_timeout when no verification mail arrives within login.codeTimeoutMs', async () => {
    const t2 = await startTestServer({ login: { timeoutMs: 30_000, codeTimeoutMs: 1500 } });
    try {
      // The site "sends" the mail, but it never reaches the app.
      await withSite({ sendMail: async () => {} }, async (site) => {
        const res = await signup(site, {}, t2);
        const body = (await res.json()) as ErrorBody;
        expect(res.status, JSON.stringify(body)).toBe(504);
        expect(body.error).toBe('LOGIN_TIMEOUT');
        expect(body.details.reason).toBe('code_timeout');
      });
    } finally {
      await t2.close();
    }
  });

  it('is 400 INVALID_REQUEST for a missing password or a domain that is not an http(s) URL', async () => {
    for (const json of [
      { cred: { username: 'ada@example.com' }, domain: 'http://127.0.0.1:9/signup' },
      { cred: { username: 'ada@example.com', password: 'x' }, domain: 'ftp://127.0.0.1/signup' },
    ]) {
      const res = await t.request('/api/signup', { method: 'POST', json });
      const body = (await res.json()) as ErrorBody;
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(body.error).toBe('INVALID_REQUEST');
    }
  });
});
