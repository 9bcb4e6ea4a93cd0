// Playwright helper of the typed client: `import { newLoggedInContext } from 'agent-studio/client/playwright'`.
// Types only from playwright-core (the `playwright` package re-exports the same classes), so the
// client itself never loads a browser library.
import type { Browser, BrowserContext, BrowserContextOptions } from 'playwright-core';
import type { StorageState } from '../shared/login.schema.js';
import { createAgentStudioClient, type AgentStudioClient, type LoginInput } from './agent-studio-client.js';

export interface LoggedInContextOptions {
  /**
   * A saved login (its label or id): the server types its secrets and this code never holds them. Else give
   * `domain`, `username` and `password`.
   */
  credential?: string;
  /** Full http(s) URL of the site's login page (with `credential`: default its login page). */
  domain?: string;
  username?: string;
  password?: string;
  loginMethod?: LoginInput['loginMethod'];
  additionalFields?: LoginInput['additionalFields'];
  /** Reuse the cached session when it is still fresh (default true, as the API). */
  useCache?: boolean;
  /**
   * Also capture IndexedDB and/or sessionStorage (docs/login-service.md#full-storage). The new context gets both:
   * IndexedDB through `storageState`, sessionStorage through `applySessionStorage`.
   */
  include?: LoginInput['include'];
  /** A client to log in with; or `apiKey` (and `baseUrl`) to make one. */
  client?: AgentStudioClient;
  apiKey?: string;
  baseUrl?: string;
  /** Which browser logs in (docs/login-service.md#bot-walls): `{ mode: 'headed' }` for a site that refuses headless browsers. */
  browser?: LoginInput['browser'];
  /**
   * More options of the new context (viewport…); storageState is set from the login. The login browser's userAgent,
   * locale and timezoneId (the state's `browser`) are applied unless given here.
   */
  contextOptions?: Omit<BrowserContextOptions, 'storageState'>;
}

/**
 * Logs in through Agent Studio (POST /api/login) and opens a new browser context holding that session:
 * the agent's pages in it start logged in. Close the context when done.
 */
export async function newLoggedInContext(
  browser: Pick<Browser, 'newContext'>,
  options: LoggedInContextOptions,
): Promise<BrowserContext> {
  const {
    credential,
    domain,
    username,
    password,
    loginMethod,
    additionalFields,
    useCache,
    include,
    browser: loginBrowser,
    contextOptions,
  } = options;
  let client = options.client;
  if (!client) {
    if (!options.apiKey) throw new TypeError('newLoggedInContext: pass `client` or `apiKey`');
    client = createAgentStudioClient({ apiKey: options.apiKey, baseUrl: options.baseUrl });
  }
  const common = { additionalFields, useCache, include, ...(loginBrowser ? { browser: loginBrowser } : {}) };
  let body: LoginInput;
  if (credential !== undefined) body = { credential, domain, ...common };
  else if (domain === undefined || password === undefined)
    throw new TypeError(
      'newLoggedInContext: pass `credential` (a saved login), or `domain`, `username` and `password`',
    );
  else body = { cred: { username: username ?? '', password }, domain, loginMethod, ...common };
  const storageState = await client.login(body);
  const context = await browser.newContext({ ...presentedAs(storageState), ...contextOptions, storageState });
  try {
    await applySessionStorage(context, storageState);
  } catch (err) {
    await context.close().catch(() => {});
    throw err;
  }
  return context;
}

/**
 * The context options that make an agent's pages present what the login browser did (user agent, language, time
 * zone): a site may tie the session to them. Empty for a state without `browser` (imported, or cached by an older
 * server). Useful on its own: `browser.newContext({ ...presentedAs(state), storageState: state })`.
 */
export function presentedAs(
  state: Pick<StorageState, 'browser'>,
): Pick<BrowserContextOptions, 'userAgent' | 'locale' | 'timezoneId'> {
  if (!state.browser) return {};
  const { userAgent, locale, timezoneId } = state.browser;
  return { userAgent, locale, timezoneId };
}

/**
 * Restores the sessionStorage of a login's state (`include: ["sessionStorage"]`), which Playwright's
 * `storageState` does not carry: an init script writes it before the site's own scripts run, in every
 * new tab (and frame) of `context` whose origin has some, once per tab: only while that tab's
 * sessionStorage is still empty, so what the site writes later (a refreshed token) is not overwritten
 * on the next navigation. A state without sessionStorage adds nothing.
 */
export async function applySessionStorage(
  context: Pick<BrowserContext, 'addInitScript'>,
  state: Pick<StorageState, 'origins'>,
): Promise<void> {
  // Only origin and sessionStorage go into the pages' script: never cookies or other origins' storage.
  const saved = state.origins
    .filter((o) => o.sessionStorage?.length)
    .map(({ origin, sessionStorage }) => ({ origin, sessionStorage: sessionStorage! }));
  if (!saved.length) return;
  await context.addInitScript(restoreSessionStorage, saved);
}

/** Runs in the page (serialized by Playwright): it may use nothing from this module. */
function restoreSessionStorage(saved: { origin: string; sessionStorage: { name: string; value: string }[] }[]): void {
  const mine = saved.find((o) => o.origin === location.origin);
  if (!mine) return;
  try {
    if (sessionStorage.length) return; // restored before in this tab, or written by the site since
    for (const { name, value } of mine.sessionStorage) sessionStorage.setItem(name, value);
  } catch {
    // storage disabled for this frame (sandboxed, opaque): nothing to restore into
  }
}
