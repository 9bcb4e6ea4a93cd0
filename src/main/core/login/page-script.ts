import { randomBytes } from 'node:crypto';
import type { Frame } from 'playwright-core';
import { domHelpers, type DomHelpers } from './dom-helpers.js';
import { KEYWORDS } from './form-keywords.js';

/** Marker attribute put on elements the scanner selected, so Playwright locators can target them. */
export const MARK_ATTR = 'data-agent-studio-login';

export type InPageFn<A, R> = (args: A, h: DomHelpers) => R;

/**
 * Builds the source evaluated in a frame: the helper library, then the script, both from their
 * `toString()`. The `__name` shim neutralizes the helper that esbuild's keepNames (used by tsx)
 * injects into serialized functions.
 */
export function buildPageScript<A, R>(fn: InPageFn<A, R>, args: A, scanId: string): string {
  return `(() => {
  var __name = (f) => f;
  const h = (${domHelpers.toString()})(${JSON.stringify(KEYWORDS)}, ${JSON.stringify(MARK_ATTR)}, ${JSON.stringify(scanId)});
  return (${fn.toString()})(${JSON.stringify(args)}, h);
})()`;
}

export function markerSelector(id: string): string {
  return `[${MARK_ATTR}="${id}"]`;
}

/** Runs an in-page script; returns undefined if the frame navigated or detached meanwhile. */
export async function runInFrame<A, R>(frame: Frame, fn: InPageFn<A, R>, args: A, scanId: string): Promise<R | undefined> {
  try {
    return (await frame.evaluate(buildPageScript(fn, args, scanId))) as R;
  } catch {
    return undefined;
  }
}

/** Random ids so markers of different scans never collide. */
export function nextScanId(): string {
  return `s${randomBytes(5).toString('hex')}`;
}
