/**
 * What makes the round-3 real-web fixture sites hard, part 2: the form and its messages
 * (japanese-new-password, lockout-notice, cross-origin-iframe, validated-spa, nested-shadow), checked
 * on the sites alone (no login engine). The generic checks (signed out without login, the manual
 * script logs in and the session survives as a storageState, a wrong password is rejected) are in
 * fixture-sites-realweb.test.ts; fixture-sites-realweb3-boot.test.ts has the other round-3 sites.
 */
import { describe, expect, it } from 'vitest';
import { useSiteBrowser } from '../../../helpers/browser.js';
import { MANUAL_SCRIPTS } from '../../../fixtures/sites/manual-scripts.js';

const WRONG_PASSWORD = 'Tr0ub4dor&3';

const { browser, withSite } = useSiteBrowser();

const pathOf = (url: string): string => new URL(url).pathname;

describe('japanese-new-password: a Japanese login form whose only password field asks for a new password', () => {
  it('japanese-new-password: a Japanese page, one password field marked autocomplete=new-password', async () => {
    await withSite('japanese-new-password', async (site, page) => {
      await page.goto(site.loginUrl);
      expect(await page.locator('html').getAttribute('lang')).toBe('ja');
      await page.getByRole('heading', { name: 'ログイン', exact: true }).waitFor();
      const form = page.locator('form[action="/login.php"]');
      expect(await form.getAttribute('method')).toBe('post');
      expect(await form.locator('input[type=hidden]').count()).toBe(1);
      // Exactly one password field on the page, no confirmation field, and it asks for a *new* password.
      const passwords = page.locator('input[type=password]');
      expect(await passwords.count()).toBe(1);
      expect(await passwords.getAttribute('autocomplete')).toBe('new-password');
      expect(await passwords.getAttribute('name')).toBe('pw');
      expect(await form.getByText('確認').count()).toBe(0);
      // The username field: plain text, no autocomplete or placeholder hints.
      const user = form.getByLabel('ユーザー名', { exact: true });
      expect(await user.evaluate((el) => [el.getAttribute('type'), el.getAttribute('name')])).toEqual([
        'text',
        'login_id',
      ]);
      expect(await form.locator('[autocomplete]:not([type=password]), [placeholder], [aria-label]').count()).toBe(0);
      // No English in the form's labels and buttons.
      const labels = await form.locator('label').allInnerTexts();
      const buttons = await form.locator('button').allInnerTexts();
      expect(labels.map((t) => t.trim())).toEqual(['ユーザー名', 'パスワード', 'ログイン状態を保持する']);
      expect(buttons).toEqual(['サインイン']);
      for (const text of [...labels, ...buttons]) expect(text).not.toMatch(/[A-Za-z]/);
      // Other links of the page: forgotten password, sign-up (whose page does have a confirmation field).
      await page.getByRole('link', { name: 'パスワードをお忘れですか？' }).waitFor();
      await page.getByRole('link', { name: '新規登録' }).click();
      await page.waitForURL(`${site.origin}/register.php`);
      expect(await page.locator('input[type=password]').count()).toBe(2);
    });
  });

  it('japanese-new-password: success is a 302 to /home.php with a fresh PHPSESSID', async () => {
    await withSite('japanese-new-password', async (site, page, context) => {
      await page.goto(site.loginUrl);
      const before = (await context.cookies()).find((c) => c.name === 'PHPSESSID')?.value;
      expect(before).toBeTruthy();
      const post = page.waitForResponse((r) => r.request().method() === 'POST');
      await MANUAL_SCRIPTS['japanese-new-password'].submit(page, site, site.credentials.password);
      const answer = await post;
      expect(answer.status()).toBe(302);
      expect(await answer.headerValue('location')).toBe('/home.php');
      await page.waitForURL(site.protectedUrl);
      const after = (await context.cookies()).find((c) => c.name === 'PHPSESSID')?.value;
      expect(after).toBeTruthy();
      expect(after).not.toBe(before);
    });
  });
});

describe('lockout-notice: a lockout named as a possibility, and a signed-in page reporting failed attempts', () => {
  it('lockout-notice: every wrong password mentions a temporary block, yet the account is never blocked', async () => {
    await withSite('lockout-notice', async (site, page) => {
      const script = MANUAL_SCRIPTS['lockout-notice'];
      for (let i = 0; i < 3; i++) {
        await script.submit(page, site, WRONG_PASSWORD);
        await script.rejected(page);
        expect(await page.locator('div.error').innerText()).toBe(
          'Username or password incorrect, or account is temporarily blocked.',
        );
      }
      expect(site.stats()).toEqual({ loginAttempts: 3, successfulLogins: 0 });
      await script.submit(page, site, site.credentials.password);
      await page.waitForURL(site.protectedUrl);
      await page.getByText('3 failed login attempts logged since your last login.').waitFor();
      expect(site.stats()).toEqual({ loginAttempts: 4, successfulLogins: 1 });
    });
  });

  it('lockout-notice: a correct login right after a wrong one shows a failed-attempt warning above the content', async () => {
    await withSite('lockout-notice', async (site, page, context) => {
      const script = MANUAL_SCRIPTS['lockout-notice'];
      await script.submit(page, site, WRONG_PASSWORD);
      await script.rejected(page);
      await script.submit(page, site, site.credentials.password);
      await page.waitForURL(site.protectedUrl);
      const notice = page.locator('div.notice.warning');
      await notice.waitFor({ state: 'visible' });
      expect(await notice.innerText()).toBe('1 failed login attempt logged since your last login.');
      await page.getByText(site.loggedInText).waitFor({ state: 'visible' });
      // The warning comes first in the page content.
      expect(await page.locator('main > *').first().getAttribute('class')).toBe('notice warning');
      expect(site.stats()).toEqual({ loginAttempts: 2, successfulLogins: 1 });
      // The session behind the warning page is a real one: its storageState opens the protected page.
      const fresh = await browser().newContext({ storageState: await context.storageState() });
      fresh.setDefaultTimeout(10_000);
      try {
        const other = await fresh.newPage();
        await other.goto(site.protectedUrl);
        await other.getByText(site.loggedInText).first().waitFor({ state: 'visible' });
        expect(other.url()).toBe(site.protectedUrl);
      } finally {
        await fresh.close();
      }
      // The counter reset on success: the next login has no warning.
      await page.getByRole('link', { name: 'Log Out' }).click();
      await script.submit(page, site, site.credentials.password);
      await page.waitForURL(site.protectedUrl);
      await page.getByText(site.loggedInText).waitFor({ state: 'visible' });
      expect(await page.locator('div.notice').count()).toBe(0);
    });
  });
});

describe('cross-origin-iframe: the form lives in an out-of-process frame of another site', () => {
  it('cross-origin-iframe: the form is in a frame of another origin and site; the page has no input', async () => {
    await withSite('cross-origin-iframe', async (site, page) => {
      await page.goto(site.loginUrl);
      const widget = page.frameLocator('iframe[title="Keystone ID sign-in"]');
      await widget.getByLabel('Password').waitFor();
      const frame = page.frames().find((f) => f !== page.mainFrame())!;
      const frameOrigin = new URL(frame.url()).origin;
      expect(frameOrigin).toBe(`http://localhost:${new URL(site.origin).port}`);
      expect(frameOrigin).not.toBe(new URL(page.url()).origin);
      expect(await frame.evaluate(() => window.origin)).toBe(frameOrigin);
      // The main document has no input at all, and cannot look into the frame.
      expect(
        await page.evaluate(() => ({
          inputs: document.querySelectorAll('input').length,
          frameDoc: (document.querySelector('iframe') as HTMLIFrameElement).contentDocument,
        })),
      ).toEqual({ inputs: 0, frameDoc: null });
      expect(await frame.evaluate(() => document.querySelectorAll('input').length)).toBe(2);
      // Another site: Chromium runs the frame out of process (its own "iframe" target).
      const cdp = await page.context().newCDPSession(page);
      const { targetInfos } = (await cdp.send('Target.getTargets')) as { targetInfos: { type: string; url: string }[] };
      expect(targetInfos.filter((t) => t.type === 'iframe').map((t) => new URL(t.url).origin)).toEqual([frameOrigin]);
    });
  });

  it('cross-origin-iframe: the page only trusts the widget origin; a code is exchanged once', async () => {
    await withSite('cross-origin-iframe', async (site, page, context) => {
      const exchanges: number[] = [];
      const codes: string[] = [];
      page.on('request', (r) => {
        if (pathOf(r.url()) === '/session/exchange') codes.push((r.postDataJSON() as { code: string }).code);
      });
      page.on('response', (r) => {
        if (pathOf(r.url()) === '/session/exchange') exchanges.push(r.status());
      });
      await page.goto(site.loginUrl);
      // A message from the page's own origin (not the widget's) is ignored.
      await page.evaluate(() => window.postMessage({ type: 'auth', code: 'forged' }, '*'));
      const authenticate = page.waitForRequest((r) => pathOf(r.url()) === '/widget/api/authenticate');
      await MANUAL_SCRIPTS['cross-origin-iframe'].submit(page, site, site.credentials.password);
      expect(new URL((await authenticate).url()).host).toBe(`localhost:${new URL(site.origin).port}`);
      await page.waitForURL(site.protectedUrl);
      expect(exchanges).toEqual([200]);
      expect(codes).toHaveLength(1);
      const again = await context.request.post(`${site.origin}/session/exchange`, { data: { code: codes[0] } });
      expect(again.status()).toBe(400);
      expect(site.stats()).toEqual({ loginAttempts: 1, successfulLogins: 1 });
      // The only cookie is the app's own, on 127.0.0.1 and HttpOnly; the widget host sets none.
      const cookies = await context.cookies();
      expect(cookies.map((c) => [c.name, c.domain, c.httpOnly])).toEqual([['fw_session', '127.0.0.1', true]]);
    });
  });
});

describe('validated-spa: client-side validation gates the submit; the session is a localStorage token', () => {
  it('validated-spa: "Sign in" stays disabled until both fields are valid', async () => {
    await withSite('validated-spa', async (site, page) => {
      await page.goto(site.loginUrl);
      const email = page.getByLabel('Email');
      const password = page.getByLabel('Password');
      const submit = page.getByRole('button', { name: 'Sign in' });
      expect(await submit.isDisabled()).toBe(true);
      await email.fill('alice@');
      await password.fill(site.credentials.password);
      expect(await submit.isDisabled()).toBe(true);
      await page.getByText('Enter a valid email address').waitFor({ state: 'visible' }); // email was blurred
      await password.press('Enter');
      await email.fill(site.credentials.username);
      expect(await page.getByText('Enter a valid email address').count()).toBe(0);
      expect(await submit.isEnabled()).toBe(true);
      await password.fill('short');
      await password.blur();
      await page.getByText('Password must be at least 8 characters').waitFor({ state: 'visible' });
      expect(await submit.isDisabled()).toBe(true);
      expect(site.stats().loginAttempts).toBe(0);
    });
  });

  it('validated-spa: values set without input events are ignored and reverted', async () => {
    await withSite('validated-spa', async (site, page) => {
      await page.goto(site.loginUrl);
      const email = page.getByLabel('Email');
      const password = page.getByLabel('Password');
      await email.evaluate((el, v) => ((el as HTMLInputElement).value = v), site.credentials.username);
      await password.evaluate((el, v) => ((el as HTMLInputElement).value = v), site.credentials.password);
      expect(await page.getByRole('button', { name: 'Sign in' }).isDisabled()).toBe(true);
      await page.locator('#app form').evaluate((form) => (form as HTMLFormElement).requestSubmit());
      await page.getByText('Enter a valid email address').waitFor({ state: 'visible' });
      expect(await password.inputValue()).toBe('');
      expect(site.stats().loginAttempts).toBe(0);
    });
  });

  it('validated-spa: the session is a token in localStorage, no cookie; signed out /projects goes to /signin', async () => {
    await withSite('validated-spa', async (site, page, context) => {
      await MANUAL_SCRIPTS['validated-spa'].submit(page, site, site.credentials.password);
      await page.getByText(site.loggedInText).waitFor();
      expect(page.url()).toBe(site.protectedUrl);
      const auth = await page.evaluate(() => JSON.parse(localStorage.getItem('auth') ?? 'null') as unknown);
      expect(auth).toEqual({ accessToken: expect.any(String), refreshToken: expect.any(String) });
      expect(await context.cookies()).toEqual([]);
      expect((await context.request.get(`${site.origin}/api/me`)).status()).toBe(401);

      const fresh = await browser().newContext();
      try {
        const other = await fresh.newPage();
        await other.goto(site.protectedUrl);
        await other.waitForURL(`${site.origin}/signin`);
        await other.getByText('Sign in to Vectorly').waitFor();
      } finally {
        await fresh.close();
      }
    });
  });
});

describe('nested-shadow: the form controls are custom elements three shadow roots deep', () => {
  it('nested-shadow: no input in the light DOM; the inputs sit three shadow roots deep', async () => {
    await withSite('nested-shadow', async (site, page) => {
      await page.goto(site.loginUrl);
      await page.getByLabel('Password').waitFor();
      const shape = await page.evaluate(() => {
        const depths: Array<[string, number]> = [];
        const walk = (root: Document | ShadowRoot, depth: number): void => {
          for (const el of Array.from(root.querySelectorAll('*'))) {
            if (el instanceof HTMLInputElement) depths.push([el.type, depth]);
            if (el.shadowRoot) walk(el.shadowRoot, depth + 1);
          }
        };
        walk(document, 0);
        const card = document.querySelector('app-shell')!.shadowRoot!.querySelector('auth-card')!;
        const form = card.shadowRoot!.querySelector('form')!;
        return {
          lightInputs: document.querySelectorAll('input, button, form').length,
          depths,
          formControls: Array.from(form.elements).map((e) => e.localName),
          formAssociated: (customElements.get('ds-input') as unknown as { formAssociated?: boolean }).formAssociated,
        };
      });
      expect(shape).toEqual({
        lightInputs: 0,
        depths: [
          ['text', 3],
          ['password', 3],
        ],
        formControls: ['ds-input', 'ds-input', 'ds-button'],
        formAssociated: true,
      });
    });
  });

  it('nested-shadow: clicking ds-button submits through the component; so does Enter', async () => {
    await withSite('nested-shadow', async (site, page) => {
      await page.goto(site.loginUrl);
      await page.getByLabel('Username').fill(site.credentials.username);
      await page.getByLabel('Password').fill(WRONG_PASSWORD);
      await page.locator('ds-button').click();
      await MANUAL_SCRIPTS['nested-shadow'].rejected(page);
      expect(site.stats()).toEqual({ loginAttempts: 1, successfulLogins: 0 });
      await page.getByLabel('Password').fill(site.credentials.password);
      await page.getByLabel('Password').press('Enter');
      await page.waitForURL(site.protectedUrl);
      expect(site.stats()).toEqual({ loginAttempts: 2, successfulLogins: 1 });
    });
  });
});
