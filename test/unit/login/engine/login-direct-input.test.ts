import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BrowserPool } from '../../../../src/main/core/login/browser/browser-pool.js';
import { resolveBrowserExecutable } from '../../../../src/main/core/login/browser/browser-resolver.js';
import { clickAt, typeInto } from '../../../../src/main/core/login/engine/direct-input.js';
import type { DomHelpers } from '../../../../src/main/core/login/engine/dom-helpers.js';
import { MARK_ATTR, nextScanId, runInFrame } from '../../../../src/main/core/login/engine/page-script.js';

/**
 * The quick click and fill of scanned elements: they act only when a single look can vouch for the
 * element, and otherwise say why not (a disabled control, or unsure) so the engine waits for it to be enabled or
 * falls back to Playwright's waiting actions.
 */
let pool: BrowserPool;

beforeAll(() => {
  pool = new BrowserPool({ executablePath: resolveBrowserExecutable({}).path, maxContexts: 2 });
});
afterAll(async () => {
  await pool?.dispose();
});

const m = (id: string) => `${MARK_ATTR}="${id}"`;

/** Records clicks (and whether the browser made them) and input events on window.log. */
const RECORDER = `<script>
  window.log = [];
  document.addEventListener('click', (e) => log.push('click ' + (e.target.id || e.target.tagName) + ' trusted=' + e.isTrusted), true);
  document.addEventListener('input', (e) => log.push('input ' + e.inputType + ' ' + e.target.value), true);
</script>`;

async function withPage<T>(html: string, fn: (page: Page) => Promise<T>): Promise<T> {
  return pool.withContext(async (ctx) => {
    const page = await ctx.newPage();
    await page.setContent(`<!doctype html><html><body>${RECORDER}${html}</body></html>`);
    return fn(page);
  });
}

const log = (page: Page) => page.evaluate(() => (window as unknown as { log: string[] }).log);

describe('quick click', () => {
  it('clicks a plainly visible button with real (trusted) mouse events', async () => {
    await withPage(`<button id="b" ${m('t-1')}>Sign in</button>`, async (page) => {
      expect(await clickAt(page, page.mainFrame(), 't-1')).toBe('clicked');
      expect(await log(page)).toEqual(['click b trusted=true']);
    });
  });

  it('scrolls a button below the fold into view first', async () => {
    await withPage(`<div style="height:3000px"></div><button id="b" ${m('t-1')}>Log in</button>`, async (page) => {
      expect(await clickAt(page, page.mainFrame(), 't-1')).toBe('clicked');
      expect(await log(page)).toEqual(['click b trusted=true']);
      expect(await page.evaluate(() => window.scrollY)).toBeGreaterThan(1000);
    });
  });

  it('leaves a covered button to the careful path and clicks nothing', async () => {
    const html = `<button id="b" ${m('t-1')}>Sign in</button>
      <div id="banner" style="position:fixed;inset:0;background:#fff">We use cookies</div>`;
    await withPage(html, async (page) => {
      expect(await clickAt(page, page.mainFrame(), 't-1')).toBe('unsure');
      expect(await log(page)).toEqual([]);
    });
  });

  it('leaves a moving, disabled or hidden button, and one in an iframe, to the careful path', async () => {
    const html = `<style>@keyframes slide { from { margin-left: 0 } to { margin-left: 200px } }</style>
      <div style="animation: slide 5s infinite"><button id="moving" ${m('t-1')}>Sign in</button></div>
      <button id="off" disabled ${m('t-2')}>Sign in</button>
      <div role="button" id="aria-off" aria-disabled="true" ${m('t-5')}>Sign in</div>
      <button id="hidden" style="display:none" ${m('t-3')}>Sign in</button>
      <iframe srcdoc='<button ${m('t-4')}>Sign in</button>'></iframe>`;
    await withPage(html, async (page) => {
      const frame = page.mainFrame();
      expect(await clickAt(page, frame, 't-1')).toBe('unsure');
      expect(await clickAt(page, frame, 't-2')).toBe('disabled');
      expect(await clickAt(page, frame, 't-3')).toBe('unsure');
      expect(await clickAt(page, frame, 't-5')).toBe('disabled');
      await expect.poll(() => page.frames().length).toBe(2);
      const child = page.frames()[1];
      await child.waitForSelector('button');
      expect(await clickAt(page, child, 't-4')).toBe('unsure');
      expect(await clickAt(page, frame, 'no-such-mark')).toBe('unsure');
      expect(await log(page)).toEqual([]);
    });
  });
});

describe('element-bound typing', () => {
  it('replaces the value by inserting text, as typing would (input events), also in an email field', async () => {
    const html = `<input id="u" value="old" ${m('t-1')}><input id="e" type="email" value="old@example.org" ${m('t-2')}>`;
    await withPage(html, async (page) => {
      expect(await typeInto(page.mainFrame(), 't-1', 'ada@example.com')).toBe('typed');
      expect(await typeInto(page.mainFrame(), 't-2', 'bo@example.com')).toBe('typed');
      expect(await page.inputValue('#u')).toBe('ada@example.com');
      expect(await page.inputValue('#e')).toBe('bo@example.com');
      expect(await log(page)).toEqual(['input insertText ada@example.com', 'input insertText bo@example.com']);
    });
  });

  it('fills a field inside an open shadow root and a password field', async () => {
    const html = `<login-box></login-box><input type="password" id="p" ${m('t-2')}><script>
      const root = document.querySelector('login-box').attachShadow({ mode: 'open' });
      root.innerHTML = '<input id="inner" ${m('t-1')}>';
    </script>`;
    await withPage(html, async (page) => {
      expect(await typeInto(page.mainFrame(), 't-1', 'ada')).toBe('typed');
      expect(await typeInto(page.mainFrame(), 't-2', 's3cret pass')).toBe('typed');
      expect(
        await page.evaluate(() => document.querySelector('login-box')!.shadowRoot!.querySelector('input')!.value),
      ).toBe('ada');
      expect(await page.inputValue('#p')).toBe('s3cret pass');
    });
  });

  it('leaves fields that are not text inputs to the careful path', async () => {
    const html = `<input id="n" type="number" ${m('t-1')}>
      <div id="ce" contenteditable ${m('t-2')}></div>
      <input id="ro" readonly ${m('t-3')}>`;
    await withPage(html, async (page) => {
      const frame = page.mainFrame();
      for (const id of ['t-1', 't-2', 't-3']) expect(await typeInto(frame, id, '42'), id).toBe('unfit');
      expect(await log(page)).toEqual([]);
    });
  });

  it('puts the text into the chosen field only, also when the page moves the focus away (focus theft)', async () => {
    // The thief moves the focus to its own input whenever the field gets it, and again from a timer.
    const html = `<input id="pw" type="password" ${m('t-1')} onfocus="document.getElementById('thief').focus()">
      <input id="thief"><input id="pw2" type="password" ${m('t-2')}>
      <script>setInterval(() => document.getElementById('thief').focus(), 0)</script>`;
    await withPage(html, async (page) => {
      const frame = page.mainFrame();
      expect(await typeInto(frame, 't-1', 'hunter2 secret')).toBe('typed');
      expect(await typeInto(frame, 't-2', 'other secret')).toBe('typed');
      expect(await page.inputValue('#pw')).toBe('hunter2 secret');
      expect(await page.inputValue('#pw2')).toBe('other secret');
      expect(await page.inputValue('#thief')).toBe('');
    });
  });

  it('types key by key into the field, and stops when the focus cannot be kept on it', async () => {
    const html = `<input id="a" ${m('t-1')}>
      <input id="b" ${m('t-2')} onkeydown="document.getElementById('thief').focus(); this.blur()"
        onfocus="if (this.value) document.getElementById('thief').focus()">
      <input id="thief">`;
    await withPage(html, async (page) => {
      const frame = page.mainFrame();
      expect(await typeInto(frame, 't-1', 'abc', true)).toBe('typed');
      expect(await page.inputValue('#a')).toBe('abc');
      expect(await typeInto(frame, 't-2', 'xyz', true)).toBe('elsewhere');
      expect(await page.inputValue('#thief')).toBe('');
    });
  });
});

/** In-page: visibility now, and again from a timer that outlives the look. */
function visibleNowAndLater(_args: Record<string, never>, h: DomHelpers): boolean {
  const el = document.getElementById('toast')!;
  const now = h.isVisible(el);
  setTimeout(() => ((window as unknown as { later: boolean }).later = h.isVisible(el)), 50);
  return now;
}

describe('in-page helpers', () => {
  it('remember visibility within one look only (a callback after the look sees the page as it is then)', async () => {
    await withPage(`<div id="toast" style="display:none">Wrong password</div>`, async (page) => {
      expect(await runInFrame(page.mainFrame(), visibleNowAndLater, {}, nextScanId())).toBe(false);
      await page.evaluate(() => (document.getElementById('toast')!.style.display = 'block'));
      await expect.poll(() => page.evaluate(() => (window as unknown as { later?: boolean }).later)).toBe(true);
    });
  });
});
