// The takeover page (a person finishes a stuck login from any browser) in real headless Chromium, against a
// stand-in server written here that serves the page with its CSP and speaks the live-view protocol: it sends
// hello, state and JPEG frames (screenshots of a known test page) and records every POST. Checked: pointer
// mapping at two window sizes and at device scale 2, keys in order, paste, wheel, the Esc-Tab exit, a watcher
// and a 409, control passing on, Done, Cancel, the end, a stale link, reconnecting, the token leaving the
// address bar, axe-core in light and dark, and screenshots into test-results/screens/takeover/.
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { createRequire } from 'node:module';
import path from 'node:path';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolveBrowserExecutable } from '../../src/main/core/login/browser-resolver.js';
import {
  LIVE_CSS_PATH,
  LIVE_JS_PATH,
  LIVE_PAGE_CSP,
  livePageHtml,
} from '../../src/main/core/login/takeover/live-page/live-page.html.js';
import { TAKEOVER_JS } from '../../src/main/core/login/takeover/live-page/takeover.client.js.js';
import { TAKEOVER_CSS } from '../../src/main/core/login/takeover/live-page/takeover.css.js';
import type { TakeoverInput } from '../../src/main/core/login/takeover/live-page/takeover-protocol.js';
import { TEST_BROWSER_ARGS } from '../helpers/browser.js';

const SHOTS = path.resolve(import.meta.dirname, '..', '..', 'test-results', 'screens', 'takeover');
const AXE = fs.readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
const TOKEN = 'tok_9f3KxQ2-secret';
const REMOTE = { width: 1280, height: 800 };

interface Viewer {
  id: string;
  loginId: string;
  res: http.ServerResponse;
  open: boolean;
}
interface Post {
  loginId: string;
  what: string;
  viewer: string;
  token: string;
  body: unknown;
}

/** The server's side of the protocol, as small as the page allows. The first open viewer controls. */
class StandIn {
  readonly posts: Post[] = [];
  readonly viewers: Viewer[] = [];
  readonly eventRequests: { loginId: string; token: string }[] = [];
  /** Viewers whose input is refused with 409 although hello said they control (control moved meanwhile). */
  readonly refuse = new Set<string>();
  frame = { data: '', width: REMOTE.width, height: REMOTE.height };
  private server = http.createServer((req, res) => void this.route(req, res));
  private next = 1;
  url = '';

  async start() {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }
  close() {
    for (const v of this.viewers) v.res.destroy();
    this.server.closeAllConnections();
    return new Promise((resolve) => this.server.close(resolve));
  }
  controllerOf(loginId: string) {
    return this.viewers.find((v) => v.loginId === loginId && v.open);
  }
  send(v: Viewer, event: string, data: unknown) {
    if (v.open) v.res.write(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
  }
  state(loginId: string, extra: Record<string, unknown> = {}) {
    const open = this.viewers.filter((v) => v.loginId === loginId && v.open);
    return {
      reason: 'mfa_required',
      instructions: 'Enter the code, then continue.',
      site: 'https://accounts.example.test',
      pageUrl: 'https://accounts.example.test/signin/v2/challenge/totp/verify-your-identity-with-a-code',
      deadline: Date.now() + 4 * 60_000 + 30_000,
      viewers: open.length,
      controller: open[0]?.id ?? '',
      ...extra,
    };
  }
  broadcast(loginId: string, event: string, data: unknown) {
    for (const v of this.viewers.filter((x) => x.loginId === loginId)) this.send(v, event, data);
  }
  inputs(viewer: string): TakeoverInput[] {
    return this.posts.filter((p) => p.viewer === viewer && p.what === 'input').map((p) => p.body as TakeoverInput);
  }

  private async route(req: http.IncomingMessage, res: http.ServerResponse) {
    const url = new URL(req.url ?? '/', this.url);
    const token = String(req.headers['x-takeover-token'] ?? '');
    res.setHeader('Content-Security-Policy', LIVE_PAGE_CSP);
    const assets: Record<string, [string, string]> = {
      [LIVE_JS_PATH]: ['text/javascript', TAKEOVER_JS],
      [LIVE_CSS_PATH]: ['text/css', TAKEOVER_CSS],
    };
    const asset = req.method === 'GET' ? assets[url.pathname] : undefined;
    if (asset) {
      res.writeHead(200, { 'Content-Type': `${asset[0]}; charset=utf-8` });
      return res.end(asset[1]);
    }
    const m = /^\/live\/([^/]+)(?:\/(events|input|resize|done|cancel))?$/.exec(url.pathname);
    if (!m) return res.writeHead(404).end();
    const [, loginId, what] = m;
    if (!what && req.method === 'GET') {
      res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' });
      return res.end(livePageHtml({}));
    }
    if (what === 'events' && req.method === 'GET') {
      this.eventRequests.push({ loginId, token });
      if (loginId.startsWith('gone') || token !== TOKEN)
        return res.writeHead(loginId.startsWith('gone') ? 404 : 401).end();
      res.writeHead(200, { 'Content-Type': 'text/event-stream', 'Cache-Control': 'no-store' });
      const v: Viewer = { id: `viewer-${this.next++}`, loginId, res, open: true };
      this.viewers.push(v);
      res.on('close', () => {
        v.open = false;
      });
      this.send(v, 'hello', { viewer: v.id, controller: this.controllerOf(loginId) === v });
      this.broadcast(loginId, 'state', this.state(loginId));
      this.send(v, 'frame', this.frame);
      return;
    }
    if (req.method !== 'POST') return res.writeHead(405).end();
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const text = Buffer.concat(chunks).toString('utf8');
    const viewer = String(req.headers['x-takeover-viewer'] ?? '');
    this.posts.push({ loginId, what, viewer, token, body: text ? JSON.parse(text) : undefined });
    const controls = this.controllerOf(loginId)?.id === viewer && !this.refuse.has(viewer);
    if (token !== TOKEN) return res.writeHead(401).end();
    if ((what === 'input' || what === 'resize') && !controls) return res.writeHead(409).end();
    res.writeHead(204).end();
  }
}

let browser: Browser;
const server = new StandIn();
let frame1x = '';
let frame2x = '';
const pageErrors: string[] = [];

/** A known test image: a sign-in page with a code field and a grid, as the remote page would look. */
async function renderFrame(scale: number): Promise<string> {
  const ctx = await browser.newContext({ viewport: REMOTE, deviceScaleFactor: scale });
  const page = await ctx.newPage();
  await page.setContent(`<body style="margin:0;font:16px system-ui;background:
      repeating-linear-gradient(90deg,#0000 0 99px,#e3e7ee 99px 100px),repeating-linear-gradient(#0000 0 99px,#e3e7ee 99px 100px),#fff">
    <div style="width:420px;margin:120px auto;padding:32px;border:1px solid #c4c9d2;border-radius:12px;background:#fff">
      <h1 style="font-size:24px;margin:0 0 8px">Verify it's you</h1><p>Enter the 6-digit code from your authenticator app.</p>
      <input style="font-size:20px;padding:10px;width:100%;box-sizing:border-box" placeholder="123456">
      <button style="margin-top:16px;padding:10px 20px;font-size:16px;background:#1a73e8;color:#fff;border:0;border-radius:6px">Next</button>
    </div></body>`);
  const jpeg = await page.screenshot({ type: 'jpeg', quality: 70 });
  await ctx.close();
  return jpeg.toString('base64');
}

beforeAll(async () => {
  fs.mkdirSync(SHOTS, { recursive: true });
  browser = await chromium.launch({ executablePath: resolveBrowserExecutable({}).path, args: TEST_BROWSER_ARGS });
  [frame1x, frame2x] = await Promise.all([renderFrame(1), renderFrame(2)]);
  server.frame = { data: frame1x, width: REMOTE.width, height: REMOTE.height };
  await server.start();
}, 60_000);

afterAll(async () => {
  await server.close();
  await browser?.close();
});

const contexts: BrowserContext[] = [];
afterAll(async () => {
  await Promise.all(contexts.map((c) => c.close().catch(() => {})));
});

/** Opens /live/<loginId>#token in a fresh context; resolves once its viewer is connected and a frame shows. */
async function open(
  loginId: string,
  opts: {
    width?: number;
    height?: number;
    scale?: number;
    scheme?: 'light' | 'dark';
    waitFrame?: boolean;
    touch?: boolean;
  } = {},
) {
  const context = await browser.newContext({
    viewport: { width: opts.width ?? 1280, height: opts.height ?? 800 },
    deviceScaleFactor: opts.scale ?? 1,
    hasTouch: opts.touch ?? false,
    colorScheme: opts.scheme ?? 'light',
    reducedMotion: 'reduce',
  });
  contexts.push(context);
  context.setDefaultTimeout(10_000);
  const page = await context.newPage();
  page.on('pageerror', (e) => pageErrors.push(`${loginId}: ${e.message}`));
  page.on('console', (m) => {
    if (m.type() === 'error') pageErrors.push(`${loginId}: ${m.text()}`);
  });
  const before = server.viewers.length;
  await page.goto(`${server.url}/live/${loginId}#${TOKEN}`);
  if (opts.waitFrame === false) return { page, context, viewer: '' };
  await expect.poll(() => server.viewers.length).toBeGreaterThan(before);
  const viewer = server.viewers[server.viewers.length - 1].id;
  await page.locator('#view').waitFor({ state: 'visible' });
  return { page, context, viewer };
}

/** Where on our page a remote CSS px point is shown (centre of the canvas box mapping). */
async function screenPoint(page: Page, x: number, y: number) {
  const box = await page.locator('#screen').boundingBox();
  if (!box) throw new Error('no frame box');
  return { x: box.x + (x / REMOTE.width) * box.width, y: box.y + (y / REMOTE.height) * box.height, box };
}

async function clickRemote(page: Page, x: number, y: number) {
  const p = await screenPoint(page, x, y);
  await page.mouse.click(p.x, p.y);
}

const presses = (inputs: TakeoverInput[]) =>
  inputs.filter((i): i is Extract<TakeoverInput, { type: 'mouse' }> => i.type === 'mouse' && i.action !== 'move');

async function axeViolations(page: Page) {
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(AXE);
  return page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run: (c: unknown, o: unknown) => Promise<unknown> } }).axe;
    const result = (await axe.run(document, { resultTypes: ['violations'] })) as {
      violations: { id: string; nodes: { target: string[]; failureSummary: string }[] }[];
    };
    return result.violations.map((v) => `${v.id}: ${v.nodes.map((n) => `${n.target.join(' ')} ${n.failureSummary}`)}`);
  });
}

describe('the takeover page', () => {
  it('takes the token out of the address bar and sends it on every request', async () => {
    const { page, viewer } = await open('login-token');
    expect(page.url()).toBe(`${server.url}/live/login-token`);
    expect(server.eventRequests.filter((r) => r.loginId === 'login-token')).toEqual([
      { loginId: 'login-token', token: TOKEN },
    ]);
    await expect.poll(() => server.posts.filter((p) => p.viewer === viewer).length).toBeGreaterThan(0);
    expect(server.posts.filter((p) => p.loginId === 'login-token').every((p) => p.token === TOKEN)).toBe(true);
    await expect(page.locator('#instructions').textContent()).resolves.toBe('Enter the code, then continue.');
    await expect(page.locator('#site').textContent()).resolves.toBe('https://accounts.example.test');
    await expect(page.locator('#viewer-state').textContent()).resolves.toBe('You control this page');
    expect(await page.locator('#countdown').textContent()).toMatch(/^04:(29|30)$/);
  });

  it('maps clicks to remote CSS px at 1280x800 and 800x600, and asks the remote viewport to match', async () => {
    const { page, viewer } = await open('login-map');
    for (const size of [null, { width: 800, height: 600 }]) {
      if (size) await page.setViewportSize(size);
      const area = await page.locator('#stage').evaluate((s) => ({ w: s.clientWidth - 12, h: s.clientHeight - 12 }));
      await expect
        .poll(() => server.posts.filter((p) => p.viewer === viewer && p.what === 'resize').at(-1)?.body)
        .toEqual({ width: Math.round(area.w), height: Math.round(area.h) });
      const before = presses(server.inputs(viewer)).length;
      await clickRemote(page, 100, 200);
      await clickRemote(page, 1000, 700);
      await expect.poll(() => presses(server.inputs(viewer)).length).toBe(before + 4);
      const got = presses(server.inputs(viewer)).slice(before);
      expect(got.map((m) => [m.action, m.button, m.clickCount])).toEqual([
        ['down', 'left', 1],
        ['up', 'left', 1],
        ['down', 'left', 1],
        ['up', 'left', 1],
      ]);
      for (const [i, [x, y]] of [
        [100, 200],
        [100, 200],
        [1000, 700],
        [1000, 700],
      ].entries()) {
        expect(Math.abs(got[i].x - x), `x at ${size?.width ?? 1280}`).toBeLessThanOrEqual(1);
        expect(Math.abs(got[i].y - y), `y at ${size?.width ?? 1280}`).toBeLessThanOrEqual(1);
      }
    }
    // the canvas keeps the remote aspect ratio inside the stage
    const { box } = await screenPoint(page, 0, 0);
    expect(box.width / box.height).toBeCloseTo(REMOTE.width / REMOTE.height, 1);
  });

  it('maps the same with deviceScaleFactor 2 and a 2x JPEG', async () => {
    server.frame = { data: frame2x, width: REMOTE.width, height: REMOTE.height };
    try {
      const { page, viewer } = await open('login-dpr2', { scale: 2 });
      expect(await page.locator('#screen').evaluate((c: HTMLCanvasElement) => [c.width, c.height])).toEqual([
        2560, 1600,
      ]);
      await clickRemote(page, 640, 400);
      await page.mouse.dblclick((await screenPoint(page, 321, 123)).x, (await screenPoint(page, 321, 123)).y);
      await expect.poll(() => presses(server.inputs(viewer)).length).toBe(6);
      const got = presses(server.inputs(viewer));
      expect(got.map((m) => m.clickCount)).toEqual([1, 1, 1, 1, 2, 2]);
      for (const [i, [x, y]] of [
        [640, 400],
        [640, 400],
        [321, 123],
        [321, 123],
        [321, 123],
        [321, 123],
      ].entries()) {
        expect(Math.abs(got[i].x - x)).toBeLessThanOrEqual(1);
        expect(Math.abs(got[i].y - y)).toBeLessThanOrEqual(1);
      }
      await page.screenshot({ path: path.join(SHOTS, 'live-1280x800-dpr2-light.png') });
    } finally {
      server.frame = { data: frame1x, width: REMOTE.width, height: REMOTE.height };
    }
  });

  it('taps act as the left button, the remote pointer moved there first', async () => {
    const { page, viewer } = await open('login-touch', { touch: true, width: 800, height: 600 });
    const p = await screenPoint(page, 700, 500);
    await page.touchscreen.tap(p.x, p.y);
    await expect.poll(() => presses(server.inputs(viewer)).length).toBe(2);
    const got = server.inputs(viewer).filter((i) => i.type === 'mouse');
    expect(got.map((m) => `${m.action} ${m.button}`)).toEqual(['move none', 'down left', 'up left']);
    const slack = REMOTE.width / p.box.width;
    for (const m of got) {
      expect(Math.abs(m.x - 700)).toBeLessThanOrEqual(slack);
      expect(Math.abs(m.y - 500)).toBeLessThanOrEqual(slack);
    }
  });

  it('sends typed keys in order, paste as text, wheel turns, and lets Esc then Tab out', async () => {
    const { page, context, viewer } = await open('login-keys');
    await clickRemote(page, 640, 330); // the code field
    await expect.poll(() => page.evaluate(() => document.activeElement?.id)).toBe('keys');
    await expect.poll(() => presses(server.inputs(viewer)).length).toBe(2);
    const start = server.inputs(viewer).length;
    await page.keyboard.type('123456');
    await page.keyboard.press('Enter');
    await expect.poll(() => server.inputs(viewer).filter((i) => i.type === 'key').length).toBe(14);
    const keys = server.inputs(viewer).slice(start);
    const want: TakeoverInput[] = [...'123456'].flatMap((d): TakeoverInput[] => [
      { type: 'key', action: 'down', key: d, code: `Digit${d}`, text: d, modifiers: 0 },
      { type: 'key', action: 'up', key: d, code: `Digit${d}`, modifiers: 0 },
    ]);
    want.push({ type: 'key', action: 'down', key: 'Enter', code: 'Enter', modifiers: 0 });
    want.push({ type: 'key', action: 'up', key: 'Enter', code: 'Enter', modifiers: 0 });
    expect(keys).toEqual(want);

    // paste: Ctrl+V sends the clipboard's text (the V itself is not sent)
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: server.url });
    await page.evaluate(() => navigator.clipboard.writeText('pasted 987 654'));
    const beforePaste = server.inputs(viewer).length;
    await page.keyboard.press('Control+V');
    await expect
      .poll(() => server.inputs(viewer).slice(beforePaste))
      .toContainEqual({ type: 'text', text: 'pasted 987 654' });
    expect(
      server
        .inputs(viewer)
        .slice(beforePaste)
        .some((i) => i.type === 'key' && i.key.toLowerCase() === 'v'),
    ).toBe(false);

    // IME-style and phone-keyboard text arrives through the textarea's input events
    await page.keyboard.insertText('日本');
    await expect.poll(() => server.inputs(viewer).at(-1)).toEqual({ type: 'text', text: '日本' });

    // wheel over the frame
    const p = await screenPoint(page, 400, 300);
    await page.mouse.move(p.x, p.y);
    await page.mouse.wheel(0, 240);
    await expect.poll(() => server.inputs(viewer).filter((i) => i.type === 'wheel').length).toBe(1);
    const wheel = server.inputs(viewer).find((i) => i.type === 'wheel');
    expect(wheel).toMatchObject({ deltaX: 0, deltaY: 240, modifiers: 0 });
    // wheel events carry whole client px: one of them is 1280/box.width remote px here
    const slack = REMOTE.width / p.box.width;
    expect(Math.abs((wheel as { x: number }).x - 400)).toBeLessThanOrEqual(slack);
    expect(Math.abs((wheel as { y: number }).y - 300)).toBeLessThanOrEqual(slack);

    // Tab goes to the page; Esc then Tab leaves to the bar (Esc is still sent, that Tab is not)
    await page.keyboard.press('Tab');
    await expect.poll(() => server.inputs(viewer).at(-1)).toMatchObject({ type: 'key', action: 'up', key: 'Tab' });
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('keys');
    const beforeEsc = server.inputs(viewer).length;
    await page.keyboard.press('Escape');
    await page.keyboard.press('Tab');
    await expect.poll(() => page.evaluate(() => document.activeElement?.id)).toBe('done');
    await page.waitForTimeout(200);
    expect(
      server
        .inputs(viewer)
        .slice(beforeEsc)
        .map((i) => (i.type === 'key' ? `${i.action} ${i.key}` : i.type)),
    ).toEqual(['down Escape', 'up Escape']);
    // back in from the bar by keyboard: Done → Cancel → the live view (its textarea takes the keys)
    await page.keyboard.press('Tab');
    await page.keyboard.press('Tab');
    await expect.poll(() => page.evaluate(() => document.activeElement?.id)).toBe('keys');
    await page.keyboard.press('Shift+F6');
    await expect.poll(() => page.evaluate(() => document.activeElement?.id)).toBe('done');
    await expect.poll(() => server.inputs(viewer).at(-1)).toMatchObject({ type: 'key', action: 'up', key: 'Shift' });
  });

  it('a watcher sees "Watching", sends nothing, and takes over when the controller leaves', async () => {
    const a = await open('login-watch');
    const b = await open('login-watch');
    await expect.poll(() => b.page.locator('#viewer-state').textContent()).toBe('Watching — someone else controls it');
    await expect.poll(() => a.page.locator('#viewer-state').textContent()).toBe('You control this page · 1 watching');
    expect(await b.page.getByRole('application').getAttribute('aria-label')).toContain('watching only');
    expect(await b.page.locator('#hint').innerText()).toContain('You are watching');
    expect(await a.page.locator('#hint').innerText()).toContain('Esc then Tab');
    await clickRemote(b.page, 300, 300);
    await b.page.keyboard.type('42');
    const wheelAt = await screenPoint(b.page, 300, 300);
    await b.page.mouse.move(wheelAt.x, wheelAt.y);
    await b.page.mouse.wheel(0, 100);
    await b.page.waitForTimeout(300);
    expect(server.posts.filter((p) => p.viewer === b.viewer)).toEqual([]);
    await b.page.screenshot({ path: path.join(SHOTS, 'watching-1280x800-light.png') });

    // the controller leaves: the server names the watcher controller, which now sizes the remote viewport
    await a.context.close();
    await expect.poll(() => server.controllerOf('login-watch')?.id).toBe(b.viewer);
    server.broadcast('login-watch', 'state', server.state('login-watch'));
    await expect.poll(() => b.page.locator('#viewer-state').textContent()).toBe('You control this page');
    await expect.poll(() => server.posts.filter((p) => p.viewer === b.viewer).map((p) => p.what)).toEqual(['resize']);
    await clickRemote(b.page, 10, 10);
    await expect.poll(() => presses(server.inputs(b.viewer)).length).toBe(2);
  });

  it('stops sending and shows "Watching" when input is refused with 409', async () => {
    const { page, viewer } = await open('login-409');
    await expect.poll(() => server.posts.filter((p) => p.viewer === viewer).length).toBe(1); // the resize
    server.refuse.add(viewer);
    await clickRemote(page, 500, 500);
    await expect.poll(() => page.locator('#viewer-state').textContent()).toBe('Watching — someone else controls it');
    const sent = server.inputs(viewer).length;
    expect(sent).toBe(1); // the first input got 409; the rest was dropped here, nothing more was sent
    await page.keyboard.type('abc');
    await page.waitForTimeout(300);
    expect(server.inputs(viewer).length).toBe(sent);
  });

  it('Done posts done, and the end shows the outcome in place of the live view', async () => {
    const { page, viewer } = await open('login-done');
    await page.getByRole('button', { name: 'Done' }).click();
    await expect.poll(() => server.posts.filter((p) => p.viewer === viewer).map((p) => p.what)).toContain('done');
    expect(server.posts.find((p) => p.what === 'done' && p.viewer === viewer)?.body).toBeUndefined();
    server.broadcast('login-done', 'end', { outcome: 'signed_in', message: '' });
    await page.getByRole('heading', { level: 1, name: 'Signed in.' }).waitFor();
    expect(await page.getByText('You can close this tab.').isVisible()).toBe(true);
    expect(await page.locator('#stage').isVisible()).toBe(false);
    expect(await page.locator('header').isVisible()).toBe(false);
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('outcome-title');
    expect(await axeViolations(page)).toEqual([]);
    await page.screenshot({ path: path.join(SHOTS, 'ended-signed-in-1280x800-light.png') });
  });

  it('Cancel asks first, then posts cancel; the end says Cancelled', async () => {
    const { page, viewer } = await open('login-cancel', { width: 800, height: 600 });
    await page.getByRole('button', { name: 'Cancel' }).click();
    await expect.poll(() => page.evaluate(() => document.activeElement?.id)).toBe('confirm-no');
    await page.getByRole('button', { name: 'Keep going' }).click();
    expect(server.posts.some((p) => p.viewer === viewer && p.what === 'cancel')).toBe(false);
    await page.getByRole('button', { name: 'Cancel' }).click();
    await page.screenshot({ path: path.join(SHOTS, 'confirm-cancel-800x600-light.png') });
    await page.getByRole('button', { name: 'Yes, cancel' }).click();
    await expect.poll(() => server.posts.filter((p) => p.viewer === viewer).map((p) => p.what)).toContain('cancel');
    server.broadcast('login-cancel', 'end', { outcome: 'cancelled', message: '' });
    await page.getByRole('heading', { level: 1, name: 'Cancelled.' }).waitFor();
  });

  it('says the link is over when the events request answers 404', async () => {
    const { page } = await open('gone-1', { waitFrame: false });
    await page
      .getByRole('heading', { name: 'This link has expired or is not valid: the login it belongs to is over.' })
      .waitFor();
    expect(await page.locator('header').isVisible()).toBe(false);
    expect(await page.locator('#stage').isVisible()).toBe(false);
    expect(page.url()).toBe(`${server.url}/live/gone-1`);
    expect(await axeViolations(page)).toEqual([]);
    await page.screenshot({ path: path.join(SHOTS, 'expired-1280x800-light.png') });
  });

  it('shows Reconnecting… and reconnects when the stream drops before the end', async () => {
    const { page, viewer } = await open('login-drop');
    const first = server.viewers.find((v) => v.id === viewer);
    first?.res.destroy();
    await expect.poll(() => page.locator('#overlay').textContent()).toBe('Reconnecting…');
    expect(await page.locator('#view').isVisible()).toBe(true); // the last frame stays
    await page.screenshot({ path: path.join(SHOTS, 'reconnecting-1280x800-light.png') });
    await expect.poll(() => server.viewers.filter((v) => v.loginId === 'login-drop' && v.open).length).toBe(1);
    await expect.poll(() => page.locator('#overlay').textContent()).toBe('');
    expect(server.eventRequests.filter((r) => r.loginId === 'login-drop').length).toBe(2);
  });

  it('passes axe-core in light and dark and looks right at 1280x800, 800x600 and 320 px (screenshots)', async () => {
    for (const scheme of ['light', 'dark'] as const) {
      for (const [width, height] of [
        [1280, 800],
        [800, 600],
        [320, 640],
      ]) {
        const { page } = await open(`login-look-${scheme}-${width}`, { width, height, scheme });
        await page.locator('#keys').focus();
        expect(await axeViolations(page), `${scheme} ${width}x${height}`).toEqual([]);
        const scrollWidth = await page.evaluate(() => document.documentElement.scrollWidth);
        expect(scrollWidth, 'no sideways scrolling').toBeLessThanOrEqual(width);
        await page.screenshot({ path: path.join(SHOTS, `live-${width}x${height}-${scheme}.png`) });
        await page.context().close();
      }
    }
  });

  it('ran without page errors or CSP violations', () => {
    expect(pageErrors.filter((e) => !/status of 40[49]|login-drop: .*ERR_INCOMPLETE_CHUNKED_ENCODING/.test(e))).toEqual(
      [],
    );
  });
});
