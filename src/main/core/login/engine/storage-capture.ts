import type { BrowserContext, Frame, Page } from 'playwright-core';
import type { OriginStorage, SessionStorageState } from '../login-types.js';

/**
 * Captures cookies and localStorage. playwright-core (>= 1.5x) `storageState()` reads localStorage
 * of open pages in place and visits every other origin the context navigated to (any frame) with
 * a blank, intercepted page. We add what only live frames can show: localStorage of iframe
 * origins that were never loaded top-level (Chromium partitions third-party storage, so the
 * re-visit would find it empty) and anything the re-visit failed to read.
 */
export async function captureStorageState(ctx: BrowserContext, page: Page): Promise<SessionStorageState> {
  // Independent reads: the context's state and each live frame's localStorage in parallel.
  const [state, liveFrames] = await Promise.all([ctx.storageState(), Promise.all(page.frames().map(readLiveStorage))]);
  const origins = new Map<string, OriginStorage>();
  for (const o of state.origins) {
    if (o.localStorage.length)
      origins.set(o.origin, {
        origin: o.origin,
        localStorage: o.localStorage.map(({ name, value }) => ({ name, value })),
      });
  }
  for (const live of liveFrames) {
    if (!live || !live.items.length || !/^https?:/.test(live.origin)) continue;
    const existing = origins.get(live.origin);
    if (!existing) {
      origins.set(live.origin, { origin: live.origin, localStorage: live.items });
      continue;
    }
    const names = new Set(existing.localStorage.map((x) => x.name));
    for (const item of live.items) if (!names.has(item.name)) existing.localStorage.push(item);
  }
  return { cookies: state.cookies, origins: [...origins.values()] };
}

/** localStorage of one frame as it is now; null where it cannot be read (detached, opaque origin). */
function readLiveStorage(frame: Frame): Promise<{ origin: string; items: { name: string; value: string }[] } | null> {
  return frame
    .evaluate(() => {
      try {
        const items: { name: string; value: string }[] = [];
        for (let i = 0; i < localStorage.length; i++) {
          const name = localStorage.key(i);
          if (name !== null) items.push({ name, value: localStorage.getItem(name) ?? '' });
        }
        return { origin: location.origin, items };
      } catch {
        return null;
      }
    })
    .catch(() => null);
}
