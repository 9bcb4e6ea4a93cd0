/**
 * What makes the round-3 real-web fixture sites hard, part 1: boot, page activity and the submit
 * (cpu-boot, polling-console, icon-submit, swap-form), checked on the sites alone (no login engine).
 * The generic checks (signed out without login, the manual script logs in and the session survives
 * as a storageState, a wrong password is rejected) are in fixture-sites-realweb.test.ts;
 * fixture-sites-realweb3-forms.test.ts has the other round-3 sites.
 */
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { useSiteBrowser } from '../../../helpers/browser.js';
import { startSite } from '../../../fixtures/sites/index.js';
import { MANUAL_SCRIPTS } from '../../../fixtures/sites/manual-scripts.js';

const WRONG_PASSWORD = 'Tr0ub4dor&3';

const { browser, withSite } = useSiteBrowser();

const pathOf = (url: string): string => new URL(url).pathname;

/** Page-side probe for cpu-boot: long tasks, the load time and when the first <input> appeared. */
const CPU_PROBE = `
window.__probe = { longTasks: [], loadAt: null, inputsAtLoad: null, firstInputAt: null };
new PerformanceObserver(function (list) {
  list.getEntries().forEach(function (e) { window.__probe.longTasks.push({ start: e.startTime, duration: e.duration }); });
}).observe({ type: 'longtask', buffered: true });
new MutationObserver(function () {
  if (window.__probe.firstInputAt === null && document.querySelector('input')) window.__probe.firstInputAt = performance.now();
}).observe(document, { childList: true, subtree: true });
addEventListener('load', function () { window.__probe.loadAt = performance.now(); window.__probe.inputsAtLoad = document.querySelectorAll('input').length; });
`;
interface CpuProbe {
  longTasks: Array<{ start: number; duration: number }>;
  loadAt: number;
  inputsAtLoad: number;
  firstInputAt: number;
  requests: Array<{ path: string; start: number; end: number }>;
}
const readCpuProbe = (page: Page): Promise<CpuProbe> =>
  page.evaluate(() => {
    const w = window as unknown as { __probe: Omit<CpuProbe, 'requests'> };
    const entries = [
      ...performance.getEntriesByType('navigation'),
      ...performance.getEntriesByType('resource'),
    ] as PerformanceResourceTiming[];
    const requests = entries.map((e) => ({ path: new URL(e.name).pathname, start: e.startTime, end: e.responseEnd }));
    return { ...w.__probe, requests };
  });

describe('cpu-boot: the form appears only after a CPU-bound boot and a chain of requests', () => {
  it('cpu-boot: no input at load nor for a second after; a long task with no request in flight', async () => {
    await withSite('cpu-boot', async (site, page, context) => {
      await context.addInitScript(CPU_PROBE);
      await page.goto(site.loginUrl, { waitUntil: 'load' });
      await page.getByRole('dialog', { name: 'Welcome to Gridline' }).waitFor();
      const probe = await readCpuProbe(page);
      expect(probe.inputsAtLoad).toBe(0);
      expect(probe.firstInputAt - probe.loadAt).toBeGreaterThanOrEqual(1000);
      const long = probe.longTasks.filter((t) => t.duration >= 500);
      expect(long.length, JSON.stringify(probe.longTasks)).toBeGreaterThanOrEqual(1);
      const task = long[0]!;
      expect(task.start).toBeGreaterThanOrEqual(probe.loadAt - 1);
      // Nothing was in flight when the task began, and the first request it issues comes at its very end:
      // at least 500 ms of pure CPU with the network idle.
      expect(
        probe.requests.filter((r) => r.start <= task.start && r.end > task.start),
        JSON.stringify(probe),
      ).toEqual([]);
      const firstAfter = Math.min(...probe.requests.filter((r) => r.start > task.start).map((r) => r.start));
      expect(firstAfter - task.start, JSON.stringify(probe)).toBeGreaterThanOrEqual(500);
    });
  });

  it('cpu-boot: theme and i18n, then /settings 401, then the login config, and only then the form', async () => {
    await withSite('cpu-boot', async (site, page, context) => {
      await context.addInitScript(CPU_PROBE);
      const seen: string[] = [];
      page.on('response', (r) => {
        if (r.request().resourceType() === 'fetch')
          seen.push(`${r.request().method()} ${r.status()} ${pathOf(r.url())}`);
      });
      await page.goto(site.loginUrl);
      const form = page.getByRole('dialog').locator('form');
      await form.waitFor();
      expect([...seen.slice(0, 2)].sort()).toEqual(['GET 200 /i18n/en.json', 'GET 200 /theme.json']);
      expect(seen.slice(2)).toEqual(['GET 401 /settings', 'GET 200 /auth/login']);
      const probe = await readCpuProbe(page);
      const end = (p: string) => probe.requests.find((r) => r.path === p)!.end;
      expect(end('/settings')).toBeGreaterThanOrEqual(Math.max(end('/theme.json'), end('/i18n/en.json')));
      expect(probe.firstInputAt).toBeGreaterThanOrEqual(end('/auth/login'));
      expect(
        await form.evaluate((f) => [...(f as HTMLFormElement).elements].map((e) => e.getAttribute('type'))),
      ).toEqual(['text', 'password', 'submit']);
      expect(page.url()).toBe(`${site.origin}/login?redirect=%2Fapp`);
    });
  });
});

describe('polling-console: the page never goes quiet; no <form>, an <a> button, errors as HTTP 200', () => {
  it('polling-console: /api/status every 500 ms and a pending /api/events long-poll, before and after login', async () => {
    await withSite('polling-console', async (site, page) => {
      const status: number[] = [];
      const events: Array<{ at: number; done: boolean }> = [];
      page.on('request', (r) => {
        if (pathOf(r.url()) === '/api/status') status.push(Date.now());
        if (pathOf(r.url()) === '/api/events') {
          const e = { at: Date.now(), done: false };
          events.push(e);
          const finish = () => (e.done = true);
          void r.response().then(finish, finish);
        }
      });
      await page.goto(site.loginUrl);
      await page.locator('.x-window.loginwindow').waitFor();
      expect(await page.locator('form').count()).toBe(0);
      const from = Date.now();
      await page.waitForTimeout(3000);
      expect(status.filter((t) => t >= from).length).toBeGreaterThanOrEqual(5);
      expect(events.length).toBe(1);
      expect(Date.now() - events[0]!.at).toBeGreaterThan(3000);
      expect(events[0]!.done).toBe(false);
      // The console view (same document) keeps polling.
      await page.getByLabel('Username:').fill(site.credentials.username);
      await page.getByLabel('Password:').fill(site.credentials.password);
      await page.getByRole('button', { name: 'Login' }).click();
      await page.getByText(site.loggedInText).waitFor();
      expect(page.url()).toBe(site.protectedUrl);
      const after = Date.now();
      await page.waitForTimeout(3000);
      expect(status.filter((t) => t >= after).length).toBeGreaterThanOrEqual(5);
      expect(events.filter((e) => !e.done).length).toBe(1);
      expect(await page.locator('form').count()).toBe(0);
    });
  });

  it('polling-console: a wrong password is an HTTP 200 JSON-RPC error; the button is an <a>', async () => {
    await withSite('polling-console', async (site, page) => {
      const rpc = page.waitForResponse(
        (r) => pathOf(r.url()) === '/rpc' && r.request().postData()!.includes('session.login'),
      );
      await MANUAL_SCRIPTS['polling-console'].submit(page, site, WRONG_PASSWORD);
      const answer = await rpc;
      expect(answer.status()).toBe(200);
      expect(await answer.json()).toMatchObject({ jsonrpc: '2.0', error: { message: 'Invalid credentials' } });
      expect(answer.request().postDataJSON()).toEqual({
        jsonrpc: '2.0',
        method: 'session.login',
        params: { username: site.credentials.username, password: WRONG_PASSWORD },
        id: 1,
      });
      expect(await page.getByRole('button', { name: 'Login' }).evaluate((el) => el.tagName)).toBe('A');
      await MANUAL_SCRIPTS['polling-console'].rejected(page);
    });
  });

  it('polling-console: closing the site with a long-poll open does not hang', async () => {
    const site = await startSite('polling-console');
    const context = await browser().newContext();
    try {
      const page = await context.newPage();
      const held = page.waitForRequest((r) => pathOf(r.url()) === '/api/events');
      await page.goto(site.loginUrl);
      await held;
      await site.close(); // with the page still open and its long-poll pending
    } finally {
      await context.close();
    }
  });
});

describe('icon-submit: the submit is an icon named only by its ligature, beside a show-password eye', () => {
  it('icon-submit: an eye toggle, then an icon-only submit named only by its ligature', async () => {
    await withSite('icon-submit', async (site, page) => {
      await page.goto(site.loginUrl);
      const buttons = page.locator('form.login-form button');
      expect(
        await buttons.evaluateAll((els) => els.map((b) => [b.getAttribute('type'), b.textContent!.trim()])),
      ).toEqual([
        ['button', 'visibility'],
        ['submit', 'arrow_forward'],
      ]);
      const submit = page.getByRole('button', { name: 'arrow_forward', exact: true });
      expect(
        await submit.evaluate((b) => [
          b.getAttribute('aria-label'),
          b.getAttribute('title'),
          b.getAttribute('aria-labelledby'),
        ]),
      ).toEqual([null, null, null]);
      expect(await page.locator('form.login-form').ariaSnapshot()).toContain('- button "arrow_forward" [disabled]');
      expect(await page.getByRole('button', { name: /sign in|log in|submit|continue|next/i }).count()).toBe(0);
    });
  });

  it('icon-submit: the submit is disabled until both fields are filled', async () => {
    await withSite('icon-submit', async (site, page) => {
      await page.goto(site.loginUrl);
      const submit = page.locator('button.mat-fab');
      expect(await submit.isDisabled()).toBe(true);
      await page.getByLabel('Email').fill(site.credentials.username);
      expect(await submit.isDisabled()).toBe(true);
      await page.getByLabel('Password').fill(site.credentials.password);
      expect(await submit.isEnabled()).toBe(true);
      await page.getByLabel('Email').fill('');
      expect(await submit.isDisabled()).toBe(true);
    });
  });

  it('icon-submit: the eye shows the password and makes no request', async () => {
    await withSite('icon-submit', async (site, page) => {
      await page.goto(site.loginUrl);
      await page.getByLabel('Email').fill(site.credentials.username);
      await page.getByLabel('Password').fill(site.credentials.password);
      const requests: string[] = [];
      page.on('request', (r) => requests.push(r.url()));
      const eye = page.getByRole('button', { name: 'visibility', exact: true });
      await eye.click();
      expect(await page.locator('#mat-input-1').getAttribute('type')).toBe('text');
      expect(await page.getByRole('button', { name: 'visibility_off' }).count()).toBe(1);
      await page.waitForTimeout(300);
      expect(requests).toEqual([]);
      expect(page.url()).toBe(site.loginUrl);
      expect(site.stats()).toEqual({ loginAttempts: 0, successfulLogins: 0 });
    });
  });
});

describe('swap-form: the identifier form is replaced in place by a password form, without navigation', () => {
  it('swap-form: Continue replaces the whole form, without any navigation', async () => {
    await withSite('swap-form', async (site, page) => {
      await page.goto(site.loginUrl);
      let navigations = 0;
      page.on('framenavigated', (frame) => {
        if (frame === page.mainFrame()) navigations++;
      });
      const idForm = await page.locator('#id-form').elementHandle();
      expect(idForm).not.toBeNull();
      expect(await page.locator('input[type=password]').count()).toBe(0);
      await page.getByLabel('Email').fill(site.credentials.username);
      await page.getByRole('button', { name: 'Continue' }).click();
      await page.locator('#pw-form input[type=password]').waitFor({ state: 'visible' });
      // The identifier form is gone from the document; a different form holds the password field.
      expect(await idForm!.evaluate((el) => el.isConnected)).toBe(false);
      expect(await page.locator('#id-form, input[type=email]').count()).toBe(0);
      const pwForm = await page.locator('input[type=password]').evaluate((el) => {
        const form = (el as HTMLInputElement).form!;
        return { id: form.id, className: form.className, inputs: form.querySelectorAll('input').length };
      });
      expect(pwForm).toEqual({ id: 'pw-form', className: 'cnp-pwd', inputs: 1 });
      expect(await page.locator('#pw-form').getByText(site.credentials.username).isVisible()).toBe(true);
      expect(navigations).toBe(0);
      expect(page.url()).toBe(site.loginUrl);
      // "Change" swaps the identifier step back in, still without navigating.
      await page.getByRole('link', { name: 'Change' }).click();
      await page.locator('#id-form').waitFor();
      expect(await page.getByLabel('Email').inputValue()).toBe(site.credentials.username);
      expect(await page.locator('#pw-form').count()).toBe(0);
      expect(navigations).toBe(0);
      expect(site.stats()).toEqual({ loginAttempts: 0, successfulLogins: 0 });
    });
  });

  it('swap-form: an unknown email gets a 404 lookup and its own message; nothing reaches the password step', async () => {
    await withSite('swap-form', async (site, page) => {
      await page.goto(site.loginUrl);
      const lookup = page.waitForResponse((r) => pathOf(r.url()) === '/api/lookup');
      await page.getByLabel('Email').fill('nobody@example.com');
      await page.getByRole('button', { name: 'Continue' }).click();
      expect((await lookup).status()).toBe(404);
      await page
        .locator('#id-form')
        .getByRole('alert')
        .filter({ hasText: "We couldn't find an account with that email." })
        .waitFor();
      expect(await page.locator('input[type=password]').count()).toBe(0);
      expect(site.stats()).toEqual({ loginAttempts: 0, successfulLogins: 0 });
    });
  });
});
