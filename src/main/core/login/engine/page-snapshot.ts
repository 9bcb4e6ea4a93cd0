import type { BrowserContext, Cookie, Page } from 'playwright-core';
import { isAuthCookie } from './auth-cookies.js';
import { scanPageSignals, type PageSignals, type SignalArgs } from './page-signals.js';
import { nextScanId, runInFrame } from './page-script.js';
import type { IndexedDBWriteLog } from './storage-watch.js';

/**
 * One look at the page for the outcome of a login: the signals of every frame merged, the context's
 * cookies, checksums of web storage and the IndexedDB records written so far. Two looks, before
 * and after a submit, tell what the submit changed.
 */
export interface Snapshot {
  url: string;
  signals: PageSignals;
  /** `${name}|${domain}|${path}` -> value; kept in memory only, never logged. */
  cookies: Map<string, { value: string; httpOnly: boolean }>;
  /** `${origin}|${area}|${key}` -> value length + checksum (values themselves are not kept). */
  storage: Map<string, string>;
  /** IndexedDB records written so far: 'database/store/key' -> epoch ms of the last write (names only). */
  indexedDBWrites: Map<string, number>;
  complete: boolean;
  /** document.readyState of the main frame. */
  readyState: string;
}

/** Where, beyond cookies and localStorage, the login put its session (captured even when not asked for). */
export type SessionStoredIn = 'sessionStorage' | 'indexedDB';

const AUTH_STORAGE = /token|auth|jwt|session|access|refresh|credential|id_?token|bearer|user/i;

/** What a look needs: the page, its context and (in the login engine) the IndexedDB write log. */
export interface SnapshotDeps {
  page: Page;
  context: BrowserContext;
  /** Texts of JS alert()/confirm() dialogs seen so far (old sites report errors that way). */
  dialogMessages?: () => string[];
  indexedDBWrites?: IndexedDBWriteLog;
}

export type CookieMap = Snapshot['cookies'];

export function cookieMap(cookies: readonly Cookie[]): CookieMap {
  const out: CookieMap = new Map();
  for (const c of cookies) out.set(`${c.name}|${c.domain}|${c.path}`, { value: c.value, httpOnly: c.httpOnly });
  return out;
}

/** Names of auth cookies (../auth-cookies.ts) that are new in `after` or have another value there (also used by interactive logins). */
export function changedAuthCookies(before: CookieMap, after: CookieMap): string[] {
  const out: string[] = [];
  for (const [key, c] of after) {
    const name = key.split('|')[0];
    const prev = before.get(key);
    if (prev && prev.value === c.value) continue;
    // A new HttpOnly cookie of any name counts; one that only changed its value needs an auth-like name.
    if (isAuthCookie(name, c.httpOnly && !prev)) out.push(name);
  }
  return out;
}

export async function takeSnapshot(deps: SnapshotDeps, watchMarker?: string): Promise<Snapshot> {
  const { page, context } = deps;
  const scanId = nextScanId();
  const frames = page.frames();
  const args: SignalArgs = { watchMarker };
  // One round trip per frame (signals, error observer, storage checksums), cookies in parallel.
  const [results, allCookies] = await Promise.all([
    Promise.all(frames.map((f) => runInFrame(f, scanPageSignals, args, scanId))),
    context.cookies().catch(() => []),
  ]);
  const merged: PageSignals = {
    url: page.url(),
    captcha: null,
    locked: null,
    botWall: null,
    otpInputs: 0,
    mfaText: null,
    messages: [],
    observed: [],
    loginPasswords: 0,
    watchedState: 'absent',
    watchedFormState: null,
    invalidFields: [],
    bodyTextLength: 0,
    readyState: 'loading',
    leavingSinceMs: null,
    bridge: false,
    stayPrompt: false,
    storage: [],
    signedInUi: null,
  };
  const rank = { absent: 0, hidden: 1, 'visible-empty': 2, 'visible-filled': 3 } as const;
  const storage = new Map<string, string>();
  for (const s of results) {
    if (!s) continue;
    merged.captcha ??= s.captcha;
    merged.signedInUi ??= s.signedInUi;
    merged.locked ??= s.locked;
    merged.botWall ??= s.botWall;
    merged.mfaText ??= s.mfaText;
    merged.otpInputs += s.otpInputs;
    merged.loginPasswords += s.loginPasswords;
    merged.messages.push(...s.messages);
    merged.observed.push(...s.observed);
    merged.invalidFields.push(...s.invalidFields);
    merged.bodyTextLength += s.bodyTextLength;
    if (rank[s.watchedState] > rank[merged.watchedState]) merged.watchedState = s.watchedState;
    merged.watchedFormState ??= s.watchedFormState;
    for (const [origin, key, sum, area] of s.storage) storage.set(`${origin}|${area}|${key}`, sum);
  }
  const cookies = cookieMap(allCookies);
  merged.observed.push(...(deps.dialogMessages?.() ?? []));
  const main = results[0];
  merged.readyState = main?.readyState ?? 'loading';
  merged.leavingSinceMs = main?.leavingSinceMs ?? null;
  merged.bridge = main?.bridge ?? false;
  merged.stayPrompt = main?.stayPrompt ?? true;
  return {
    url: page.url(),
    signals: merged,
    cookies,
    storage,
    indexedDBWrites: deps.indexedDBWrites?.snapshot() ?? new Map(),
    complete: main !== undefined,
    readyState: merged.readyState,
  };
}

/** Auth-looking web storage keys and IndexedDB records that are new or changed in `after`, and where they are. */
export function authStorageChanges(
  before: Snapshot,
  after: Snapshot,
): { names: string[]; storedIn: SessionStoredIn[] } {
  const names: string[] = [];
  const storedIn = new Set<SessionStoredIn>();
  for (const [key, sum] of after.storage) {
    const [, area, ...rest] = key.split('|');
    const name = rest.join('|');
    if (before.storage.get(key) === sum || !AUTH_STORAGE.test(name)) continue;
    names.push(area === 'session' ? `${name} (sessionStorage)` : name);
    if (area === 'session') storedIn.add('sessionStorage');
  }
  for (const [record, at] of after.indexedDBWrites) {
    if (before.indexedDBWrites.get(record) === at || !AUTH_STORAGE.test(record)) continue;
    names.push(`${record.split('/').slice(0, 2).join('/')} (IndexedDB)`);
    storedIn.add('indexedDB');
  }
  return { names, storedIn: [...storedIn] };
}
