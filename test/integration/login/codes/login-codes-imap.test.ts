/**
 * Codes and links read from a real mailbox: Dovecot IMAP on loopback, a mailbox added through
 * POST /api/mailboxes, the sites' mail delivered into it by IMAP APPEND. Each returned state opens
 * the protected page.
 */
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { passwordAccount } from '../../../../src/main/core/login/mailboxes/mailboxes.service.js';
import { startSite, type CodeSiteName, type FixtureSite, type OutboundMail } from '../../../fixtures/sites/index.js';
import { launchTestBrowser, opensProtectedPage } from '../../../helpers/browser.js';
import { buildMail, startDovecot, type Dovecot } from '../../../helpers/dovecot.js';
import { startTestServer, type TestServer } from '../../../helpers/test-server.js';

const MAIL_USER = 'inbox';
const MAIL_PASSWORD = 'imap-secret-Kq7';

let t: TestServer;
let browser: Browser;
let dovecot: Dovecot;
let mailboxId: string;

beforeAll(async () => {
  [t, browser, dovecot] = await Promise.all([
    startTestServer({ login: { timeoutMs: 30_000, codeTimeoutMs: 20_000 } }),
    launchTestBrowser(),
    startDovecot({ users: [{ user: MAIL_USER, password: MAIL_PASSWORD }] }),
  ]);
  mailboxId = await addMailbox(t, 'Team inbox', ['*@example.com'], MAIL_PASSWORD);
});
afterAll(async () => {
  await browser?.close();
  await t?.close();
  await dovecot?.close();
});

async function addMailbox(server: TestServer, name: string, addresses: string[], password: string) {
  const res = await server.request('/api/mailboxes', {
    method: 'POST',
    json: {
      name,
      addresses,
      imap: { host: '127.0.0.1', port: dovecot.port, secure: false, username: MAIL_USER, password },
    },
  });
  const body = (await res.json()) as { id: string };
  expect(res.status, JSON.stringify(body)).toBe(201);
  return body.id;
}

/** The site's mail lands in the Dovecot mailbox (optionally after something else happens first). */
function toMailbox(before?: () => Promise<void>) {
  return async (m: OutboundMail): Promise<void> => {
    await before?.();
    await dovecot.deliver(MAIL_USER, await buildMail(m));
  };
}

function login(server: TestServer, site: FixtureSite, loginMethod: string, username = site.credentials.username) {
  return server.request('/api/login', {
    method: 'POST',
    json: {
      cred: { username, password: site.credentials.password },
      loginMethod,
      domain: site.loginUrl,
      useCache: false,
    },
  });
}

type ErrorBody = { error: string; message: string; details: { reason?: string; steps?: string[] } };

async function withSite<T>(
  name: CodeSiteName,
  opts: Parameters<typeof startSite>[1],
  fn: (s: FixtureSite) => Promise<T>,
): Promise<T> {
  const site = await startSite(name, opts);
  try {
    return await fn(site);
  } finally {
    await site.close();
  }
}

describe('codes and links from an IMAP mailbox', () => {
  it('otp_email: the new code mail wins over an older one already in the box', async () => {
    await withSite('email-code', { sendMail: toMailbox() }, async (site) => {
      // A code mail from an earlier attempt, already in the mailbox when the login begins.
      await dovecot.deliver(
        MAIL_USER,
        await buildMail({
          from: 'Acme Cloud <security@acme.test>',
          to: site.credentials.username,
          subject: 'Your Acme verification code',
          text: 'Your verification code is 111111.',
        }),
      );
      const res = await login(t, site, 'otp_email');
      const body = await res.json();
      expect(res.status, JSON.stringify(body)).toBe(200);
      expect(await opensProtectedPage(browser, site, body)).toBe(true);
    });
  });

  it('magic_link: the link from the new mail, with an older sign-in mail in the box', async () => {
    await withSite('magic-link', { sendMail: toMailbox() }, async (site) => {
      await dovecot.deliver(
        MAIL_USER,
        await buildMail({
          from: 'Driftwood <hello@driftwood.test>',
          to: site.credentials.username,
          subject: 'Sign in to Driftwood',
          html: `<a href="${site.origin}/auth/magic?token=stale-token-from-yesterday">Sign in to Driftwood</a>`,
        }),
      );
      const res = await login(t, site, 'magic_link');
      const body = await res.json();
      expect(res.status, JSON.stringify(body)).toBe(200);
      expect(await opensProtectedPage(browser, site, body)).toBe(true);
    });
  });

  it('several logins sharing one mailbox at once each get their own message', async () => {
    const users = ['ana@example.com', 'ben@example.com', 'cyd@example.com'];
    const sites = await Promise.all(
      users.map((username) => startSite('email-code-boxes', { username, sendMail: toMailbox() })),
    );
    try {
      const answers = await Promise.all(sites.map((site) => login(t, site, 'otp_email')));
      for (const [i, res] of answers.entries()) {
        const body = await res.json();
        expect(res.status, JSON.stringify(body)).toBe(200);
        expect(await opensProtectedPage(browser, sites[i], body)).toBe(true);
      }
    } finally {
      await Promise.all(sites.map((s) => s.close()));
    }
  });

  it('an IMAP server that drops the connection mid-IDLE: the watcher reconnects and the code still arrives', async () => {
    const dropFirst = toMailbox(() => dovecot.kick(MAIL_USER));
    await withSite('email-code', { sendMail: dropFirst }, async (site) => {
      const res = await login(t, site, 'otp_email');
      const body = await res.json();
      expect(res.status, JSON.stringify(body)).toBe(200);
      expect(await opensProtectedPage(browser, site, body)).toBe(true);
    });
  });

  it('a mailbox that is down, or refuses its password, is 502 MAILBOX_UNAVAILABLE naming it', async () => {
    for (const [name, password, port] of [
      ['Closed port', MAIL_PASSWORD, 1],
      ['Wrong password', 'not-the-password', undefined],
    ] as const) {
      const t2 = await startTestServer({ login: { timeoutMs: 30_000, codeTimeoutMs: 20_000 } });
      try {
        // Saving checks the login, so the mailbox is saved working and breaks afterwards: its server moved
        // (a port nothing listens on), or its password was changed at the provider.
        const id = await addMailbox(t2, name, ['*@example.com'], MAIL_PASSWORD);
        if (port) t2.core.db.prepare('UPDATE mailboxes SET imap_port = ? WHERE id = ?').run(port, id);
        await t2.core.secrets.set(passwordAccount(id), password);
        await withSite('email-code', { sendMail: toMailbox() }, async (site) => {
          const res = await login(t2, site, 'otp_email');
          const body = (await res.json()) as ErrorBody;
          expect(res.status, JSON.stringify(body)).toBe(502);
          expect(body.error).toBe('MAILBOX_UNAVAILABLE');
          expect(body.message).toContain(name);
          expect(JSON.stringify(body)).not.toContain(password);
        });
      } finally {
        await t2.close();
      }
    }
  });

  it("a mailbox whose password this computer's secret store lacks (a data dir moved) is 409 SECRETS_MISSING naming it", async () => {
    const t2 = await startTestServer({ login: { timeoutMs: 30_000, codeTimeoutMs: 20_000 } });
    try {
      const id = await addMailbox(t2, 'Moved inbox', ['*@example.com'], MAIL_PASSWORD);
      await t2.core.secrets.delete(passwordAccount(id));
      await withSite('email-code', { sendMail: toMailbox() }, async (site) => {
        const res = await login(t2, site, 'otp_email');
        const body = (await res.json()) as ErrorBody;
        expect(res.status, JSON.stringify(body)).toBe(409);
        expect(body.error).toBe('SECRETS_MISSING');
        expect(body.message).toContain("Mailbox 'Moved inbox'");
        expect(body.message).toMatch(/missing from this computer's secret store .*backup create/);
      });
    } finally {
      await t2.close();
    }
  });

  it('the mailbox id is listed and its password never comes back', async () => {
    const res = await t.request('/api/mailboxes');
    const text = await res.text();
    expect(text).toContain(mailboxId);
    expect(text).not.toContain(MAIL_PASSWORD);
  });
});
