// A person finishing a stopped login on its live page (docs/person-in-the-loop.md#the-live-page), from "any browser": a
// Playwright context of its own opens the takeover_url and acts ONLY through the streamed canvas (mouse clicks at
// client coordinates, keys typed into the page). The server's remote page (TakeoverFinisher.livePage) is read only
// to learn where things are and what they show, as the person sees them on the frames.
import type { Browser, BrowserContext, Frame, Locator, Page } from 'playwright-core';
import { vi } from 'vitest';
import type { LoginRun } from '../../src/shared/login.schema.js';
import type { FixtureSite } from '../fixtures/sites/index.js';
import type { TestServer } from './test-server.js';

/** How long a person waits for anything to show (the login's engine run comes first). */
export const PERSON_WAIT_MS = 45_000;

export interface PersonWindow {
  viewport: { width: number; height: number };
  deviceScaleFactor?: number;
}

/** GET /api/login/:id, polled until the login waits for a person: its takeover_url. Fails as soon as it ended. */
export async function waitForTakeoverUrl(
  t: TestServer,
  loginId: string,
  opts: { key?: string; timeout?: number } = {},
): Promise<string> {
  let ended: string | undefined;
  const url = await vi.waitFor(
    async () => {
      const res = await t.request(`/api/login/${loginId}`, { key: opts.key });
      const text = await res.text();
      if (res.status !== 200) throw new Error(`GET /api/login/${loginId}: ${res.status} ${text}`);
      const run = JSON.parse(text) as LoginRun;
      if (run.finished_at !== null) return void (ended = text); // over: no use waiting
      if (run.status !== 'needs_person' || !run.takeover_url) throw new Error(`not waiting for a person: ${text}`);
      return run.takeover_url;
    },
    { timeout: opts.timeout ?? PERSON_WAIT_MS, interval: 100 },
  );
  if (!url) throw new Error(`the login ended before it waited for a person: ${ended}`);
  return url;
}

/** Polls GET /api/login/:id until it ended (any status but running / needs_person). */
export async function waitForEnd(t: TestServer, loginId: string, timeout = PERSON_WAIT_MS): Promise<LoginRun> {
  return vi.waitFor(
    async () => {
      const res = await t.request(`/api/login/${loginId}`);
      const run = (await res.json()) as LoginRun;
      if (res.status !== 200 || run.finished_at === null) throw new Error(`still going: ${JSON.stringify(run)}`);
      return run;
    },
    { timeout, interval: 100 },
  );
}

export class LivePerson {
  /** After settle(): the image drawn last is not of the viewport's size (a stale screencast frame). */
  staleFrame = false;

  private constructor(
    readonly ctx: BrowserContext,
    /** Where the mouse and keys act (the page, or the page whose frame shows the live page). */
    readonly page: Page,
    private readonly remotePage: () => Page | undefined,
    /** The live page's document: `page` itself, or a frame of it (inFrame). */
    private readonly view: Page | Frame = page,
  ) {}

  /**
   * A person acting on a live page shown in a frame of another page (the desktop window's panel): clicks and keys
   * go through `page` (client coordinates of its viewport), as a person's do. close() leaves `page` open.
   */
  static async inFrame(page: Page, frame: Frame, remotePage: () => Page | undefined): Promise<LivePerson> {
    const person = new LivePerson(page.context(), page, remotePage, frame);
    await person.waitForFrames();
    return person;
  }

  /** A new browser context of `browser` (its own window size) opens the takeover URL and waits for frames. */
  static async open(
    browser: Browser,
    takeoverUrl: string,
    remotePage: () => Page | undefined,
    window: PersonWindow = { viewport: { width: 1280, height: 800 } },
  ): Promise<LivePerson> {
    const ctx = await browser.newContext({ viewport: window.viewport, deviceScaleFactor: window.deviceScaleFactor });
    ctx.setDefaultTimeout(PERSON_WAIT_MS);
    const page = await ctx.newPage();
    const person = new LivePerson(ctx, page, remotePage);
    await page.goto(takeoverUrl);
    await person.waitForFrames();
    return person;
  }

  /** The server's page behind the live view (only to learn where things are, as the person sees them). */
  get remote(): Page {
    const p = this.remotePage();
    if (!p) throw new Error('the live view has no page (the login is over)');
    return p;
  }

  /** The canvas is shown with a frame drawn on it. */
  async waitForFrames(): Promise<void> {
    await this.view.locator('#view').waitFor({ state: 'visible', timeout: PERSON_WAIT_MS });
    await vi.waitFor(
      async () => {
        const w = await this.view.locator('#screen').evaluate((c: HTMLCanvasElement) => c.width * c.height);
        if (!(w > 0)) throw new Error('no frame drawn yet');
      },
      { timeout: PERSON_WAIT_MS, interval: 100 },
    );
  }

  private async canvas() {
    const c = await this.view.locator('#screen').evaluate((c: HTMLCanvasElement) => {
      const r = c.getBoundingClientRect();
      const view = document.getElementById('view') as HTMLElement;
      return {
        width: c.width,
        height: c.height,
        left: r.left,
        top: r.top,
        w: r.width,
        h: r.height,
        hidden: view.hidden,
        /** The remote size the page maps the pointer against (the newest frame's metadata), "WxH". */
        remote: view.dataset.remote ?? '',
      };
    });
    if (this.view === this.page) return c;
    // In a frame: where the canvas shows in the page's viewport (the frame's place, border and scaling included).
    const box = await this.view.locator('#screen').boundingBox();
    return box ? { ...c, left: box.x, top: box.y, w: box.width, h: box.height } : c;
  }

  /**
   * Waits until the page's resize to its own area has settled: the remote viewport unchanged for 600 ms and the
   * canvas shown at its aspect ratio (laid out from a frame of that size). Returns the viewport. `staleFrame`
   * tells whether the image drawn last is still of another size (see the note at the end of this file).
   */
  async settle(): Promise<{ width: number; height: number }> {
    let last = '';
    let since = Date.now();
    const vp = await vi.waitFor(
      async () => {
        const size = this.remote.viewportSize();
        const c = await this.canvas();
        if (!size) throw new Error('the remote page has no viewport');
        const key = `${size.width}x${size.height} shown ${c.w}x${c.h}`;
        if (key !== last) [last, since] = [key, Date.now()];
        if (c.hidden || !(c.width > 0)) throw new Error(`no frame shown: ${key}`);
        if (Math.abs(c.w / c.h - size.width / size.height) > 0.01) throw new Error(`shown out of ratio: ${key}`);
        if (Date.now() - since < 600) throw new Error(`settling: ${key}`);
        return size;
      },
      { timeout: PERSON_WAIT_MS, interval: 100 },
    );
    // The newest frame usually follows within a moment; a static page may never send one (see the note).
    this.staleFrame = await vi
      .waitFor(
        async () => {
          const c = await this.canvas();
          if (c.width !== vp.width || c.height !== vp.height) throw new Error(`image ${c.width}x${c.height}`);
        },
        { timeout: 3000, interval: 100 },
      )
      .then(
        () => false,
        () => true,
      );
    return vp;
  }

  /**
   * Client coordinates (in the person's page) of the remote viewport point (x, y) in CSS px, mapped as the page maps
   * them back. The page maps a pointer against the newest frame's size (its metadata); until a frame of the remote
   * page's present viewport has been drawn (after a resize: the person's window, a hi-DPI one too, fitting the page
   * to itself) that size is another, and a click aimed with the present viewport lands elsewhere. So this fails
   * while the two differ, and a caller inside vi.waitFor tries again once the next frame has come.
   */
  async toClient(x: number, y: number): Promise<{ x: number; y: number }> {
    const vp = this.remote.viewportSize()!;
    const c = await this.canvas();
    const shown = `${vp.width}x${vp.height}`;
    if (c.remote !== shown) throw new Error(`the view maps against ${c.remote || 'no frame'}, the page is ${shown}`);
    return { x: c.left + (x / vp.width) * c.w, y: c.top + (y / vp.height) * c.h };
  }

  /**
   * Where `target` (a locator of the remote page, frames included: Playwright's boxes are in the main frame's
   * viewport) shows on the canvas. Out of view, the person turns the wheel over the canvas first.
   */
  async locate(target: Locator): Promise<{ x: number; y: number }> {
    const box = await vi.waitFor(
      async () => {
        const vp = this.remote.viewportSize()!;
        const b = await target.boundingBox({ timeout: 5000 });
        if (!b) throw new Error(`not shown: ${String(target)}`);
        const cy = b.y + b.height / 2;
        if (b.y < 0 || b.y + b.height > vp.height) {
          await this.wheel(cy - vp.height / 2);
          throw new Error(`out of view at y=${Math.round(b.y)} (viewport ${vp.height}): scrolled`);
        }
        // Two reads alike, a rendered frame apart: the page is not moving under the pointer (a smooth scroll or a
        // layout settling moves it between frames, never within one).
        await target.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
        const again = await target.boundingBox({ timeout: 5000 });
        if (!again || again.x !== b.x || again.y !== b.y) throw new Error('still moving');
        // Aimed as the page maps it: fails (and is tried again) while the view maps against another frame size.
        return this.toClient(b.x + b.width / 2, b.y + b.height / 2);
      },
      { timeout: 20_000, interval: 250 },
    );
    return box;
  }

  /** Turns the wheel over the middle of the canvas (deltaY in px; positive scrolls down). */
  async wheel(deltaY: number): Promise<void> {
    const c = await this.canvas();
    await this.page.mouse.move(c.left + c.w / 2, c.top + c.h / 2);
    await this.page.mouse.wheel(0, deltaY);
  }

  /** A click on the canvas where `target` shows. */
  async click(target: Locator): Promise<void> {
    const p = await this.locate(target);
    await this.page.mouse.click(p.x, p.y);
  }

  /** Keys typed into the live view (the canvas has the focus after a click on it). */
  async type(text: string): Promise<void> {
    await this.page.keyboard.type(text);
  }

  async press(key: string): Promise<void> {
    await this.page.keyboard.press(key);
  }

  /** The page's Done button. */
  async done(): Promise<void> {
    await this.view.locator('#done').click();
  }

  /** The page's Cancel button, then its confirmation. */
  async cancel(): Promise<void> {
    await this.view.locator('#cancel').click();
    await this.view.locator('#confirm-yes').click();
  }

  /** The headline the page shows once the login is over. */
  async outcome(): Promise<string> {
    await this.view.locator('#ended').waitFor({ state: 'visible' });
    return (await this.view.locator('#outcome-title').textContent()) ?? '';
  }

  async close(): Promise<void> {
    if (this.view === this.page) await this.ctx.close();
  }
}

/** On the captcha fixture (personCanSolve): email, password, the tick in the challenge's frame, then submit. */
export async function signInPastCaptcha(person: LivePerson, site: FixtureSite, opts = { submit: true }) {
  const r = person.remote;
  await person.click(r.locator('#email'));
  await person.type(site.credentials.username);
  await person.click(r.locator('#pass'));
  await person.type(site.credentials.password);
  const anchor = r.frameLocator('iframe[title="reCAPTCHA"]');
  await person.click(anchor.getByRole('checkbox'));
  // What the person sees in the challenge before going on (the token is in the form then).
  await anchor.getByText('You are verified').waitFor({ timeout: PERSON_WAIT_MS });
  if (opts.submit) await person.click(r.locator('form button[type=submit]'));
}

/** On the mfa fixture: the code field, the code, Enter. */
export async function enterCode(person: LivePerson, code: string) {
  await person.click(person.remote.locator('#otp'));
  await person.type(code);
  await person.press('Enter');
}

// Note (src/main/core/login/takeover/takeover-session.ts, resize): right after Page.setViewportSize Chromium's
// screencast may send a frame whose metadata has the new viewport size but whose JPEG is of another (the old or
// an intermediate size); on a page that does not repaint no newer frame follows, and the live page keeps showing
// that image stretched to the new box. The mapping of clicks stays right (it uses the metadata), so a person
// acting on what the DOM shows is fine; the picture can be wrong until the page repaints.
