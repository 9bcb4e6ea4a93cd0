/**
 * The magic-link and totp fixture sites (CODE_SITES; issue "codes and links") behave as documented:
 * the emailed link (captured in memory) or the authenticator code signs a person in; used, expired
 * and reused links and codes are refused. Code sites: code-sites.test.ts.
 */
import { Secret, TOTP } from 'otpauth';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  MAGIC_LINK_EXPIRED,
  MAGIC_LINK_PATH,
  TOTP_ALREADY_USED,
  TOTP_DEFAULT_SECRET,
  TOTP_PERIOD_SECONDS,
  TOTP_WRONG,
} from '../../../fixtures/sites/index.js';
import { CODE_MANUAL_SCRIPTS, secretIn } from '../../../fixtures/sites/manual-scripts-codes.js';
import { launchTestBrowser } from '../../../helpers/browser.js';
import {
  expectProtectedPage,
  expectSignedIn,
  otherCode,
  waitForAlert,
  withCodeSite,
} from '../../../helpers/code-sites.js';

let browser: Browser;
beforeAll(async () => {
  browser = await launchTestBrowser();
});
afterAll(async () => {
  await browser?.close();
});

describe('magic-link (Driftwood)', () => {
  const script = CODE_MANUAL_SCRIPTS['magic-link'];

  it('the emailed link signs in; the mail carries decoy links that are not it', async () => {
    await withCodeSite(browser, 'magic-link', async (run) => {
      await script.begin(run.page, run.site);
      await run.page.getByText('We sent a sign-in link to a***@example.com').waitFor();
      expect(await run.page.locator('main form').count()).toBe(0);

      const mail = await run.mail.nth(0);
      const link = secretIn('magic-link', mail);
      expect(link.startsWith(`${run.site.origin}${MAGIC_LINK_PATH}?token=`)).toBe(true);
      expect(mail.html).toContain(`href="${link}" style=`);
      expect(mail.html).toMatch(/>Sign in to Driftwood<\/a>/);
      for (const decoy of ['/email/unsubscribe?u=', '/email/preferences?u=', '/email/open.gif?m=']) {
        expect(mail.html).toContain(`${run.site.origin}${decoy}`);
      }
      expect(mail.html).toContain(`href="${run.site.origin}/help"`);
      expect(mail.html).toContain('href="https://example.org/blog"');

      await run.page.goto(link);
      await expectSignedIn(browser, run);
      expect(run.site.stats()).toEqual({
        loginAttempts: 1,
        successfulLogins: 1,
        codesSent: 1,
        codeAttempts: 1,
        decoyHits: 0,
      });
      const unsubscribe = /href="([^"]*\/email\/unsubscribe[^"]*)"/.exec(mail.html)![1]!;
      await run.context.request.get(unsubscribe.replace(/&amp;/g, '&'));
      expect(run.site.stats().decoyHits).toBe(1);
    });
  });

  it('a used link shows "This link has expired" and gives no session', async () => {
    await withCodeSite(browser, 'magic-link', async (run) => {
      await script.begin(run.page, run.site);
      const link = secretIn('magic-link', await run.mail.nth(0));
      await run.page.goto(link);
      await expectSignedIn(browser, run);

      const other = await browser.newContext();
      try {
        const page = await other.newPage();
        await page.goto(link);
        await page.getByRole('heading', { name: MAGIC_LINK_EXPIRED }).waitFor();
        await expectProtectedPage(browser, run.site, other, 'signed out');
      } finally {
        await other.close();
      }
      expect(run.site.stats()).toMatchObject({ successfulLogins: 1, codeAttempts: 2 });
    });
  });

  it('a link older than codeTtlMs has expired', async () => {
    await withCodeSite(
      browser,
      'magic-link',
      async (run) => {
        await script.begin(run.page, run.site);
        await run.page.goto(secretIn('magic-link', await run.mail.nth(0)));
        await run.page.getByRole('heading', { name: MAGIC_LINK_EXPIRED }).waitFor();
        await expectProtectedPage(browser, run.site, run.context, 'signed out');
        expect(run.site.stats()).toMatchObject({ successfulLogins: 0 });
      },
      { codeTtlMs: 1 },
    );
  });

  it('linkOrigin moves only the sign-in link to another origin', async () => {
    const linkOrigin = 'https://driftwood-mail.example';
    await withCodeSite(
      browser,
      'magic-link',
      async (run) => {
        await script.begin(run.page, run.site);
        const mail = await run.mail.nth(0);
        expect(secretIn('magic-link', mail).startsWith(`${linkOrigin}${MAGIC_LINK_PATH}?token=`)).toBe(true);
        expect(mail.html).toContain(`${run.site.origin}/email/unsubscribe?u=`);
      },
      { linkOrigin },
    );
  });
});

describe('totp (Keystone)', () => {
  const script = CODE_MANUAL_SCRIPTS.totp;
  const authenticator = new TOTP({ secret: Secret.fromBase32(TOTP_DEFAULT_SECRET), period: TOTP_PERIOD_SECONDS });
  /** Codes the site accepts around now (±1 period, and one more in case a period ends meanwhile). */
  const codesNearNow = (): string[] =>
    [-1, 0, 1, 2].map((k) => authenticator.generate({ timestamp: Date.now() + k * TOTP_PERIOD_SECONDS * 1000 }));

  it('the code from the authenticator app signs in; the field is a one-time-code field', async () => {
    await withCodeSite(browser, 'totp', async (run) => {
      await script.begin(run.page, run.site);
      await run.page.getByText('Enter the code from your authenticator app').waitFor();
      expect(await run.page.getByLabel('Authentication code').getAttribute('autocomplete')).toBe('one-time-code');
      await script.enterCode(run.page, authenticator.generate());
      await expectSignedIn(browser, run);
      expect(run.site.stats()).toEqual({ loginAttempts: 1, successfulLogins: 1, codeAttempts: 1 });
    });
  });

  it('a wrong code and a code from ten minutes ago are refused; a used code is refused next time', async () => {
    await withCodeSite(browser, 'totp', async (run) => {
      await script.begin(run.page, run.site);
      const valid = codesNearNow();
      let wrong = '000000';
      while (valid.includes(wrong)) wrong = otherCode(wrong);
      await script.enterCode(run.page, wrong);
      await waitForAlert(run.page, TOTP_WRONG);
      const old = authenticator.generate({ timestamp: Date.now() - 600_000 });
      if (!codesNearNow().includes(old)) {
        await script.enterCode(run.page, old);
        await waitForAlert(run.page, TOTP_WRONG);
      }
      const code = authenticator.generate();
      await script.enterCode(run.page, code);
      await expectSignedIn(browser, run);

      const again = await browser.newContext();
      try {
        const page = await again.newPage();
        await script.begin(page, run.site);
        await script.enterCode(page, code);
        await waitForAlert(page, TOTP_ALREADY_USED);
      } finally {
        await again.close();
      }
      expect(run.site.stats()).toMatchObject({ loginAttempts: 2, successfulLogins: 1 });
    });
  });

  it('a code sent after codeTtlMs sends the person back to the password form', async () => {
    await withCodeSite(
      browser,
      'totp',
      async (run) => {
        await script.begin(run.page, run.site);
        await script.enterCode(run.page, authenticator.generate());
        await waitForAlert(run.page, 'Your sign-in timed out. Sign in again.');
        await expectProtectedPage(browser, run.site, run.context, 'signed out');
      },
      { codeTtlMs: 1 },
    );
  });
});
