// The desktop window's "Needs you" banner (README "A person in the loop", desktop app) end to end: the built
// renderer in Chromium behind the app's IPC dispatcher and event forwarder, a real core over HTTP whose live page
// lets the renderer's origin frame it (as the desktop's startCore does with its window origin), and the captcha
// fixture site. An agent starts an interactive login over HTTP with the organization's key; the window shows the
// banner, the person opens the panel and solves the CAPTCHA by clicking and typing on the streamed page *inside
// the window's frame* (test/helpers/takeover-person.ts), and the login answers 200. Also: Cancel login, several
// waiting logins, the keyboard, the takeover URL kept out of the DOM and the console, axe-core in light and
// dark, reflow at 320 CSS px and at 200% zoom, and screenshots (1280x800, 900x700, 640x800) into
// test-results/screens/needs-you/.
import fs from 'node:fs';
import path from 'node:path';
import type { Browser, Frame, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PERSON_TASK } from '../../src/shared/person-task.js';
import { startCaptcha } from '../fixtures/sites/captcha.site.js';
import type { FixtureSite } from '../fixtures/sites/index.js';
import { launchTestBrowser, opensProtectedPage } from '../helpers/browser.js';
import { LivePerson, PERSON_WAIT_MS, signInPastCaptcha, waitForEnd } from '../helpers/takeover-person.js';
import { SHOTS_DIR } from './support/desktop-app.js';
import { axeViolations, screenshotsAtSizes, setScheme } from './support/layout-audit.js';
import { nav, startRendererHarness, type OpenApp, type RendererHarness } from './support/renderer-harness.js';

const SHOTS = path.join(SHOTS_DIR, 'needs-you');
const SIDEBAR_PX = 232;

let h: RendererHarness;
let captcha: FixtureSite;
let agent: Browser;
let host: string;
/** Logins a test started: cancelled afterwards if one still waits (a leftover would hold the next one's flight). */
const started: string[] = [];

beforeAll(async () => {
  fs.mkdirSync(SHOTS, { recursive: true });
  h = await startRendererHarness();
  captcha = await startCaptcha({ personCanSolve: true });
  host = new URL(captcha.loginUrl).host;
  agent = await launchTestBrowser();
}, 120_000);
afterAll(async () => {
  for (const id of started) await h?.t.request(`/api/login/${id}/cancel`, { method: 'POST' }).catch(() => {});
  await agent?.close();
  await captcha?.close();
  await h?.close();
});

/** An agent's interactive login named `id` over HTTP with the organization's key; resolves when it answers. */
function interactiveLogin(id: string, opts: { username?: string; async?: boolean } = {}): Promise<Response> {
  started.push(id);
  const pending = h.t.request('/api/login', {
    method: 'POST',
    headers: { 'x-login-id': id },
    json: {
      cred: { username: opts.username ?? captcha.credentials.username, password: captcha.credentials.password },
      domain: captcha.loginUrl,
      useCache: false,
      interactive: true,
      ...(opts.async ? { async: true } : {}),
    },
  });
  pending.catch(() => {}); // a test that failed before reading it: the server's close ends it
  return pending;
}

const banner = (page: Page) => page.getByRole('region', { name: 'Needs you' });
const line = (page: Page, id: string) => page.locator(`[data-testid="needs-you-line"][data-login-id="${id}"]`);
const news = (page: Page) => page.getByTestId('needs-you-news').getByRole('status');
const panel = (page: Page) => page.getByRole('region', { name: `Finish signing in to ${host}` });
const frameOf = async (page: Page): Promise<Frame> => {
  const el = await panel(page).getByTitle(`Live page of ${host}`).elementHandle();
  const frame = await el?.contentFrame();
  if (!frame) throw new Error('the panel has no frame');
  return frame;
};
const activeLabel = (page: Page) =>
  page.evaluate(() => {
    const el = document.activeElement;
    return el?.getAttribute('aria-label') || el?.id || el?.tagName || null;
  });

/** The takeover URLs the window was sent (the bridge's record of login:needs-person events). */
const takeoverUrls = (app: OpenApp) =>
  app.bridge.sent
    .filter((s) => s.event === 'login:needs-person')
    .map((s) => (s.payload as { takeoverUrl: string }).takeoverUrl);

/**
 * Nothing of the banner or the panel sticks out of the content sideways (the screens' own layouts are judged by
 * their tests), and the live page in the frame (if open) fits it.
 */
async function fitsSideways(page: Page, what: string) {
  const sideways = await page.evaluate(() => {
    const main = document.getElementById('main')!;
    const edge = main.getBoundingClientRect().right;
    const clipped = (el: Element | null): boolean =>
      !!el && el !== main && (getComputedStyle(el).clip !== 'auto' || clipped(el.parentElement));
    const out = [...main.querySelectorAll<HTMLElement>('.needs-you, .needs-you *')]
      .filter((el) => el.getBoundingClientRect().right > edge + 0.5 && !clipped(el))
      .slice(0, 5)
      .map((el) => `${el.tagName.toLowerCase()}.${el.className} "${(el.textContent ?? '').slice(0, 40)}"`);
    return { by: main.scrollWidth - main.clientWidth, out };
  });
  expect(sideways, `${what}: scrolls sideways`).toEqual({ by: 0, out: [] });
  if (!(await panel(page).count())) return;
  const frame = await frameOf(page);
  // The frame is as wide as the content, and the live page inside it fits its frame.
  const fit = await frame.evaluate(() => ({
    by: document.documentElement.scrollWidth - document.documentElement.clientWidth,
    width: innerWidth,
  }));
  const box = (await panel(page).boundingBox())!;
  expect(fit.by, `${what}: the live page scrolls sideways in its frame`).toBe(0);
  expect(fit.width, `${what}: the frame's width`).toBeGreaterThan(box.width - 40);
}

/**
 * The window as it stands: no axe-core violation in light and dark (at 1280x800 and with 320 CSS px of content),
 * no sideways scrolling at 320 CSS px of content and at 200% zoom (1280x800 seen as 640x400), and screenshots
 * at 1280x800, 900x700 and 640x800 in both schemes (scrolled to `show`).
 */
async function inspect(page: Page, name: string, show: Locator, settle?: () => Promise<unknown>) {
  for (const [width, height] of [
    [1280, 800],
    [SIDEBAR_PX + 320, 700],
  ]) {
    await page.setViewportSize({ width, height });
    for (const scheme of ['light', 'dark'] as const) {
      await setScheme(page, scheme);
      expect(await axeViolations(page), `axe: ${name} at ${width}x${height} in ${scheme}`).toEqual([]);
    }
    await fitsSideways(page, `${name} at ${width - SIDEBAR_PX} px of content`);
  }
  await page.setViewportSize({ width: 640, height: 400 });
  await fitsSideways(page, `${name} at 200% zoom`);
  // `settle`: the live page has fitted the remote browser to its new frame (and shows a frame of that size).
  await screenshotsAtSizes(
    page,
    SHOTS,
    name,
    [
      [1280, 800],
      [900, 700],
      [640, 800],
    ],
    { show, settle },
  );
}

describe('Needs you: a login that waits for the person, in the window', () => {
  it('shows the banner; the person solves the CAPTCHA in the panel’s frame; the login answers 200', async () => {
    const app = await h.openApp();
    const { page } = app;
    const logged: string[] = [];
    page.on('console', (m) => logged.push(m.text()));
    page.on('response', (r) => void (r.status() >= 400 && logged.push(`HTTP ${r.status()} ${r.url()}`)));
    const id = 'needs-you-solve';
    const pending = interactiveLogin(id);

    const bar = banner(page);
    await bar.waitFor({ timeout: PERSON_WAIT_MS });
    expect(await line(page, id).innerText()).toContain(`${host} needs you: ${PERSON_TASK.captcha_blocked}`);
    // Said once to screen readers, and the focus stays where it was (on nothing here).
    expect(await news(page).textContent()).toBe(`${host} needs you: ${PERSON_TASK.captcha_blocked}.`);
    expect(await page.evaluate(() => document.activeElement === document.body)).toBe(true);
    // On every screen.
    await nav(page, 'Templates').click();
    await bar.waitFor();
    await nav(page, 'Sessions').click();
    await inspect(page, 'banner', bar);

    // Keyboard only: the button opens the panel, the focus goes into it; Tab reaches Hide, which closes it and
    // gives the focus back to the button.
    const show = bar.getByRole('button', { name: `Show the page of ${host}` });
    await show.focus();
    await page.keyboard.press('Enter');
    await panel(page).waitFor();
    expect(await activeLabel(page)).toBe('live-page-title');
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Hide');
    await page.keyboard.press('Enter');
    await panel(page).waitFor({ state: 'detached' });
    expect(await activeLabel(page)).toBe(`Show the page of ${host}`);
    // Esc closes it too (from the panel's own controls; keys inside the live page stay there).
    await page.keyboard.press('Enter');
    await panel(page).waitFor();
    await page.keyboard.press('Escape');
    await panel(page).waitFor({ state: 'detached' });
    expect(await activeLabel(page)).toBe(`Show the page of ${host}`);

    await show.click();
    const person = await LivePerson.inFrame(page, await frameOf(page), () => h.t.core.login.takeover!.livePage(id));
    await person.settle();
    await inspect(page, 'panel', panel(page), () => person.settle());
    await person.settle();

    // The token (after '#') is in no attribute or text of the window, and the frame dropped it from its address.
    const [url] = takeoverUrls(app);
    const token = url!.split('#')[1]!;
    expect(token.length).toBeGreaterThan(10);
    expect(await page.evaluate(() => document.documentElement.outerHTML)).not.toContain(token);
    expect((await frameOf(page)).url()).not.toContain('#');

    await signInPastCaptcha(person, captcha);
    const res = await pending;
    const body = (await res.json()) as Record<string, unknown>;
    expect(res.status, JSON.stringify(body)).toBe(200);
    expect(await opensProtectedPage(agent, captcha, body)).toBe(true);
    expect((await waitForEnd(h.t, id)).status).toBe('succeeded');

    // The banner and the panel go; a polite word says how it ended, and the focus (in the frame) lands on it.
    await bar.waitFor({ state: 'detached' });
    expect(await panel(page).count()).toBe(0);
    await expect.poll(() => news(page).textContent()).toBe(`Signed in to ${host}.`);
    // The Sessions screen shown meanwhile lists the new session.
    await page.getByText('1 cached', { exact: true }).waitFor();
    expect(await activeLabel(page)).toBe('BUTTON');
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Dismiss');
    await inspect(page, 'signed-in', page.getByTestId('needs-you-news'));
    await page.getByRole('button', { name: 'Dismiss' }).click();
    expect(await news(page).textContent()).toBe('');

    expect(logged.filter((text) => text.includes(token))).toEqual([]);
    expect(app.problems, logged.filter((l) => l.startsWith('HTTP')).join('\n')).toEqual([]);
    await app.context.close();
  }, 300_000);

  it('a login started from the Sessions form that stops for the person says so in its own panel, with its page there', async () => {
    const app = await h.openApp();
    const { page } = app;
    await nav(page, 'Sessions').click();
    const form = page.getByRole('form', { name: 'Test a login' });
    await form.getByLabel('Login page URL').fill(captcha.loginUrl);
    await form.getByLabel('Username').fill('form-person@example.com');
    await form.getByLabel('Password').fill(captcha.credentials.password);
    await form.getByRole('button', { name: 'Run login' }).click();
    const progress = page.getByTestId('login-progress');
    const show = progress.getByRole('button', { name: 'Show the page' });
    await show.waitFor({ timeout: PERSON_WAIT_MS });
    const loginId = (await progress.getAttribute('data-login-id'))!;
    started.push(loginId);
    // No spinner and no "Logging in…": it waits for the person, and says for what.
    expect(await progress.locator('.login-progress-head strong').innerText()).toBe(
      `Needs you: ${PERSON_TASK.captcha_blocked}`,
    );
    expect(await progress.getByRole('status', { name: 'Logging in' }).count()).toBe(0);
    expect(await progress.getByText('Logging in…').count()).toBe(0);
    expect(await show.evaluate((el) => el === document.activeElement)).toBe(true);
    expect(await show.isVisible()).toBe(true);

    // Its page opens here, under the form that started it (not under the banner at the top of the screen).
    await show.click();
    const here = progress.getByRole('region', { name: `Finish signing in to ${host}` });
    await here.waitFor();
    expect(await panel(page).count()).toBe(1);
    expect(
      await line(page, loginId)
        .getByRole('button', { name: /^Hide the page/ })
        .count(),
    ).toBe(1);
    await inspect(page, 'form-login-needs-you', progress);
    await here.getByRole('button', { name: 'Hide' }).click();
    await here.waitFor({ state: 'detached' });
    expect(await show.evaluate((el) => el === document.activeElement)).toBe(true);

    await progress.getByRole('button', { name: 'Cancel login' }).click();
    await progress.locator('.login-progress-head strong').filter({ hasText: 'Login cancelled' }).waitFor();
    expect((await waitForEnd(h.t, loginId)).status).toBe('cancelled');
    expect(app.problems).toEqual([]);
    await app.context.close();
  }, 300_000);

  it('several waiting logins have a line each; Cancel login ends one, then the other', async () => {
    const app = await h.openApp();
    const { page } = app;
    // Different users: identical logins would share one flight.
    const first = interactiveLogin('needs-you-a', { async: true });
    const second = interactiveLogin('needs-you-b', { async: true, username: 'bob@example.com' });
    expect((await first).status).toBe(202);
    expect((await second).status).toBe(202);
    await line(page, 'needs-you-a').waitFor({ timeout: PERSON_WAIT_MS });
    await line(page, 'needs-you-b').waitFor({ timeout: PERSON_WAIT_MS });
    expect(await banner(page).getByRole('listitem').count()).toBe(2);
    await inspect(page, 'two-logins', banner(page));

    // One panel at a time: showing the second replaces the first.
    const toggle = (id: string) => line(page, id).getByRole('button', { name: /^(Show|Hide) the page/ });
    await toggle('needs-you-a').click();
    await panel(page).waitFor();
    expect(await toggle('needs-you-a').getAttribute('aria-expanded')).toBe('true');
    await toggle('needs-you-b').click();
    await expect.poll(() => toggle('needs-you-a').getAttribute('aria-expanded')).toBe('false');
    expect(await toggle('needs-you-b').getAttribute('aria-expanded')).toBe('true');
    expect(await page.getByTestId('live-page-panel').count()).toBe(1);

    // Cancel login asks first; the login's end takes its line (and its open panel) away.
    await line(page, 'needs-you-b')
      .getByRole('button', { name: `Cancel login on ${host}` })
      .click();
    await line(page, 'needs-you-b')
      .getByRole('button', { name: `Yes, cancel: Cancel login on ${host}` })
      .click();
    await line(page, 'needs-you-b').waitFor({ state: 'detached' });
    expect(await panel(page).count()).toBe(0);
    await expect.poll(() => news(page).textContent()).toBe(`The login on ${host} was cancelled.`);
    const run = await waitForEnd(h.t, 'needs-you-b');
    expect(run.status).toBe('cancelled');

    await line(page, 'needs-you-a')
      .getByRole('button', { name: `Cancel login on ${host}` })
      .click();
    await line(page, 'needs-you-a')
      .getByRole('button', { name: `Yes, cancel: Cancel login on ${host}` })
      .click();
    await banner(page).waitFor({ state: 'detached' });
    expect((await waitForEnd(h.t, 'needs-you-a')).status).toBe('cancelled');
    expect(app.problems).toEqual([]);
    await app.context.close();
  }, 300_000);
});
