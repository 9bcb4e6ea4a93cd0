// Playwright helper of the typed client: `import { newLoggedInContext } from 'agent-studio/client/playwright'`.
// Types only from playwright-core (the `playwright` package re-exports the same classes), so the
// client itself never loads a browser library.
import type { Browser, BrowserContext, BrowserContextOptions } from 'playwright-core';
import { createAgentStudioClient, type AgentStudioClient, type LoginInput } from './agent-studio-client.js';

export interface LoggedInContextOptions {
  /** Full http(s) URL of the site's login page. */
  domain: string;
  username: string;
  password: string;
  loginMethod?: LoginInput['loginMethod'];
  additionalFields?: LoginInput['additionalFields'];
  /** Reuse the cached session when it is still fresh (default true, as the API). */
  useCache?: boolean;
  /** A client to log in with; or `apiKey` (and `baseUrl`) to make one. */
  client?: AgentStudioClient;
  apiKey?: string;
  baseUrl?: string;
  /** More options of the new context (viewport, userAgent…); storageState is set from the login. */
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
  const { domain, username, password, loginMethod, additionalFields, useCache, contextOptions } = options;
  let client = options.client;
  if (!client) {
    if (!options.apiKey) throw new TypeError('newLoggedInContext: pass `client` or `apiKey`');
    client = createAgentStudioClient({ apiKey: options.apiKey, baseUrl: options.baseUrl });
  }
  const storageState = await client.login({
    cred: { username, password },
    domain,
    loginMethod,
    additionalFields,
    useCache,
  });
  return browser.newContext({ ...contextOptions, storageState });
}
