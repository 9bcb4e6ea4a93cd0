/**
 * Logins with codes and links through POST /api/login, the code or link fed by POST /api/login/inbox
 * (an email without IMAP, an SMS forwarder), and TOTP: each returned state opens the protected page.
 * Mailboxes read over IMAP (Dovecot) are in login-codes-imap.test.ts.
 */
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Secret, TOTP } from 'otpauth';
import {
  startSite,
  TOTP_DEFAULT_SECRET,
  type CodeSiteName,
  type FixtureSite,
  type OutboundMail,
  type OutboundSms,
  type SiteOptions,
} from '../../../fixtures/sites/index.js';
import { launchTestBrowser, opensProtectedPage } from '../../../helpers/browser.js';
import { startTestServer, type TestServer } from '../../../helpers/test-server.js';

let t: TestServer;
let browser: Browser;

beforeAll(async () => {
  t = await startTestServer({ login: { timeoutMs: 30_000, codeTimeoutMs: 15_000 } });
  browser = await launchTestBrowser();
});
afterAll(async () => {
  await browser?.close();
  await t?.close();
});

/** The site's mail and SMS go to the app's inbox endpoint, as a forwarder would send them. */
function viaInbox(): Pick<SiteOptions, 'sendMail' | 'sendSms'> & { sent: (OutboundMail | OutboundSms)[] } {
  const sent: (OutboundMail | OutboundSms)[] = [];
  const post = async (json: object): Promise<void> => {
    const res = await t.request('/api/login/inbox', { method: 'POST', json });
    expect(res.status).toBe(202);
  };
  return {
    sent,
    sendMail: async (m) => {
      sent.push(m);
      await post({ to: m.to, from: m.from, subject: m.subject, text: m.text, html: m.html });
    },
    sendSms: async (m) => {
      sent.push(m);
      await post({ to: m.to, text: m.text });
    },
  };
}

async function withSite<T>(name: CodeSiteName, opts: SiteOptions, fn: (site: FixtureSite) => Promise<T>): Promise<T> {
  const site = await startSite(name, opts);
  try {
    return await fn(site);
  } finally {
    await site.close();
  }
}

function login(site: FixtureSite, loginMethod: string, over: Record<string, unknown> = {}) {
  return t.request('/api/login', {
    method: 'POST',
    json: {
      cred: { username: site.credentials.username, password: site.credentials.password },
      loginMethod,
      domain: site.loginUrl,
      additionalFields: site.credentials.additionalFields ?? {},
      useCache: false,
      ...over,
    },
  });
}

type ErrorBody = { error: string; message: string; details: { reason?: string; steps?: string[] } };

describe('codes and links fed through the inbox endpoint', () => {
  it('otp_email: password, then the emailed code in one field', async () => {
    const inbox = viaInbox();
    await withSite('email-code', inbox, async (site) => {
      const res = await login(site, 'otp_email');
      const body = await res.json();
      expect(res.status, JSON.stringify(body)).toBe(200);
      expect(await opensProtectedPage(browser, site, body)).toBe(true);
      // No code reaches the trace or the answer.
      const steps = JSON.stringify(body);
      for (const m of inbox.sent) expect(steps).not.toContain((m.text.match(/\d{6}/) ?? ['@@'])[0]);
    });
  });

  it('otp_email: passwordless, the code typed into six one-digit boxes that submit by themselves', async () => {
    await withSite('email-code-boxes', viaInbox(), async (site) => {
      const res = await login(site, 'otp_email');
      const body = await res.json();
      expect(res.status, JSON.stringify(body)).toBe(200);
      expect(await opensProtectedPage(browser, site, body)).toBe(true);
    });
  });

  it('magic_link: opens the sign-in link, not the unsubscribe or help links', async () => {
    await withSite('magic-link', viaInbox(), async (site) => {
      const res = await login(site, 'magic_link');
      const body = await res.json();
      expect(res.status, JSON.stringify(body)).toBe(200);
      expect(await opensProtectedPage(browser, site, body)).toBe(true);
      expect(site.stats().decoyHits ?? 0).toBe(0);
    });
  });

  it('otp_sms: the texted code, forwarded to the inbox endpoint by phone number', async () => {
    await withSite('sms-code', viaInbox(), async (site) => {
      const res = await login(site, 'otp_sms');
      const body = await res.json();
      expect(res.status, JSON.stringify(body)).toBe(200);
      expect(await opensProtectedPage(browser, site, body)).toBe(true);
    });
  });

  it('a wrong code is 401 invalid_code', async () => {
    // The forwarder hands over a message whose code is not the one the site sent.
    const wrong: SiteOptions = {
      sendMail: async (m) => {
        const code = m.text.match(/\b\d{6}\b/)?.[0] ?? '000000';
        const other = String((Number(code) + 1) % 1_000_000).padStart(6, '0');
        const res = await t.request('/api/login/inbox', {
          method: 'POST',
          json: { to: m.to, subject: m.subject, text: m.text.split(code).join(other) },
        });
        expect(res.status).toBe(202);
      },
    };
    await withSite('email-code', wrong, async (site) => {
      const res = await login(site, 'otp_email');
      const body = (await res.json()) as ErrorBody;
      expect(res.status, JSON.stringify(body)).toBe(401);
      expect(body.error).toBe('AUTHENTICATION_FAILED');
      expect(body.details.reason).toBe('invalid_code');
    });
  });

  it('an expired code is 401 invalid_code', async () => {
    const inbox = viaInbox();
    const late: SiteOptions = {
      codeTtlMs: 1,
      sendMail: async (m) => {
        await new Promise((r) => setTimeout(r, 20));
        await inbox.sendMail!(m);
      },
    };
    await withSite('email-code', late, async (site) => {
      const res = await login(site, 'otp_email');
      const body = (await res.json()) as ErrorBody;
      expect(res.status, JSON.stringify(body)).toBe(401);
      expect(body.details.reason).toBe('invalid_code');
      expect(body.message).toMatch(/expired/i);
    });
  });

  it('no mail within login.codeTimeoutMs is 504 code_timeout', async () => {
    const t2 = await startTestServer({ login: { timeoutMs: 30_000, codeTimeoutMs: 1500 } });
    try {
      await withSite('email-code', { sendMail: async () => {} }, async (site) => {
        const res = await t2.request('/api/login', {
          method: 'POST',
          json: {
            cred: site.credentials,
            loginMethod: 'otp_email',
            domain: site.loginUrl,
            useCache: false,
          },
        });
        const body = (await res.json()) as ErrorBody;
        expect(res.status, JSON.stringify(body)).toBe(504);
        expect(body.error).toBe('LOGIN_TIMEOUT');
        expect(body.details.reason).toBe('code_timeout');
        expect(body.message).toMatch(/no email/i);
      });
    } finally {
      await t2.close();
    }
  });

  it('a mail whose only link leads to another origin is never opened (504 code_timeout)', async () => {
    const t2 = await startTestServer({ login: { timeoutMs: 30_000, codeTimeoutMs: 2000 } });
    try {
      const other = await startSite('magic-link');
      const sendMail = async (m: OutboundMail) => {
        await t2.request('/api/login/inbox', { method: 'POST', json: { to: m.to, text: m.text, html: m.html } });
      };
      try {
        // 127.0.0.1 and localhost are different sites.
        const linkOrigin = other.origin.replace('127.0.0.1', 'localhost');
        await withSite('magic-link', { sendMail, linkOrigin }, async (site) => {
          const res = await t2.request('/api/login', {
            method: 'POST',
            json: { cred: site.credentials, loginMethod: 'magic_link', domain: site.loginUrl, useCache: false },
          });
          const body = (await res.json()) as ErrorBody;
          expect(res.status, JSON.stringify(body)).toBe(504);
          expect(body.details.reason).toBe('code_timeout');
          expect(other.stats().successfulLogins).toBe(0);
          expect(site.stats().successfulLogins).toBe(0);
        });
      } finally {
        await other.close();
      }
    } finally {
      await t2.close();
    }
  });
});

describe('authenticator codes (TOTP)', () => {
  it('totp: password, then the code computed from cred.totpSecret (an otpauth:// URI works too)', async () => {
    await withSite('totp', {}, async (site) => {
      const uri = new TOTP({
        issuer: 'Keystone',
        label: 'alice',
        secret: Secret.fromBase32(TOTP_DEFAULT_SECRET),
      }).toString();
      const res = await login(site, 'totp', {
        cred: { username: site.credentials.username, password: site.credentials.password, totpSecret: uri },
      });
      const body = await res.json();
      expect(res.status, JSON.stringify(body)).toBe(200);
      expect(await opensProtectedPage(browser, site, body)).toBe(true);
    });
  });

  it('a password login that meets an authenticator prompt uses cred.totpSecret when given, else says what it needs', async () => {
    await withSite('totp', {}, async (site) => {
      const without = await login(site, 'password');
      const body = (await without.json()) as ErrorBody;
      expect(without.status).toBe(422);
      expect(body.details.reason).toBe('mfa_required');
      expect(body.message).toContain('cred.totpSecret');
    });
    await withSite('totp', {}, async (site) => {
      const res = await login(site, 'password', {
        cred: { ...site.credentials, totpSecret: TOTP_DEFAULT_SECRET.toLowerCase() },
      });
      expect(res.status).toBe(200);
      expect(await opensProtectedPage(browser, site, await res.json())).toBe(true);
    });
  });

  it('a wrong authenticator secret is 401 invalid_code; a malformed one is 400', async () => {
    await withSite('totp', {}, async (site) => {
      const res = await login(site, 'totp', { cred: { ...site.credentials, totpSecret: 'JBSWY3DPEHPK3PXP' } });
      const body = (await res.json()) as ErrorBody;
      expect(res.status, JSON.stringify(body)).toBe(401);
      expect(body.details.reason).toBe('invalid_code');
      const bad = await login(site, 'totp', { cred: { ...site.credentials, totpSecret: 'not base32 !!' } });
      const badBody = (await bad.json()) as ErrorBody;
      expect(bad.status).toBe(400);
      expect(JSON.stringify(badBody)).not.toContain('not base32');
    });
  });
});

describe('POST /api/login/inbox', () => {
  it('answers 202 with how many pending logins took it, and 400 for a bad address', async () => {
    const ok = await t.request('/api/login/inbox', { method: 'POST', json: { to: 'nobody@example.com', text: 'hi' } });
    expect(ok.status).toBe(202);
    expect(await ok.json()).toEqual({ delivered: 0 });
    const bad = await t.request('/api/login/inbox', { method: 'POST', json: { to: 'not-an-address', text: 'x' } });
    expect(bad.status).toBe(400);
    const empty = await t.request('/api/login/inbox', { method: 'POST', json: { to: '+15550100001' } });
    expect(empty.status).toBe(400);
  });

  it('needs login:write', async () => {
    const reader = t.newOrg('reader', ['sessions:read']);
    const res = await t.request('/api/login/inbox', {
      method: 'POST',
      key: reader.key,
      json: { to: 'a@example.com', text: 'x' },
    });
    expect(res.status).toBe(403);
  });
});
