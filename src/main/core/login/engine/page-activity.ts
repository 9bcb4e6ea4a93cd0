import type { Page } from 'playwright-core';
import type { DomHelpers } from './dom-helpers.js';
import { nextScanId, runInFrame } from './page-script.js';

/**
 * Init script (runs at the start of every document): records when elements were last added to or
 * removed from the main document, so the engine can tell a page that is still rendering (an app
 * shell booting, a dialog about to open) from one that has settled. Text-only and attribute
 * changes (clocks, carousels, CSS animations) do not count. It also records when the main thread
 * was last busy with a long task (script parsing and running, >= 50 ms): a heavy app boots with
 * no network and no DOM change at all for a second or more, then renders its login.
 */
export const DOM_WATCH_SCRIPT = `(() => {
  try {
    if (window.top !== window) return;
    let at = Date.now();
    let longTaskAt = 0;
    try {
      new PerformanceObserver((list) => {
        for (const e of list.getEntries()) longTaskAt = Math.max(longTaskAt, performance.timeOrigin + e.startTime + e.duration);
      }).observe({ type: 'longtask', buffered: true });
    } catch {}
    Object.defineProperty(window, '__agentStudioLongTaskAt', { get: () => longTaskAt, configurable: true });
    const elementNode = (n) => n.nodeType === 1;
    new MutationObserver((records) => {
      for (const r of records) {
        if (Array.prototype.some.call(r.addedNodes, elementNode) || Array.prototype.some.call(r.removedNodes, elementNode)) {
          at = Date.now();
          return;
        }
      }
    }).observe(document, { childList: true, subtree: true });
    Object.defineProperty(window, '__agentStudioDomChangedAt', { get: () => at, configurable: true });
  } catch {}
})();`;

export interface PageActivityState {
  /** Epoch ms of the last element added or removed (0 when unknown: the init script did not run). */
  domChangedAt: number;
  /** Epoch ms the main thread's last long task ended (0: none seen). */
  longTaskAt: number;
  /** What the page shows says it is not ready: a spinner, `aria-busy`, a progress bar, an empty app root. */
  busy: string | null;
}

/** In-page: reads the DOM-change time and whether the page visibly is still loading. */
export function readPageActivity(_args: Record<string, never>, h: DomHelpers): PageActivityState {
  const win = window as unknown as Record<string, unknown>;
  const domChangedAt = typeof win['__agentStudioDomChangedAt'] === 'number' ? win['__agentStudioDomChangedAt'] : 0;
  const longTaskAt = typeof win['__agentStudioLongTaskAt'] === 'number' ? win['__agentStudioLongTaskAt'] : 0;
  let busy: string | null = null;
  const indicator = Array.from(
    document.querySelectorAll(
      '[aria-busy=true],[role=progressbar],[class*=spinner i],[class*=loader i],[class*=skeleton i],[id*=spinner i],[id*=loader i]',
    ),
  ).find((el) => h.isVisible(el));
  if (indicator) busy = `loading indicator '${h.collapse(indicator.getAttribute('class') || indicator.tagName, 40)}'`;
  else if (document.body && !h.collapse(document.body.innerText, 10) && document.querySelector('script'))
    busy = 'empty app shell';
  return { domChangedAt, longTaskAt, busy };
}

/** Whether the page has stopped rendering, from the main frame's point of view. */
export async function pageActivity(page: Page): Promise<PageActivityState> {
  const state = await runInFrame(page.mainFrame(), readPageActivity, {}, nextScanId());
  return state ?? { domChangedAt: Date.now(), longTaskAt: 0, busy: 'page is navigating' };
}

/** When the page last changed or worked: an element added or removed, or a long task on its main thread. */
export function lastActiveAt(state: PageActivityState): number {
  return Math.max(state.domChangedAt, state.longTaskAt);
}
