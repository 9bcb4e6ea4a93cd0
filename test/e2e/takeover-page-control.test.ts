// The takeover page's control and ends against the stand-in (support/takeover-stand-in.ts): a watcher and a 409,
// control passing on, Done, Cancel, a stale link, reconnecting, axe-core and screenshots, and no page errors.
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  axeViolations,
  clickRemote,
  open,
  pageErrors,
  presses,
  screenPoint,
  server,
  SHOTS,
  useStandIn,
} from './support/takeover-stand-in.js';

useStandIn();

describe('the takeover page', () => {
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
