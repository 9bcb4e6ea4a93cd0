// The takeover page's input in real headless Chromium against the stand-in (support/takeover-stand-in.ts): the
// token leaving the address bar, pointer mapping at two sizes and at device scale 2, taps, keys, paste and wheel.
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { TakeoverInput } from '../../src/main/core/login/takeover/live-page/takeover-protocol.js';
import {
  clickRemote,
  frame1x,
  frame2x,
  open,
  pageErrors,
  presses,
  REMOTE,
  screenPoint,
  server,
  SHOTS,
  TOKEN,
  useStandIn,
} from './support/takeover-stand-in.js';

useStandIn();

// The pages of this file ran without page errors or CSP violations (the test of that name, in
// takeover-page-control.test.ts, sees the pages of its own file). A 404 or 409 answer is expected.
afterAll(() => {
  expect(pageErrors.filter((e) => !/status of 40[49]/.test(e))).toEqual([]);
});

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

  it('below ~700 px keeps a remote page that did not follow readable: scrolled, not letterboxed; clicks land', async () => {
    // The stand-in's remote stays 1280x800 whatever size is asked for (as when someone else controls the page):
    // fitted whole into a 640x480 or 320x640 window it would be a quarter of its size, 16 px text drawn at ~4-7 px.
    const { page, viewer } = await open('login-small', { width: 640, height: 480 });
    for (const size of [null, { width: 320, height: 640 }]) {
      if (size) await page.setViewportSize(size);
      const box = await page.locator('#screen').evaluate((c) => c.getBoundingClientRect().width);
      expect(box / REMOTE.width, `scale at ${size?.width ?? 640} px`).toBeGreaterThanOrEqual(0.75);
      expect(
        await page.locator('#stage').evaluate((s) => s.scrollHeight > s.clientHeight || s.scrollWidth > s.clientWidth),
      ).toBe(true);
      await page.screenshot({
        path: path.join(SHOTS, `readable-${size?.width ?? 640}x${size?.height ?? 480}-light.png`),
        animations: 'disabled',
      });
      const before = presses(server.inputs(viewer)).length;
      await clickRemote(page, 100, 200);
      await clickRemote(page, 900, 600);
      await expect.poll(() => presses(server.inputs(viewer)).length).toBe(before + 4);
      const got = presses(server.inputs(viewer)).slice(before);
      for (const [i, [x, y]] of [
        [100, 200],
        [100, 200],
        [900, 600],
        [900, 600],
      ].entries()) {
        expect(Math.abs(got[i].x - x), `x at ${size?.width ?? 640}`).toBeLessThanOrEqual(1);
        expect(Math.abs(got[i].y - y), `y at ${size?.width ?? 640}`).toBeLessThanOrEqual(1);
      }
    }
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
});
