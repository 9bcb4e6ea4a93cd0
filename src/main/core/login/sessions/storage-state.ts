import {
  STORAGE_EXTRAS,
  type IndexedDBDatabase,
  type StorageExtra,
  type StorageState,
} from '../../../../shared/login.schema.js';

type NameValue = { name: string; value: string };
type IndexedDBStore = IndexedDBDatabase['stores'][number];
type IndexedDBRecord = IndexedDBStore['records'][number];

/** The request's `include`, without repeats and in one order (so it can take part in keys). */
export function normalizeInclude(include: readonly StorageExtra[] | undefined): StorageExtra[] {
  return STORAGE_EXTRAS.filter((x) => include?.includes(x));
}

/** Whether a session captured with `captured` holds everything a request with `wanted` asks for. */
export function coversInclude(captured: readonly StorageExtra[], wanted: readonly StorageExtra[]): boolean {
  return wanted.every((x) => captured.includes(x));
}

/**
 * Exactly Playwright's storageState shape: drops any extra field a newer Playwright may add, and the
 * IndexedDB and sessionStorage of origins unless `include` asks for them (a cached session captured
 * with more is served to a request that asks for less). The one field of ours, `browser` (what the login
 * browser presented), is kept when the state has it.
 */
export function normalizeState(s: StorageState, include: readonly StorageExtra[] = []): StorageState {
  const withIndexedDB = include.includes('indexedDB');
  const withSessionStorage = include.includes('sessionStorage');
  return {
    cookies: s.cookies.map((c) => ({
      name: c.name,
      value: c.value,
      domain: c.domain,
      path: c.path,
      expires: c.expires,
      httpOnly: c.httpOnly,
      secure: c.secure,
      sameSite: c.sameSite,
    })),
    origins: s.origins
      .map((o) => ({
        origin: o.origin,
        localStorage: nameValues(o.localStorage),
        ...(withIndexedDB && o.indexedDB ? { indexedDB: o.indexedDB.map(database) } : {}),
        ...(withSessionStorage && o.sessionStorage ? { sessionStorage: nameValues(o.sessionStorage) } : {}),
      }))
      // An origin kept only for storage that was not asked for is not part of the answer.
      .filter((o) => o.localStorage.length || o.indexedDB || o.sessionStorage),
    ...(s.browser
      ? { browser: { userAgent: s.browser.userAgent, locale: s.browser.locale, timezoneId: s.browser.timezoneId } }
      : {}),
  };
}

function nameValues(items: NameValue[]): NameValue[] {
  return items.map(({ name, value }) => ({ name, value }));
}

/** Optional fields copied only when present: Playwright tells `key` from `keyEncoded` by which one exists. */
function pick<T extends object, K extends keyof T>(from: T, keys: readonly K[]): Pick<T, K> {
  const out = {} as Pick<T, K>;
  for (const k of keys) if (k in from && from[k] !== undefined) out[k] = from[k];
  return out;
}

function database(db: IndexedDBDatabase): IndexedDBDatabase {
  return { name: db.name, version: db.version, stores: db.stores.map(store) };
}

function store(st: IndexedDBStore): IndexedDBStore {
  return {
    name: st.name,
    autoIncrement: st.autoIncrement,
    ...pick(st, ['keyPath', 'keyPathArray']),
    records: st.records.map((r): IndexedDBRecord => pick(r, ['key', 'keyEncoded', 'value', 'valueEncoded'])),
    indexes: st.indexes.map((ix) => ({
      name: ix.name,
      ...pick(ix, ['keyPath', 'keyPathArray']),
      multiEntry: ix.multiEntry,
      unique: ix.unique,
    })),
  };
}
