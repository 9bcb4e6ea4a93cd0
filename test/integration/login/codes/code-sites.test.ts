/**
 * The code fixture sites (CODE_SITES; issue "codes and links") behave as documented: a person's
 * Playwright script (manual-scripts-codes.ts) signs in with the code from the mail or text, captured
 * in memory, and the session opens the protected page from a storageState; wrong and expired codes
 * are refused. magic-link and totp: code-sites-link-totp.test.ts. The engine's own tests are elsewhere.
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  CODE_SITES,
  EMAIL_CODE_BOXES_SUBJECT,
  EMAIL_CODE_EXPIRED,
  EMAIL_CODE_SUBJECT,
  EMAIL_CODE_WRONG,
  SMS_CODE_EXPIRED,
  SMS_CODE_PHONE,
  SMS_CODE_WRONG,
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

describe.each(CODE_SITES)('%s', (name) => {
  it('the protected page is not available without signing in', async () => {
    await withCodeSite(browser, name, async ({ site }) => {
      expect(site.origin).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      await expectProtectedPage(browser, site, undefined, 'signed out');
      expect(site.stats()).toMatchObject({ loginAttempts: 0, successfulLogins: 0 });
    });
  });
});

describe('email-code (Acme Cloud)', () => {
  const script = CODE_MANUAL_SCRIPTS['email-code'];

  it('password, then the emailed code: signed in, the session survives in a storageState', async () => {
    await withCodeSite(browser, 'email-code', async (run) => {
      await script.begin(run.page, run.site);
      await run.page.getByText('we sent a verification code to a***@example.com').waitFor();
      const input = run.page.getByLabel('Verification code');
      expect(await input.getAttribute('inputmode')).toBe('numeric');
      expect(await input.getAttribute('autocomplete')).toBeNull();
      expect(await run.page.locator('main input:not([type=hidden])').count()).toBe(1);

      const mail = await run.mail.nth(0);
      expect(mail).toMatchObject({ to: 'alice@example.com', subject: EMAIL_CODE_SUBJECT });
      const code = secretIn('email-code', mail);
      expect(mail.html).toMatch(new RegExp(`<td[^>]*font-size:36px[^>]*>${code}</td>`));
      for (const decoy of ['548 Market St #12345', 'CA 94104', 'Request ID 7731-992', '+1 415 555 0100']) {
        expect(mail.text).toContain(decoy);
        expect(mail.html).toContain(decoy);
      }

      await script.enterCode(run.page, code);
      await expectSignedIn(browser, run);
      expect(run.site.stats()).toEqual({ loginAttempts: 1, successfulLogins: 1, codesSent: 1, codeAttempts: 1 });
    });
  });

  it('a wrong code is refused inline (200, same page); a resent code replaces the old one', async () => {
    await withCodeSite(browser, 'email-code', async (run) => {
      await script.begin(run.page, run.site);
      const first = secretIn('email-code', await run.mail.nth(0));
      const refused = run.page.waitForResponse(
        (r) => r.url().endsWith('/login/verify') && r.request().method() === 'POST',
      );
      await script.enterCode(run.page, otherCode(first));
      expect((await refused).status()).toBe(200);
      await waitForAlert(run.page, EMAIL_CODE_WRONG);

      await run.page.getByRole('button', { name: 'Resend code' }).click();
      await run.page.getByText('We sent you a new code.').waitFor();
      const second = secretIn('email-code', await run.mail.nth(1));
      if (second !== first) {
        await script.enterCode(run.page, first);
        await waitForAlert(run.page, EMAIL_CODE_WRONG);
      }
      await script.enterCode(run.page, second);
      await expectSignedIn(browser, run);
      expect(run.site.stats()).toMatchObject({ successfulLogins: 1, codesSent: 2 });
    });
  });

  it('a code older than codeTtlMs is refused as expired', async () => {
    await withCodeSite(
      browser,
      'email-code',
      async (run) => {
        await script.begin(run.page, run.site);
        await script.enterCode(run.page, secretIn('email-code', await run.mail.nth(0)));
        await waitForAlert(run.page, EMAIL_CODE_EXPIRED);
        expect(run.site.stats()).toMatchObject({ successfulLogins: 0, codeAttempts: 1 });
        await expectProtectedPage(browser, run.site, run.context, 'signed out');
      },
      { codeTtlMs: 1 },
    );
  });

  it('a wrong password sends no mail; without a mail transport the site says so', async () => {
    await withCodeSite(browser, 'email-code', async (run) => {
      await run.page.goto(run.site.loginUrl);
      await run.page.getByLabel('Email address').fill(run.site.credentials.username);
      await run.page.getByLabel('Password').fill('Tr0ub4dor&3');
      await run.page.getByRole('button', { name: 'Sign in' }).click();
      await waitForAlert(run.page, 'Incorrect email or password.');
      expect(run.mail.messages).toHaveLength(0);
    });
    await withCodeSite(
      browser,
      'email-code',
      async (run) => {
        const answer = run.page.waitForResponse((r) => r.url().endsWith('/login') && r.request().method() === 'POST');
        await run.page.goto(run.site.loginUrl);
        await run.page.getByLabel('Email address').fill(run.site.credentials.username);
        await run.page.getByLabel('Password').fill(run.site.credentials.password);
        await run.page.getByRole('button', { name: 'Sign in' }).click();
        expect((await answer).status()).toBe(503);
        await waitForAlert(run.page, "We couldn't send your verification code");
        expect(run.site.stats()).toMatchObject({ codesSent: 0 });
      },
      { noTransport: true },
    );
  });
});

describe('email-code-boxes (Lumen)', () => {
  const script = CODE_MANUAL_SCRIPTS['email-code-boxes'];
  const boxValues = (page: Page): Promise<string[]> =>
    page.locator('.otp-box').evaluateAll((els) => els.map((el) => (el as HTMLInputElement).value));

  it('six one-digit boxes: the focus moves on and the sixth digit submits (no button); German mail', async () => {
    await withCodeSite(browser, 'email-code-boxes', async (run) => {
      expect(run.site.credentials).toEqual({ username: 'alice@example.com', password: '' });
      await script.begin(run.page, run.site);
      const boxes = run.page.locator('#code-form input');
      expect(await boxes.count()).toBe(6);
      for (let n = 1; n <= 6; n++) {
        const box = run.page.getByLabel(`Digit ${n}`);
        expect([await box.getAttribute('maxlength'), await box.getAttribute('name')]).toEqual(['1', `digit${n}`]);
      }
      expect(await run.page.locator('#code-form button, #code-form [type=submit]').count()).toBe(0);

      const mail = await run.mail.nth(0);
      expect(mail.subject).toBe(EMAIL_CODE_BOXES_SUBJECT);
      expect(mail.text).toContain('Gültig für 5 Minuten');
      const code = secretIn('email-code-boxes', mail);
      expect(mail.html).toContain(`${code}</p>`);

      await run.page.getByLabel('Digit 1').click();
      await run.page.keyboard.type(code.slice(0, 1));
      expect(await run.page.evaluate(() => document.activeElement?.getAttribute('aria-label'))).toBe('Digit 2');
      const submitted = run.page.waitForRequest((r) => r.url().endsWith('/login/code') && r.method() === 'POST');
      await run.page.keyboard.type(code.slice(1));
      expect((await submitted).postData()).toBe([...code].map((d, i) => `digit${i + 1}=${d}`).join('&'));
      await expectSignedIn(browser, run);
      expect(run.site.stats()).toEqual({ loginAttempts: 1, successfulLogins: 1, codesSent: 1, codeAttempts: 1 });
    });
  });

  it('pasting the whole code into the first box fills all six and submits', async () => {
    await withCodeSite(browser, 'email-code-boxes', async (run) => {
      await script.begin(run.page, run.site);
      const code = secretIn('email-code-boxes', await run.mail.nth(0));
      const submitted = run.page.waitForRequest((r) => r.url().endsWith('/login/code') && r.method() === 'POST');
      await run.page.getByLabel('Digit 1').evaluate(
        (el, text) => {
          const data = new DataTransfer();
          data.setData('text/plain', text);
          el.dispatchEvent(new ClipboardEvent('paste', { clipboardData: data, bubbles: true, cancelable: true }));
        },
        `${code.slice(0, 3)} ${code.slice(3)}`,
      );
      await submitted;
      await expectSignedIn(browser, run);
    });
  });

  it('a wrong code shows the error with empty boxes; an expired code is refused', async () => {
    await withCodeSite(browser, 'email-code-boxes', async (run) => {
      await script.begin(run.page, run.site);
      await script.enterCode(run.page, otherCode(secretIn('email-code-boxes', await run.mail.nth(0))));
      await waitForAlert(run.page, 'That code is incorrect');
      expect(await boxValues(run.page)).toEqual(['', '', '', '', '', '']);
      expect(run.site.stats()).toMatchObject({ successfulLogins: 0, codeAttempts: 1 });
    });
    await withCodeSite(
      browser,
      'email-code-boxes',
      async (run) => {
        await script.begin(run.page, run.site);
        await script.enterCode(run.page, secretIn('email-code-boxes', await run.mail.nth(0)));
        await waitForAlert(run.page, 'This code has expired. Request a new one.');
        await expectProtectedPage(browser, run.site, run.context, 'signed out');
      },
      { codeTtlMs: 1 },
    );
  });
});

describe('sms-code (Parcelly)', () => {
  const script = CODE_MANUAL_SCRIPTS['sms-code'];

  it('the phone number, then the texted code: signed in', async () => {
    await withCodeSite(browser, 'sms-code', async (run) => {
      expect(run.site.credentials).toEqual({
        username: SMS_CODE_PHONE,
        password: '',
        additionalFields: { phone: SMS_CODE_PHONE },
      });
      // Typed the way people write it; the site texts the E.164 form.
      await script.begin(run.page, run.site, '+1 555 010 0001');
      await run.page.getByText('We texted a code to •••• 0001').waitFor();
      expect(await run.page.getByLabel('SMS code').getAttribute('autocomplete')).toBe('one-time-code');

      const text = await run.sms.nth(0);
      expect(text.to).toBe(SMS_CODE_PHONE);
      await script.enterCode(run.page, secretIn('sms-code', text));
      await expectSignedIn(browser, run);
      expect(run.site.stats()).toEqual({ loginAttempts: 1, successfulLogins: 1, codesSent: 1, codeAttempts: 1 });
      expect(run.mail.messages).toHaveLength(0);
    });
  });

  it('the phone field is type=tel named phone; an unknown number gets no text', async () => {
    await withCodeSite(browser, 'sms-code', async (run) => {
      await run.page.goto(run.site.loginUrl);
      const phone = run.page.getByLabel('Mobile number');
      expect([await phone.getAttribute('type'), await phone.getAttribute('name')]).toEqual(['tel', 'phone']);
      await phone.fill('+15550100002');
      await run.page.getByRole('button', { name: 'Text me a code' }).click();
      await waitForAlert(run.page, "We couldn't find a Parcelly account for that number.");
      expect(run.sms.messages).toHaveLength(0);
    });
  });

  it('a wrong code is refused; an expired code too', async () => {
    await withCodeSite(browser, 'sms-code', async (run) => {
      await script.begin(run.page, run.site);
      await script.enterCode(run.page, otherCode(secretIn('sms-code', await run.sms.nth(0))));
      await waitForAlert(run.page, SMS_CODE_WRONG);
    });
    await withCodeSite(
      browser,
      'sms-code',
      async (run) => {
        await script.begin(run.page, run.site);
        await script.enterCode(run.page, secretIn('sms-code', await run.sms.nth(0)));
        await waitForAlert(run.page, SMS_CODE_EXPIRED);
        await expectProtectedPage(browser, run.site, run.context, 'signed out');
      },
      { codeTtlMs: 1 },
    );
  });
});
