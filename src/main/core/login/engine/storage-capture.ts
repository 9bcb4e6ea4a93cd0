import type { BrowserContext, Frame, Page } from 'playwright-core';
import type { StorageExtra } from '../../../../shared/login.schema.js';
import type { OriginStorage, SessionStorageState } from '../login-types.js';

type NameValue = { name: string; value: string };
type FrameStorage = { origin: string; items: NameValue[] };

/**
 * Captures cookies and localStorage, plus IndexedDB and sessionStorage when `include` asks for them.
 * playwright-core (>= 1.5x) `storageState()` reads the storage of open pages in place and visits
 * every other origin the context navigated to (any frame) with a blank, intercepted page. We add
 * what only live frames can show: localStorage of iframe origins that were never loaded top-level
 * (Chromium partitions third-party storage, so the re-visit would find it empty), anything the
 * re-visit failed to read, and sessionStorage, which belongs to a tab and dies with it (so it can
 * only be read from the pages still open, never by a re-visit).
 */
export async function captureStorageState(
  ctx: BrowserContext,
  page: Page,
  include: readonly StorageExtra[] = [],
): Promise<SessionStorageState> {
  const withIndexedDB = include.includes('indexedDB');
  // The login page first, so its values win over another tab's for the same origin.
  const frames = [page, ...ctx.pages().filter((p) => p !== page)].flatMap((p) => (p.isClosed() ? [] : p.frames()));
  // Independent reads: the context's state and each live frame's storage in parallel.
  const [{ state, indexedDBRead }, liveLocal, liveSession] = await Promise.all([
    withIndexedDB
      ? contextStateWithIndexedDB(ctx)
      : ctx.storageState().then((s) => ({ state: s, indexedDBRead: false })),
    Promise.all(page.frames().map((f) => readLiveStorage(f, 'localStorage'))),
    include.includes('sessionStorage') ? Promise.all(frames.map((f) => readLiveStorage(f, 'sessionStorage'))) : [],
  ]);
  const origins = new Map<string, OriginStorage>();
  for (const o of state.origins as OriginStorage[]) {
    if (!o.localStorage.length && !o.indexedDB?.length) continue;
    origins.set(o.origin, {
      origin: o.origin,
      localStorage: o.localStorage.map(({ name, value }) => ({ name, value })),
      ...(o.indexedDB ? { indexedDB: o.indexedDB } : {}),
    });
  }
  const entry = (origin: string): OriginStorage => {
    let o = origins.get(origin);
    if (!o) origins.set(origin, (o = { origin, localStorage: [] }));
    return o;
  };
  for (const live of liveLocal) {
    if (!live || !live.items.length || !/^https?:/.test(live.origin)) continue;
    const o = entry(live.origin);
    o.localStorage = mergeByName(o.localStorage, live.items);
  }
  for (const live of liveSession) {
    if (!live || !live.items.length || !/^https?:/.test(live.origin)) continue;
    const o = entry(live.origin);
    o.sessionStorage = mergeByName(o.sessionStorage ?? [], live.items);
  }
  // Asked-for fields are on every origin (empty where it has none), as Playwright does for IndexedDB;
  // IndexedDB that could not be read is left out everywhere rather than shown as empty.
  for (const o of origins.values()) {
    if (indexedDBRead) o.indexedDB ??= [];
    if (include.includes('sessionStorage')) o.sessionStorage ??= [];
  }
  return { cookies: state.cookies, origins: [...origins.values()] };
}

type ContextState = Awaited<ReturnType<BrowserContext['storageState']>>;

/**
 * The context's state with IndexedDB. A database Playwright cannot serialize fails the whole read:
 * the login still succeeded, so the session is returned without IndexedDB rather than lost.
 */
function contextStateWithIndexedDB(ctx: BrowserContext): Promise<{ state: ContextState; indexedDBRead: boolean }> {
  return ctx.storageState({ indexedDB: true }).then(
    (state) => ({ state, indexedDBRead: true }),
    async () => ({ state: await ctx.storageState(), indexedDBRead: false }),
  );
}

/** `base` plus the items of `more` whose names it lacks (the first reader of a name wins). */
function mergeByName(base: NameValue[], more: NameValue[]): NameValue[] {
  const names = new Set(base.map((x) => x.name));
  return [...base, ...more.filter((x) => !names.has(x.name))];
}

/** One storage area of one frame as it is now; null where it cannot be read (detached, opaque origin). */
function readLiveStorage(frame: Frame, area: 'localStorage' | 'sessionStorage'): Promise<FrameStorage | null> {
  return frame
    .evaluate((which) => {
      try {
        const storage = which === 'sessionStorage' ? sessionStorage : localStorage;
        const items: { name: string; value: string }[] = [];
        for (let i = 0; i < storage.length; i++) {
          const name = storage.key(i);
          if (name !== null) items.push({ name, value: storage.getItem(name) ?? '' });
        }
        return { origin: location.origin, items };
      } catch {
        return null;
      }
    }, area)
    .catch(() => null);
}
