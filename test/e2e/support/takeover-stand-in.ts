// The set-up shared by takeover-page*.test.ts: a stand-in server for the takeover page (its CSP, the live-view
// protocol, every POST recorded), a Chromium that opens the page, and the helpers the tests click and check with.
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { createRequire } from 'node:module';
import path from 'node:path';
import { type Browser, type BrowserContext, type Page } from 'playwright-core';
import { afterAll, beforeAll, expect } from 'vitest';
import {
  LIVE_CSS_PATH,
  LIVE_JS_PATH,
  LIVE_PAGE_CSP,
  livePageHtml,
} from '../../../src/main/core/login/takeover/live-page/live-page.html.js';
import { TAKEOVER_JS } from '../../../src/main/core/login/takeover/live-page/takeover.client.js.js';
import { TAKEOVER_CSS } from '../../../src/main/core/login/takeover/live-page/takeover.css.js';
import type { TakeoverInput } from '../../../src/main/core/login/takeover/live-page/takeover-protocol.js';
import { launchTestBrowser } from '../../helpers/browser.js';

export const SHOTS = path.resolve(import.meta.dirname, '..', '..', '..', 'test-results', 'screens', 'takeover');
const AXE = fs.readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
export const TOKEN = 'tok_9f3KxQ2-secret';
export const REMOTE = { width: 1280, height: 800 };

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
export class StandIn {
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
export const server = new StandIn();
/** The known test image (renderFrame) as a JPEG at device scale 1 and 2, made before the tests. */
export let frame1x = '';
export let frame2x = '';
/** Page errors and console errors of every page open() opened, prefixed with its login id. */
export const pageErrors: string[] = [];

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

/** The browser contexts open() made: closed after the file's tests. */
const contexts: BrowserContext[] = [];

/** Starts Chromium, renders the test frames and starts the stand-in before the file's tests; closes all after. */
export function useStandIn(): void {
  beforeAll(async () => {
    fs.mkdirSync(SHOTS, { recursive: true });
    browser = await launchTestBrowser();
    [frame1x, frame2x] = await Promise.all([renderFrame(1), renderFrame(2)]);
    server.frame = { data: frame1x, width: REMOTE.width, height: REMOTE.height };
    await server.start();
  }, 60_000);

  afterAll(async () => {
    await server.close();
    await browser?.close();
  });

  afterAll(async () => {
    await Promise.all(contexts.map((c) => c.close().catch(() => {})));
  });
}

/** Opens /live/<loginId>#token in a fresh context; resolves once its viewer is connected and a frame shows. */
export async function open(
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

/**
 * Where on our page a remote CSS px point is shown (centre of the canvas box mapping). A view larger than its stage
 * (kept readable, fitReadable) is first scrolled so the point is in sight, as a person scrolls to what they click.
 */
export async function screenPoint(page: Page, x: number, y: number) {
  await page.locator('#stage').evaluate(
    (stage, [fx, fy]) => {
      const view = document.getElementById('screen')!.getBoundingClientRect();
      const seen = stage.getBoundingClientRect();
      const px = view.left + fx * view.width;
      const py = view.top + fy * view.height;
      const inSight = px > seen.left + 20 && px < seen.right - 20 && py > seen.top + 20 && py < seen.bottom - 20;
      if (!inSight) stage.scrollBy(px - (seen.left + seen.width / 2), py - (seen.top + seen.height / 2));
    },
    [x / REMOTE.width, y / REMOTE.height],
  );
  const box = await page.locator('#screen').boundingBox();
  if (!box) throw new Error('no frame box');
  return { x: box.x + (x / REMOTE.width) * box.width, y: box.y + (y / REMOTE.height) * box.height, box };
}

export async function clickRemote(page: Page, x: number, y: number) {
  const p = await screenPoint(page, x, y);
  await page.mouse.click(p.x, p.y);
}

export const presses = (inputs: TakeoverInput[]) =>
  inputs.filter((i): i is Extract<TakeoverInput, { type: 'mouse' }> => i.type === 'mouse' && i.action !== 'move');

export async function axeViolations(page: Page) {
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(AXE);
  return page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run: (c: unknown, o: unknown) => Promise<unknown> } }).axe;
    const result = (await axe.run(document, { resultTypes: ['violations'] })) as {
      violations: { id: string; nodes: { target: string[]; failureSummary: string }[] }[];
    };
    return result.violations.map((v) => `${v.id}: ${v.nodes.map((n) => `${n.target.join(' ')} ${n.failureSummary}`)}`);
  });
}
