// GET /docs: the API reference page (Scalar's, rendered from the route table's OpenAPI document) on a real server,
// read without a key, then opened in a real Chromium that may reach nothing but this server: every request the page
// makes is seen, and one to any other host fails the test (and is never sent).
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_ROUTES } from '../../../src/shared/api/index.js';
import { launchTestBrowser } from '../../helpers/browser.js';
import { httpRequest, rawHttp } from '../../helpers/raw-http.js';
import { startTestServer, type TestServer } from '../../helpers/test-server.js';

const DOCS = API_ROUTES.apiReference.path;

let t: TestServer;
let browser: Browser;

beforeAll(async () => {
  t = await startTestServer();
  browser = await launchTestBrowser();
});
afterAll(async () => {
  await browser?.close();
  await t?.close();
});

/** Directives of a Content-Security-Policy header, by name. */
const directives = (csp: string | null) =>
  new Map(
    (csp ?? '')
      .split(';')
      .map((d) => d.trim().split(/\s+/) as [string, ...string[]])
      .map(([n, ...v]) => [n, v]),
  );

describe('GET /docs', () => {
  it('answers the page without a key, under a policy of its own that the API routes do not get', async () => {
    const page = await t.request(DOCS, { key: null });
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
    const html = await page.text();
    expect(html).toContain(`src="${API_ROUTES.apiReferenceScript.path}"`);
    // Nothing names another host: the script and the document are this server's.
    expect(html).not.toMatch(/https?:\/\//);
    const csp = directives(page.headers.get('content-security-policy'));
    expect(csp.get('default-src')).toEqual(["'none'"]);
    expect(csp.get('connect-src')).toEqual(["'self'"]);
    expect(csp.get('frame-ancestors')).toEqual(["'none'"]);
    // Its one inline script by its hash: no 'unsafe-inline' or 'unsafe-eval' for scripts.
    expect(csp.get('script-src')?.[0]).toBe("'self'");
    expect(csp.get('script-src')?.slice(1)).toEqual([expect.stringMatching(/^'sha256-[A-Za-z0-9+/]+=*'$/)]);
    expect(page.headers.get('x-content-type-options')).toBe('nosniff');

    const script = await t.request(API_ROUTES.apiReferenceScript.path, { key: null });
    expect(script.status).toBe(200);
    expect(script.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect((await script.text()).length).toBeGreaterThan(100_000);

    // The page's policy is its own: the API answers as before, without it.
    const doc = await t.request(API_ROUTES.openapi.path, { key: null });
    expect(doc.status).toBe(200);
    expect(doc.headers.get('content-security-policy')).toBeNull();
    // The trailing slash is the same page (the router ignores it).
    expect((await t.request(`${DOCS}/`, { key: null })).status).toBe(200);
  });

  it("names, as the document's server, the address each request reached (the page's try-it-out calls stay same-origin)", async () => {
    const port = Number(new URL(t.url).port);
    for (const host of [`localhost:${port}`, `127.0.0.1:${port}`, `[::1]:${port}`]) {
      const res = await rawHttp(port, httpRequest('GET', API_ROUTES.openapi.path, [['Host', host]]));
      expect(res.status).toBe(200);
      expect((res.body as { servers: unknown }).servers).toEqual([{ url: `http://${host}` }]);
    }
  });

  it('renders the routes in Chromium offline, and calls the API with the key the person pastes: every request goes to this server, no console error, no CSP violation', async () => {
    const origin = new URL(t.url).origin;
    const context: BrowserContext = await browser.newContext();
    const requests: string[] = [];
    const elsewhere: string[] = [];
    const problems: string[] = [];
    try {
      // Every request of the page, workers included, passes here first: another host's is refused before it leaves.
      await context.route('**/*', (route) => {
        const url = route.request().url();
        requests.push(url);
        if (new URL(url).origin === origin) return route.continue();
        elsewhere.push(url);
        return route.abort('blockedbyclient');
      });
      const page: Page = await context.newPage();
      page.on('console', (m) => {
        if (m.type() === 'error' || m.type() === 'warning') problems.push(`console ${m.type()}: ${m.text()}`);
      });
      page.on('pageerror', (e) => problems.push(`pageerror: ${e.message}`));
      await page.addInitScript(() => {
        document.addEventListener('securitypolicyviolation', (e) =>
          console.error(`CSP violation: ${e.violatedDirective} ${e.blockedURI}`),
        );
      });
      const answer = await page.goto(`${t.url}${DOCS}`);
      expect(answer?.status()).toBe(200);
      // The reference lists the route table's routes (tags, operations, their paths), e.g. POST /api/login.
      await page.getByText(API_ROUTES.login.path, { exact: true }).first().waitFor({ timeout: 30_000 });
      await page.waitForLoadState('networkidle');
      expect(requests).toEqual([
        `${t.url}${DOCS}`,
        `${t.url}${API_ROUTES.apiReferenceScript.path}`,
        `${t.url}${API_ROUTES.openapi.path}`,
      ]);

      // Try it out: the person pastes a key; the call goes to this server with it, and the key is not kept.
      await page.getByPlaceholder('Token').first().fill(t.key);
      await page.getByRole('button', { name: 'Open Group - credits' }).click();
      await page.getByRole('button', { name: `Test Request (get ${API_ROUTES.credits.path})` }).click();
      const sent = page.waitForResponse((r) => r.url() === `${t.url}${API_ROUTES.credits.path}`);
      await page.getByRole('button', { name: /^Send/ }).first().click();
      const credits = await sent;
      expect(credits.status()).toBe(200);
      expect(credits.request().headers().authorization).toBe(`Bearer ${t.key}`);
      await page.getByText('200 OK').first().waitFor();
      expect(await page.evaluate(() => JSON.stringify({ ...localStorage }))).not.toContain(t.key);

      expect(elsewhere).toEqual([]);
      expect(problems).toEqual([]);
    } finally {
      await context.close();
    }
  });
});
