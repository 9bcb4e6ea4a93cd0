// One layout and accessibility audit for the renderer's e2e tests: axe-core with every rule on (a violation of
// any impact fails), and "nothing reaches past the right edge" (WCAG 1.4.10 Reflow: no sideways scrolling of the
// page; a table or code block may scroll inside its own box, which clips what is past its edge).
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import type { Locator, Page } from 'playwright-core';

/** axe-core (a devDependency), injected into each frame that lacks it. */
const AXE = fs.readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

export interface AxeViolation {
  rule: string;
  nodes: string[];
}

/** The theme follows prefers-color-scheme (lib/theme.ts); waits until it applied and no colour is still fading. */
export async function setScheme(page: Page, scheme: 'light' | 'dark'): Promise<void> {
  await page.emulateMedia({ colorScheme: scheme });
  await page.waitForFunction((s) => document.documentElement.dataset.theme === s, scheme);
  await page.waitForFunction(
    () => !document.getAnimations().some((a) => a instanceof CSSTransition && a.playState === 'running'),
  );
}

/**
 * Screenshots to look at: the page at each size in light and dark, saved as `<dir>/<name>-<w>x<h>-<scheme>.png`,
 * scrolled to `show` and given `settle` (e.g. a live frame refitting) after each resize. Leaves 1280x800, light.
 */
export async function screenshotsAtSizes(
  page: Page,
  dir: string,
  name: string,
  sizes: readonly (readonly [number, number])[],
  opts: { show?: Locator; settle?: () => Promise<unknown> } = {},
): Promise<void> {
  for (const [width, height] of sizes) {
    await page.setViewportSize({ width, height });
    await opts.show?.scrollIntoViewIfNeeded();
    await opts.settle?.();
    for (const scheme of ['light', 'dark'] as const) {
      await setScheme(page, scheme);
      await page.screenshot({
        path: path.join(dir, `${name}-${width}x${height}-${scheme}.png`),
        animations: 'disabled',
      });
    }
  }
  await page.setViewportSize({ width: 1280, height: 800 });
  await setScheme(page, 'light');
}

/** axe-core's violations over the whole page, frames included (each frame gets its own copy of axe). */
export async function axeViolations(page: Page): Promise<AxeViolation[]> {
  for (const frame of page.frames()) {
    // A frame that cannot be evaluated (navigating, cross-origin and gone) is left to axe's own frame handling.
    if (!(await frame.evaluate(() => 'axe' in window).catch(() => true))) await frame.evaluate(AXE);
  }
  return page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run: (c: unknown, o: unknown) => Promise<unknown> } }).axe;
    const result = (await axe.run(document, { resultTypes: ['violations'] })) as {
      violations: { id: string; impact: string; nodes: { target: unknown[]; failureSummary: string }[] }[];
    };
    return result.violations.map((v) => ({
      rule: `${v.id} (${v.impact})`,
      nodes: v.nodes.map((n) => `${JSON.stringify(n.target)}: ${n.failureSummary}`),
    }));
  });
}

export interface Overflow {
  /** How far the page (or the scrolling content) scrolls sideways, in CSS px. */
  by: number;
  /** The first few elements whose box reaches past the viewport's right edge (and is not clipped by a box). */
  out: string[];
}

/**
 * What sticks out past the viewport's right edge. An element inside a box that clips or scrolls sideways (a table's
 * scroll region, a `pre`, a visually hidden label) is judged by that box, not by its own width.
 */
export function overflowsRight(page: Page, within = 'body'): Promise<Overflow> {
  return page.evaluate((selector) => {
    const root = document.querySelector<HTMLElement>(selector) ?? document.body;
    const edge = document.documentElement.clientWidth;
    const clippedBy = (el: Element | null): boolean => {
      for (let p = el?.parentElement ?? null; p && p !== document.body; p = p.parentElement) {
        // The page's own scroller: its sideways scrolling is the failure (counted in `by`), not a clip.
        if (p.id === 'main') continue;
        const style = getComputedStyle(p);
        if (style.overflowX !== 'visible' || style.clip !== 'auto') return true;
      }
      return false;
    };
    const describe = (el: Element) =>
      `${el.tagName.toLowerCase()}.${String(el.className).replace(/\s+/g, '.')} ` +
      `(right ${Math.round(el.getBoundingClientRect().right)} > ${edge}) "${(el.textContent ?? '').slice(0, 40)}"`;
    const past = [...root.querySelectorAll<HTMLElement>('*')].filter((el) => {
      const box = el.getBoundingClientRect();
      return box.width > 0 && box.right > edge + 0.5;
    });
    const out = past
      .filter((el) => !clippedBy(el) && getComputedStyle(el).clip === 'auto')
      .slice(0, 5)
      .map(describe);
    const scrollers = [document.documentElement, document.getElementById('main')].filter(
      (el): el is HTMLElement => !!el,
    );
    const by = Math.max(...scrollers.map((el) => el.scrollWidth - el.clientWidth));
    // The page scrolls but every box past the edge is in a clipping box: name the widest anyway, to find it.
    if (by > 0 && out.length === 0) {
      out.push(
        ...past
          .sort((a, b) => b.getBoundingClientRect().right - a.getBoundingClientRect().right)
          .slice(0, 3)
          .map((el) => `(in a clipping box) ${describe(el)}`),
      );
    }
    return { by, out };
  }, within);
}

/**
 * Controls whose accessible name does not start with the words they show (WCAG 2.5.3 Label in Name): a person
 * using voice control says what they see. Compared without case and punctuation; icon-only controls are skipped.
 */
export function namesNotStartingWithLabel(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const words = (s: string) =>
      s
        .toLowerCase()
        .replace(/[^\p{L}\p{N}]+/gu, ' ')
        .trim();
    return [...document.querySelectorAll<HTMLElement>('button[aria-label], a[aria-label], [role="button"][aria-label]')]
      .filter((el) => el.getClientRects().length > 0)
      .map((el) => ({ el, shown: words(el.innerText), name: words(el.getAttribute('aria-label') ?? '') }))
      .filter(({ shown, name }) => shown !== '' && !name.startsWith(shown))
      .map(({ el, shown }) => `"${shown}" is named "${el.getAttribute('aria-label')}"`);
  });
}

/**
 * Whether the element is where the eye is after it was brought into view: inside the content's scroller (below the
 * bar above it at narrow widths), with room kept from both edges (not flush with the window's bottom edge). One
 * taller than the view counts when its start is in view with that room.
 */
export function inViewBelowBar(target: Locator, room = 8): Promise<boolean> {
  return target.evaluate((el, gap) => {
    const view = (document.getElementById('main') ?? document.documentElement).getBoundingClientRect();
    const top = Math.max(view.top, 0);
    const bottom = Math.min(view.bottom, innerHeight);
    const box = el.getBoundingClientRect();
    if (box.height === 0 || box.top < top + gap) return false;
    return box.bottom <= bottom - gap || (box.height > bottom - top - 2 * gap && box.top < bottom - gap);
  }, room);
}

/**
 * Buttons (and button-like controls) smaller than 24x24 CSS px (WCAG 2.5.8 Target Size): a visible control a
 * person must hit. Links inside running text are exempt, as the criterion exempts them.
 */
export function smallTargets(page: Page): Promise<string[]> {
  return page.evaluate(() =>
    [...document.querySelectorAll<HTMLElement>('button, [role="button"], a[href]:not(p a, li > a:not(:only-child))')]
      .filter((el) => el.getClientRects().length > 0 && getComputedStyle(el).visibility !== 'hidden')
      .filter((el) => !el.closest('.sr-only'))
      .map((el) => ({ el, box: el.getBoundingClientRect() }))
      .filter(({ box }) => box.width > 1 && box.height > 1 && (box.width < 23.5 || box.height < 23.5))
      .slice(0, 5)
      .map(
        ({ el, box }) =>
          `${el.tagName.toLowerCase()} "${el.getAttribute('aria-label') ?? el.innerText.slice(0, 30)}" is ` +
          `${box.width.toFixed(1)}x${box.height.toFixed(1)} px`,
      ),
  );
}
