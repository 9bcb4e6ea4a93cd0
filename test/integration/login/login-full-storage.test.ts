/**
 * Full storage (docs/login-service.md#full-storage): `include: ["indexedDB", "sessionStorage"]` on POST /api/login.
 * Two fixture sites keep their session where a plain storageState does not reach (IndexedDB, Firebase
 * style; sessionStorage, MSAL style). Hand-written scripts first prove each site, then the API logs in
 * and a NEW browser context restored from the answer — with `newContext({ storageState })`, the docs'
 * init-script snippet or the typed client's helpers — opens the protected page logged in.
 */
import fs from 'node:fs';
import type { Browser, BrowserContext } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAgentStudioClient } from '../../../src/client/index.js';
import { applySessionStorage, newLoggedInContext } from '../../../src/client/playwright.js';
import { McpFileAccess } from '../../../src/main/core/mcp/mcp-files.js';
import { saveStorageState } from '../../../src/main/core/mcp/mcp-state-file.js';
import type { StorageState } from '../../../src/shared/login.schema.js';
import {
  INDEXEDDB_SESSION_DB,
  INDEXEDDB_SESSION_KEY,
  INDEXEDDB_SESSION_STORE,
  SESSION_STORAGE_INDEX_KEY,
  startSite,
  type FixtureSite,
} from '../../fixtures/sites/index.js';
import { launchTestBrowser } from '../../helpers/browser.js';
import { startTestServer, tempDir, type TestServer } from '../../helpers/test-server.js';

const SIGNED_OUT = 'Please sign in';
let t: TestServer;
let browser: Browser;
let idbSite: FixtureSite;
let sessionSite: FixtureSite;

beforeAll(async () => {
  [t, browser, idbSite, sessionSite] = await Promise.all([
    startTestServer({ login: { timeoutMs: 30_000 } }),
    launchTestBrowser(),
    startSite('indexeddb-session'),
    startSite('session-storage'),
  ]);
});
afterAll(async () => {
  await Promise.all([browser?.close(), idbSite?.close(), sessionSite?.close()]);
  await t?.close();
});

/**
 * Opens the protected page in a new tab of `context` and waits for the app to decide: its logged-in
 * text or its sign-in prompt (both sites render one of them once their storage has been read).
 */
async function protectedPageShows(context: BrowserContext, site: FixtureSite): Promise<'logged-in' | 'signed-out'> {
  const page = await context.newPage();
  try {
    await page.goto(site.protectedUrl);
    const loggedIn = page.getByText(site.loggedInText);
    await loggedIn.or(page.getByText(SIGNED_OUT)).first().waitFor({ timeout: 10_000 });
    return (await loggedIn.count()) ? 'logged-in' : 'signed-out';
  } finally {
    await page.close();
  }
}

async function withContext<T>(fn: (ctx: BrowserContext) => Promise<T>, state?: StorageState): Promise<T> {
  const ctx = await browser.newContext(state ? { storageState: state as never } : {});
  ctx.setDefaultTimeout(10_000);
  try {
    return await fn(ctx);
  } finally {
    await ctx.close();
  }
}

async function login(site: FixtureSite, over: Record<string, unknown> = {}) {
  const res = await t.request('/api/login', {
    method: 'POST',
    json: { cred: site.credentials, domain: site.loginUrl, ...over },
  });
  return { res, body: (await res.json()) as StorageState & Record<string, unknown> };
}

const originOf = (state: StorageState, site: FixtureSite) => state.origins.find((o) => o.origin === site.origin);

/** The snippet of docs/login-service.md#full-storage, verbatim: restore sessionStorage with an init script. */
async function readmeSnippet(browserArg: Browser, state: StorageState): Promise<BrowserContext> {
  const ctx = await browserArg.newContext({ storageState: state });
  await ctx.addInitScript(
    (origins) => {
      const saved = origins.find((o) => o.origin === location.origin)?.sessionStorage;
      if (!saved || sessionStorage.length) return; // once per tab: never overwrite what the site wrote since
      for (const { name, value } of saved) sessionStorage.setItem(name, value);
    },
    state.origins.map(({ origin, sessionStorage }) => ({ origin, sessionStorage })),
  );
  return ctx;
}

describe('the fixture sites, by hand', () => {
  it('indexeddb-session keeps the session in IndexedDB only; Playwright restores it with { indexedDB: true }', async () => {
    const site = await startSite('indexeddb-session');
    try {
      await withContext(async (ctx) => {
        const page = await ctx.newPage();
        await page.goto(site.loginUrl);
        await page.fill('#email', site.credentials.username);
        await page.fill('#password', 'not the password');
        await page.click('button[type=submit]');
        await page.getByRole('alert').filter({ hasText: 'Incorrect email or password.' }).waitFor();
        await page.fill('#password', site.credentials.password);
        await page.click('button[type=submit]');
        await page.waitForURL(site.protectedUrl);
        await page.getByText(site.loggedInText).waitFor();
        expect(site.stats()).toEqual({ loginAttempts: 2, successfulLogins: 1 });
        expect(await ctx.cookies()).toEqual([]);
        expect(await page.evaluate(() => localStorage.length)).toBe(0);
        const record = await page.evaluate(
          ([db, store, key]) =>
            new Promise<unknown>((resolve) => {
              const open = indexedDB.open(db!);
              open.onsuccess = () => {
                const get = open.result.transaction(store!).objectStore(store!).get(key!);
                get.onsuccess = () => resolve(get.result);
              };
            }),
          [INDEXEDDB_SESSION_DB, INDEXEDDB_SESSION_STORE, INDEXEDDB_SESSION_KEY],
        );
        expect(record).toMatchObject({ fbase_key: INDEXEDDB_SESSION_KEY, value: { email: site.credentials.username } });

        const plain = await ctx.storageState();
        const full = await ctx.storageState({ indexedDB: true });
        expect(await withContext((c) => protectedPageShows(c, site), plain)).toBe('signed-out');
        expect(await withContext((c) => protectedPageShows(c, site), full)).toBe('logged-in');
      });
    } finally {
      await site.close();
    }
  });

  it('session-storage keeps the session in the tab: another tab of the same context is signed out', async () => {
    const site = await startSite('session-storage');
    try {
      await withContext(async (ctx) => {
        const page = await ctx.newPage();
        await page.goto(site.loginUrl);
        await page.fill('#username', site.credentials.username);
        await page.fill('#password', 'not the password');
        await page.click('button[type=submit]');
        await page.getByRole('alert').filter({ hasText: 'Your account or password is incorrect.' }).waitFor();
        await page.fill('#password', site.credentials.password);
        await page.click('button[type=submit]');
        await page.waitForURL(site.protectedUrl);
        await page.getByText(site.loggedInText).waitFor();
        await page.reload(); // survives a reload in the same tab
        await page.getByText(site.loggedInText).waitFor();
        expect(site.stats()).toEqual({ loginAttempts: 2, successfulLogins: 1 });
        expect(await ctx.cookies()).toEqual([]);
        expect(await page.evaluate(() => localStorage.length)).toBe(0);
        expect(await page.evaluate((k) => sessionStorage.getItem(k), SESSION_STORAGE_INDEX_KEY)).toContain(
          'accessToken',
        );
        expect(await protectedPageShows(ctx, site)).toBe('signed-out');
      });
    } finally {
      await site.close();
    }
  });
});

describe('POST /api/login with include', () => {
  it('indexedDB: origins[].indexedDB in Playwright format; newContext({ storageState }) is logged in', async () => {
    const { res, body } = await login(idbSite, { useCache: false, include: ['indexedDB'] });
    expect(res.status, JSON.stringify(body)).toBe(200);
    expect(Object.keys(body).sort()).toEqual(['browser', 'cookies', 'origins']);
    const origin = originOf(body, idbSite)!;
    expect(Object.keys(origin).sort()).toEqual(['indexedDB', 'localStorage', 'origin']);
    const db = origin.indexedDB!.find((d) => d.name === INDEXEDDB_SESSION_DB)!;
    expect(db).toMatchObject({ version: 1, stores: [{ name: INDEXEDDB_SESSION_STORE, keyPath: 'fbase_key' }] });
    expect(db.stores[0]!.records).toHaveLength(1);
    // lastLoginAt is a Date: Playwright's encoded form, which the restore turns back into a Date.
    expect(db.stores[0]!.records[0]).toHaveProperty('valueEncoded');
    expect(await withContext((c) => protectedPageShows(c, idbSite), body)).toBe('logged-in');
  });

  it('sessionStorage: origins[].sessionStorage; the docs snippet and the client helper restore it', async () => {
    const { res, body } = await login(sessionSite, { useCache: false, include: ['sessionStorage'] });
    expect(res.status, JSON.stringify(body)).toBe(200);
    const origin = originOf(body, sessionSite)!;
    expect(Object.keys(origin).sort()).toEqual(['localStorage', 'origin', 'sessionStorage']);
    expect(origin.localStorage).toEqual([]);
    expect(origin.sessionStorage!.map((x) => x.name)).toContain(SESSION_STORAGE_INDEX_KEY);
    expect(origin.sessionStorage).toHaveLength(2); // the index and the access-token entry

    // Playwright accepts the extra field unchanged, and ignores it: not logged in without the init script.
    expect(await withContext((c) => protectedPageShows(c, sessionSite), body)).toBe('signed-out');

    const viaSnippet = await readmeSnippet(browser, body);
    try {
      expect(await protectedPageShows(viaSnippet, sessionSite)).toBe('logged-in');
      expect(await protectedPageShows(viaSnippet, sessionSite)).toBe('logged-in'); // every new tab
    } finally {
      await viaSnippet.close();
    }
    await withContext(async (ctx) => {
      await applySessionStorage(ctx, body);
      expect(await protectedPageShows(ctx, sessionSite)).toBe('logged-in');
    }, body);
  });

  it('the restore runs once per tab: what the site writes later is not overwritten on the next navigation', async () => {
    const { body } = await login(sessionSite, { include: ['sessionStorage'] });
    await withContext(async (ctx) => {
      await applySessionStorage(ctx, body);
      const page = await ctx.newPage();
      await page.goto(sessionSite.protectedUrl);
      await page.getByText(sessionSite.loggedInText).waitFor();
      // The site rewrites its token index (as a token refresh would); here to one naming no token.
      const rewritten = '{"idToken":[],"accessToken":["none"],"refreshToken":[]}';
      await page.evaluate(([k, v]) => sessionStorage.setItem(k!, v!), [SESSION_STORAGE_INDEX_KEY, rewritten]);
      await page.goto(sessionSite.protectedUrl);
      await page.getByText(SIGNED_OUT).waitFor(); // restoring again would have logged it back in
      expect(await page.evaluate((k) => sessionStorage.getItem(k), SESSION_STORAGE_INDEX_KEY)).toBe(rewritten);
    }, body);
  });

  it('without include, the storage the session lives in is captured anyway; the state works as returned', async () => {
    const idb = await login(idbSite, { useCache: false });
    expect(idb.res.status, JSON.stringify(idb.body)).toBe(200);
    const idbOrigin = originOf(idb.body, idbSite)!;
    expect(Object.keys(idbOrigin).sort()).toEqual(['indexedDB', 'localStorage', 'origin']);
    expect(idbOrigin.indexedDB!.map((d) => d.name)).toContain(INDEXEDDB_SESSION_DB);
    expect(await withContext((c) => protectedPageShows(c, idbSite), idb.body)).toBe('logged-in');

    const tab = await login(sessionSite, { useCache: false });
    expect(tab.res.status, JSON.stringify(tab.body)).toBe(200);
    const tabOrigin = originOf(tab.body, sessionSite)!;
    expect(Object.keys(tabOrigin).sort()).toEqual(['localStorage', 'origin', 'sessionStorage']);
    await withContext(async (ctx) => {
      await applySessionStorage(ctx, tab.body);
      expect(await protectedPageShows(ctx, sessionSite)).toBe('logged-in');
    }, tab.body);
  });

  it('a site whose session is in cookies gets no IndexedDB or sessionStorage it did not ask for', async () => {
    const site = await startSite('classic-csrf');
    try {
      const { res, body } = await login(site, { useCache: false });
      expect(res.status, JSON.stringify(body)).toBe(200);
      for (const o of body.origins) expect(Object.keys(o).sort()).toEqual(['localStorage', 'origin']);
    } finally {
      await site.close();
    }
  });

  it('the cache serves an entry only to requests whose include it was captured with', async () => {
    const site = await startSite('session-storage');
    try {
      const first = await login(site, { useCache: false });
      expect(first.res.headers.get('x-session-cache')).toBe('miss');
      // The session lives in sessionStorage: captured without being asked, and returned on every hit.
      expect(originOf(first.body, site)!.sessionStorage).toHaveLength(2);
      const asked = await login(site, { include: ['sessionStorage'] });
      expect(asked.res.headers.get('x-session-cache')).toBe('hit');
      expect(asked.body).toEqual(first.body);
      const less = await login(site);
      expect(less.res.headers.get('x-session-cache')).toBe('hit');
      expect(less.body).toEqual(first.body);
      expect(site.stats().successfulLogins).toBe(1);
      // It was not captured with IndexedDB: that request logs in again.
      const idb = await login(site, { include: ['indexedDB', 'sessionStorage'] });
      expect(idb.res.headers.get('x-session-cache')).toBe('miss');
      expect(Object.keys(originOf(idb.body, site)!).sort()).toEqual([
        'indexedDB',
        'localStorage',
        'origin',
        'sessionStorage',
      ]);
      expect(site.stats().successfulLogins).toBe(2);
    } finally {
      await site.close();
    }
  });

  it('an unknown include value is a 400 INVALID_REQUEST', async () => {
    const { res, body } = await login(idbSite, { include: ['cookies'] });
    expect(res.status).toBe(400);
    expect(body).toMatchObject({ error: 'INVALID_REQUEST' });
    expect(String(body.message)).toContain('include');
  });
});

describe('clients of the full state', () => {
  it('newLoggedInContext with include restores IndexedDB and sessionStorage through the typed client', async () => {
    const client = createAgentStudioClient({ baseUrl: t.url, apiKey: t.key });
    for (const site of [idbSite, sessionSite]) {
      const context = await newLoggedInContext(browser, {
        client,
        domain: site.loginUrl,
        username: site.credentials.username,
        password: site.credentials.password,
        include: ['indexedDB', 'sessionStorage'],
      });
      try {
        expect(await protectedPageShows(context, site)).toBe('logged-in');
      } finally {
        await context.close();
      }
    }
  });

  it('the MCP state file keeps the extra fields, and loads back into a logged-in context', async () => {
    const { body } = await login(idbSite, { include: ['indexedDB', 'sessionStorage'] });
    const files = new McpFileAccess({ folder: tempDir(), dataDir: tempDir(), scopes: () => ['*'] });
    const file = await saveStorageState(files, 'state.json', body, false);
    expect(JSON.parse(fs.readFileSync(file, 'utf8'))).toEqual(body);
    const ctx = await browser.newContext({ storageState: file });
    try {
      expect(await protectedPageShows(ctx, idbSite)).toBe('logged-in');
    } finally {
      await ctx.close();
    }
  });
});
