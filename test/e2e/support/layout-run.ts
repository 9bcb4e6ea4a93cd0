// The layout audit of the renderer's e2e tests as one run over a window: axe-core in light and dark at each audited
// size, nothing past the right edge there and at 320 px, names that start with their label, targets of 24x24 px,
// and a screenshot of each; findings collected and reported together at the end of a test.
import fs from 'node:fs';
import path from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { expect } from 'vitest';
import { axeViolations, namesNotStartingWithLabel, overflowsRight, setScheme, smallTargets } from './layout-audit.js';
import { nav } from './renderer-harness.js';

export const SHOTS = process.env.LAYOUT_SHOTS_DIR ?? path.resolve('test-results', 'layout');
/** Where axe runs (both schemes) and screenshots are taken. */
export const AUDITED: [number, number][] = [
  [1280, 800],
  [900, 700],
  [640, 480],
  [640, 400],
];
/** Reflow (WCAG 1.4.10): 320 CSS px wide, no sideways scrolling. */
export const NARROWEST: [number, number] = [320, 800];

/** Everything found, reported together at the end of each test (one failing rule does not hide the rest). */
let findings: string[] = [];

export function ensureShotsDir(): void {
  fs.mkdirSync(SHOTS, { recursive: true });
}

/**
 * The window as it stands, named `name`: axe in light and dark at each audited size, nothing past the right edge
 * there and at 320 px, a screenshot of each (scrolled to `show`). Findings are collected, not thrown.
 */
export async function audit(page: Page, name: string, show?: Locator) {
  for (const [width, height] of [...AUDITED, NARROWEST]) {
    await page.setViewportSize({ width, height });
    const audited = AUDITED.some(([w, hh]) => w === width && hh === height);
    for (const scheme of ['light', 'dark'] as const) {
      await setScheme(page, scheme);
      if (scheme === 'light' && width === 1280) {
        for (const m of await namesNotStartingWithLabel(page)) findings.push(`${name}: label not in name: ${m}`);
        for (const m of await smallTargets(page)) findings.push(`${name}: target under 24x24: ${m}`);
      }
      if (scheme === 'light') {
        const overflow = await overflowsRight(page);
        if (overflow.by > 0 || overflow.out.length) {
          findings.push(
            `${name} ${width}x${height}: past the right edge by ${overflow.by}: ${overflow.out.join('; ')}`,
          );
        }
      }
      if (!audited) continue;
      for (const v of await axeViolations(page)) {
        findings.push(`${name} ${width}x${height} ${scheme}: axe ${v.rule}: ${v.nodes.slice(0, 3).join(' | ')}`);
      }
      await show?.scrollIntoViewIfNeeded();
      await page.screenshot({
        path: path.join(SHOTS, `${name}-${width}x${height}-${scheme}.png`),
        animations: 'disabled',
      });
    }
  }
  await setScheme(page, 'light');
  await page.setViewportSize({ width: 1280, height: 800 });
}

export function report() {
  const found = findings;
  findings = [];
  expect(found).toEqual([]);
}

/** Opens a screen from the sidebar at 1280x800 (the menu is open there) and waits for its lists. */
export async function open(page: Page, name: string, heading = name) {
  await page.setViewportSize({ width: 1280, height: 800 });
  await nav(page, name).click();
  await page.getByRole('heading', { level: 1, name: heading }).waitFor();
  await expect.poll(() => page.locator('.loading').count()).toBe(0);
}
