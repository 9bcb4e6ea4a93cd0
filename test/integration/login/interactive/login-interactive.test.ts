// A person in the loop (docs/person-in-the-loop.md): logins that stop at a CAPTCHA or a second factor,
// with `interactive: true`, are shown in a real headed Chromium (on Xvfb) by the VisibleBrowserFinisher the
// desktop app gives the core for when its API does not listen (else the live page in its window is used). The test plays the person through the window's Page (the finisher's onOpen
// hook): it solves what the bar asks and presses Done or Cancel, or does nothing until the time is up.
import fs from 'node:fs';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseConfig } from '../../../../src/main/core/config/load-config.js';
import { createCore } from '../../../../src/main/core/create-core.js';
import { resolveBrowserExecutable } from '../../../../src/main/core/login/browser/browser-resolver.js';
import { CANCEL_LABEL, DONE_LABEL } from '../../../../src/main/core/login/interactive/person-overlay.js';
import {
  VisibleBrowserFinisher,
  type InteractiveWindow,
} from '../../../../src/main/core/login/interactive/visible-browser-finisher.js';
import { startServer, type RunningServer } from '../../../../src/main/core/run-server.js';
import { findOnPath } from '../../../../src/main/electron/system-tools.js';
import { startCaptcha } from '../../../fixtures/sites/captcha.site.js';
import { MFA_CODE, startSite, type FixtureSite } from '../../../fixtures/sites/index.js';
import { launchTestBrowser, opensProtectedPage } from '../../../helpers/browser.js';
import { requireSystemPart } from '../../../helpers/requires.js';
import { startTestServer, tempDir } from '../../../helpers/test-server.js';
import { startXvfb, type VirtualDisplay } from '../../../e2e/support/xvfb.js';

// Not on Linux is a plain skip (the test is Linux-only); no Xvfb on Linux is a missing system part (fails under CI).
const skipReason =
  process.platform !== 'linux'
    ? 'the headed-browser test runs on Linux with Xvfb'
    : !requireSystemPart(
          'Xvfb',
          !!findOnPath('Xvfb', process.env, process.platform),
          'Debian: apt-get install xvfb; a headed Chromium needs a display',
        )
      ? 'Xvfb is not installed'
      : null;
if (skipReason) console.warn(`test/integration/login/interactive/login-interactive.test.ts skipped: ${skipReason}`);

type LoginError = { error: string; message: string; details: { reason: string; interactive?: string } };

/** Windows the finisher opened, handed to the test (the "person") in order. */
class OpenedWindows {
  opened = 0;
  private readonly ready: InteractiveWindow[] = [];
  private readonly waiting: ((w: InteractiveWindow) => void)[] = [];

  push = (w: InteractiveWindow): void => {
    this.opened++;
    const take = this.waiting.shift();
    if (take) take(w);
    else this.ready.push(w);
  };

  /** The next window, or a failure as soon as the login answers without opening one. */
  next(pending: Promise<Response>): Promise<InteractiveWindow> {
    const w = this.ready.shift();
    if (w) return Promise.resolve(w);
    return Promise.race([
      new Promise<InteractiveWindow>((resolve) => this.waiting.push(resolve)),
      pending.then(async (res) => {
        throw new Error(`the login answered ${res.status} before a window opened: ${await res.clone().text()}`);
      }),
    ]);
  }
}

interface InteractiveServer {
  server: RunningServer;
  windows: OpenedWindows;
  logFile: string;
  flushLog(): Promise<void>;
  login(site: FixtureSite, over?: Record<string, unknown>, headers?: Record<string, string>): Promise<Response>;
  /** POST /api/login/:loginId/cancel */
  cancel(loginId: string): Promise<Response>;
}

/**
 * The request's abort (its time limit, or a cancel) passed on to the window only once it has shown. The limit
 * counts the window's start-up, so on a loaded machine 5 s could run out before the window opened, and a test
 * about what the window does at the limit saw no window. Holding the abort until then makes the order an event's.
 */
function abortOnceShown(signal: AbortSignal, shown: Promise<void>): AbortSignal {
  const held = new AbortController();
  const pass = () => void shown.then(() => held.abort(signal.reason));
  if (signal.aborted) pass();
  else signal.addEventListener('abort', pass, { once: true });
  return held.signal;
}

/** A real server whose core has a VisibleBrowserFinisher on the virtual display (what the desktop app builds). */
async function startInteractiveServer(display: string, detectSignedIn: boolean): Promise<InteractiveServer> {
  const windows = new OpenedWindows();
  // Logins here wait for a person one at a time: the window that opens next is this finish's.
  let shown: () => void = () => {};
  const core = createCore(
    parseConfig({ dataDir: tempDir(), log: { level: 'info' }, server: { port: 0 }, jobs: { renderConcurrency: 0 } }),
    {
      interactiveFinisher: (base) => {
        const finisher = new VisibleBrowserFinisher({
          executablePath: () => resolveBrowserExecutable({}).path,
          log: base.log,
          onOpen: (w) => {
            shown();
            windows.push(w);
          },
          detectSignedIn,
          env: { ...process.env, DISPLAY: display },
        });
        return {
          finish: (req) => {
            const opened = new Promise<void>((resolve) => (shown = resolve));
            return finisher.finish({ ...req, signal: abortOnceShown(req.signal, opened) });
          },
          dispose: () => finisher.dispose(),
        };
      },
    },
  );
  const server = await startServer(core, { port: 0 });
  // As if the API did not listen (a taken port): the live page has no address, so the visible window shows it.
  core.login.takeover.setBaseUrl(null);
  const org = core.orgs.create('test-org');
  const key = core.keys.create(org.id, {}).key;
  return {
    server,
    windows,
    logFile: core.logger.file,
    flushLog: () => core.logger.flush(),
    cancel: (loginId) =>
      fetch(`${server.url}/api/login/${loginId}/cancel`, {
        method: 'POST',
        headers: { authorization: `Bearer ${key}` },
      }),
    login: (site, over = {}, headers = {}) =>
      fetch(`${server.url}/api/login`, {
        method: 'POST',
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', ...headers },
        body: JSON.stringify({
          cred: { username: site.credentials.username, password: site.credentials.password },
          domain: site.loginUrl,
          useCache: false,
          ...over,
        }),
      }),
  };
}

/** The browser behind a window has gone (the finisher closes it before the login answers). */
const windowClosed = (w: InteractiveWindow) => !w.page.context().browser()?.isConnected();

/** Resolves when the window's tab has closed (the finisher closes the whole browser when the login is handed back). */
function closedEvent(w: InteractiveWindow): Promise<void> {
  return new Promise((resolve) => {
    w.page.once('close', () => resolve());
    if (w.page.isClosed()) resolve();
  });
}

/**
 * Presses a bar button that closes the window, and waits for the window's close event. The press can outlive the
 * page: the bar's binding answers, the finisher closes the browser, and Playwright may then reject the click itself
 * ("Target page, context or browser has been closed") before it has seen the close. So the click's own result is
 * not the judge; the close event is (a press that never reached the bar leaves the window open: the test then times
 * out here, and the click's error is in its output).
 */
async function pressClosingButton(w: InteractiveWindow, name: string): Promise<void> {
  const button = w.page.getByRole('button', { name });
  await button.waitFor(); // before the press nothing closes the window: a failure here is a real one
  const closed = closedEvent(w);
  await button.click({ noWaitAfter: true }).catch((err: Error) => console.warn(`press ${name}: ${err.message}`));
  await closed;
}

describe.skipIf(skipReason !== null)(`interactive logins${skipReason ? ` (skipped: ${skipReason})` : ''}`, () => {
  let xvfb: VirtualDisplay;
  let agent: Browser;

  beforeAll(async () => {
    xvfb = await startXvfb();
    agent = await launchTestBrowser();
  });
  afterAll(async () => {
    await agent?.close();
    await xvfb?.stop();
  });

  describe('the person presses Done or Cancel (no automatic hand-back)', () => {
    let t: InteractiveServer;
    let mfa: FixtureSite;
    beforeAll(async () => {
      t = await startInteractiveServer(xvfb.display, false);
      mfa = await startSite('mfa');
    });
    afterAll(async () => {
      await mfa?.close();
      await t?.server.close();
    });

    it('mfa: the person enters the code and presses Done; the session opens the protected page and is cached', async () => {
      const pending = t.login(mfa, { interactive: true });
      const w = await t.windows.next(pending);
      expect(w.reason).toBe('mfa_required');
      expect(w.origin).toBe(mfa.origin);
      // The window continues where the login stopped: the code page (the pending-MFA cookie came along).
      await w.page.getByText('enter the sign-in code').waitFor();
      await w.page.getByLabel('Authentication code').fill(MFA_CODE);
      await w.page.getByRole('button', { name: 'Verify' }).click();
      await w.page.getByText(mfa.loggedInText).waitFor();
      await pressClosingButton(w, DONE_LABEL);

      const res = await pending;
      const body = await res.json();
      expect(res.status, JSON.stringify(body)).toBe(200);
      expect(res.headers.get('x-session-cache')).toBe('miss');
      expect(windowClosed(w)).toBe(true);
      expect(mfa.stats().successfulLogins).toBe(1);
      expect(await opensProtectedPage(agent, mfa, body)).toBe(true);

      // Cached like a fresh login: the next cached request gets it without a login or a window.
      const opened = t.windows.opened;
      const again = await t.login(mfa, { useCache: true });
      expect(again.status).toBe(200);
      expect(again.headers.get('x-session-cache')).toBe('hit');
      expect((await again.json()).cookies).toEqual(body.cookies);
      expect(t.windows.opened).toBe(opened);

      // No cookie value reaches the log.
      await t.flushLog();
      const log = fs.readFileSync(t.logFile, 'utf8');
      expect(log).toContain('a person finished the login');
      for (const c of body.cookies as { value: string }[]) if (c.value.length >= 8) expect(log).not.toContain(c.value);
    });

    it('Cancel answers the typed error with details.interactive "closed"', async () => {
      const pending = t.login(mfa, { interactive: true });
      const w = await t.windows.next(pending);
      await pressClosingButton(w, CANCEL_LABEL);
      const res = await pending;
      const body = (await res.json()) as LoginError;
      expect(res.status, JSON.stringify(body)).toBe(422);
      expect(body).toMatchObject({ error: 'MFA_REQUIRED', details: { reason: 'mfa_required', interactive: 'closed' } });
      expect(windowClosed(w)).toBe(true);
    });

    it('a cancel by login id while the window waits for a person closes it: 409 LOGIN_CANCELLED', async () => {
      const pending = t.login(mfa, { interactive: true }, { 'x-login-id': 'waiting-1' });
      const w = await t.windows.next(pending);
      const cancel = await t.cancel('waiting-1');
      expect(cancel.status, await cancel.clone().text()).toBe(204);
      const res = await pending;
      const body = (await res.json()) as LoginError;
      expect(res.status, JSON.stringify(body)).toBe(409);
      expect(body).toMatchObject({ error: 'LOGIN_CANCELLED', details: { reason: 'cancelled' } });
      expect(windowClosed(w)).toBe(true);
      // The id is free again once the login answered.
      expect((await t.cancel('waiting-1')).status).toBe(404);
    });

    it('closing the window is "closed" too', async () => {
      const pending = t.login(mfa, { interactive: true });
      const w = await t.windows.next(pending);
      await w.page.close();
      const body = (await (await pending).json()) as LoginError;
      expect(body.details.interactive).toBe('closed');
    });

    it('nobody acting within interactiveTimeoutSec is 422 with details.interactive "timed_out"; the window closes', async () => {
      // The shortest limit the API takes. The window is there when it runs out (abortOnceShown), whatever the
      // machine's load: the test waits for the window's open and close events, never for a span of wall-clock time.
      const pending = t.login(mfa, { interactive: true, interactiveTimeoutSec: 5 });
      const w = await t.windows.next(pending);
      const closed = closedEvent(w);
      const res = await pending;
      const body = (await res.json()) as LoginError;
      expect(res.status, JSON.stringify(body)).toBe(422);
      expect(body).toMatchObject({ error: 'MFA_REQUIRED', details: { interactive: 'timed_out' } });
      expect(body.message).toContain('within 5 s');
      await closed;
      expect(windowClosed(w)).toBe(true);
    });

    it('interactive false answers 422 as before and opens no window', async () => {
      const opened = t.windows.opened;
      const res = await t.login(mfa);
      const body = (await res.json()) as LoginError;
      expect(res.status).toBe(422);
      expect(body).toMatchObject({ error: 'MFA_REQUIRED', details: { reason: 'mfa_required' } });
      expect(body.details).not.toHaveProperty('interactive');
      expect(t.windows.opened).toBe(opened);
    });
  });

  describe('the window hands the session back by itself once the login finished', () => {
    let t: InteractiveServer;
    let captcha: FixtureSite;
    beforeAll(async () => {
      t = await startInteractiveServer(xvfb.display, true);
      captcha = await startCaptcha({ personCanSolve: true });
    });
    afterAll(async () => {
      await captcha?.close();
      await t?.server.close();
    });

    it('the fixture: a person passes the challenge by ticking the box (hand-written script)', async () => {
      const ctx = await agent.newContext();
      try {
        const page = await ctx.newPage();
        await page.goto(captcha.loginUrl);
        await page.fill('#email', captcha.credentials.username);
        await page.fill('#pass', captcha.credentials.password);
        await page.click('form button[type=submit]');
        await page.locator('.g-recaptcha').waitFor();
        await page.frameLocator('iframe[title="reCAPTCHA"]').getByRole('checkbox').click();
        await page.frameLocator('iframe[title="reCAPTCHA"]').getByText('You are verified').waitFor();
        await page.fill('#pass', captcha.credentials.password);
        await page.click('form button[type=submit]');
        await page.getByText(captcha.loggedInText).waitFor();
      } finally {
        await ctx.close();
      }
    });

    it('captcha: the person solves the challenge and signs in; the session comes back without Done', async () => {
      const before = captcha.stats().successfulLogins;
      const pending = t.login(captcha, { interactive: true });
      const w = await t.windows.next(pending);
      expect(w.reason).toBe('captcha_blocked');
      await w.page.getByText('Agent Studio: solve the CAPTCHA').waitFor();
      // The challenge is on the reopened page because the login's cookies came along (partialState).
      await w.page.locator('.g-recaptcha').waitFor();
      await w.page.fill('#email', captcha.credentials.username);
      await w.page.fill('#pass', captcha.credentials.password);
      const anchor = w.page.frameLocator('iframe[title="reCAPTCHA"]');
      await anchor.getByRole('checkbox').click();
      await anchor.getByText('You are verified').waitFor();
      await w.page.click('form button[type=submit]');

      const res = await pending;
      const body = await res.json();
      expect(res.status, JSON.stringify(body)).toBe(200);
      expect(windowClosed(w)).toBe(true);
      expect(captcha.stats().successfulLogins).toBe(before + 1);
      expect(await opensProtectedPage(agent, captcha, body)).toBe(true);
    });
  });

  it('a core that serves no live page (not listening) answers the typed error with details.interactive "unavailable"', async () => {
    const t = await startTestServer();
    // As a core that never listened (the CLI's): there is no page to send a person to.
    t.core.login.takeover?.setBaseUrl(null);
    const site = await startCaptcha();
    try {
      const login = (over: Record<string, unknown>) =>
        t.request('/api/login', {
          method: 'POST',
          json: {
            cred: { username: site.credentials.username, password: site.credentials.password },
            domain: site.loginUrl,
            useCache: false,
            ...over,
          },
        });
      const res = await login({ interactive: true });
      const body = (await res.json()) as LoginError;
      expect(res.status, JSON.stringify(body)).toBe(422);
      expect(body).toMatchObject({
        error: 'CAPTCHA_BLOCKED',
        details: { reason: 'captcha_blocked', interactive: 'unavailable' },
      });
      expect(body.message).toContain('A person in the loop');
      for (const interactiveTimeoutSec of [1, 1801]) {
        const bad = await login({ interactive: true, interactiveTimeoutSec });
        expect(bad.status).toBe(400);
        expect(await bad.json()).toMatchObject({ error: 'INVALID_REQUEST' });
      }
    } finally {
      await site.close();
      await t.close();
    }
  });
});
