import { randomBytes } from 'node:crypto';
import type { Frame } from 'playwright-core';
import { domHelpers, type DomHelpers } from './dom-helpers.js';
import { KEYWORDS } from './form-keywords.js';

/** Marker attribute put on elements the scanner selected, so Playwright locators can target them. */
export const MARK_ATTR = 'data-agent-studio-login';

export type InPageFn<A, R> = (args: A, h: DomHelpers) => R;

/**
 * The source evaluated in a frame, a function of `{ scanId, args }`: the helper library, then the
 * script, both from their `toString()`. The `__name` shim neutralizes the helper that esbuild's
 * keepNames (used by tsx) injects into serialized functions. The source never changes, so V8
 * compiles the ~20 KB helper library once per document instead of on every look (3x faster).
 */
function pageFunctionSource<A, R>(fn: InPageFn<A, R>): string {
  return `(a) => {
  var __name = (f) => f;
  const h = (${domHelpers.toString()})(${JSON.stringify(KEYWORDS)}, ${JSON.stringify(MARK_ATTR)}, a.scanId);
  try {
    return (${fn.toString()})(a.args, h);
  } finally {
    h.endLook();
  }
}`;
}

type PageFunction = (a: { scanId: string; args: unknown }) => unknown;
const pageFunctions = new WeakMap<object, PageFunction>();

/**
 * Playwright sends `String(pageFunction)` to the page and calls it with the argument, so a stub
 * whose toString() is the built source is evaluated like a real function.
 */
function pageFunction<A, R>(fn: InPageFn<A, R>): PageFunction {
  let stub = pageFunctions.get(fn);
  if (!stub) {
    const source = pageFunctionSource(fn);
    stub = Object.assign(() => undefined, { toString: () => source });
    pageFunctions.set(fn, stub);
  }
  return stub;
}

export function markerSelector(id: string): string {
  return `[${MARK_ATTR}="${id}"]`;
}

/** Runs an in-page script; returns undefined if the frame navigated or detached meanwhile. */
export async function runInFrame<A, R>(
  frame: Frame,
  fn: InPageFn<A, R>,
  args: A,
  scanId: string,
): Promise<R | undefined> {
  try {
    return (await frame.evaluate(pageFunction(fn), { scanId, args: args as unknown })) as R;
  } catch {
    return undefined;
  }
}

/** Random ids so markers of different scans never collide. */
export function nextScanId(): string {
  return `s${randomBytes(5).toString('hex')}`;
}
