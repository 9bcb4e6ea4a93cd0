import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BrowserPool } from '../../../../src/main/core/login/browser/browser-pool.js';
import { resolveBrowserExecutable } from '../../../../src/main/core/login/browser/browser-resolver.js';
import { LoginEngine, type LoginResult } from '../../../../src/main/core/login/flow/login-engine.js';
import { parseCookies, REALWORLD_SITES, type RealworldSite } from '../../../fixtures/realworld/index.js';

/**
 * LoginEngine against replicas of widely deployed login systems (Keycloak, Auth0 Universal Login,
 * Okta Sign-In Widget, Django admin, Microsoft converged sign-in, a React/MUI SPA, a shadow-DOM web
 * component, GitHub, GitLab): their real markup and flow, served from one loopback server with
 * each replica under `/<slug>`. Right password: the returned storageState, loaded into a fresh
 * context, shows the replica's signed-in page. Wrong password: `invalid_credentials`.
 */
const WRONG_PASSWORD = 'Tr0ub4dor&3-wrong';
let pool: BrowserPool;
const engine = new LoginEngine({});
let server: Server;
let base = '';

beforeAll(async () => {
  pool = new BrowserPool({ executablePath: resolveBrowserExecutable({}).path, maxContexts: 3 });
  const bySlug = new Map(REALWORLD_SITES.map((s) => [s.slug, s]));
  server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://x');
      const [, slug = '', ...rest] = url.pathname.split('/');
      const site = bySlug.get(slug);
      const path = `/${rest.join('/')}`;
      const handler = site?.routes[path];
      if (!handler) {
        res.writeHead(404, { 'content-type': 'text/html' });
        res.end('<h1>Not found</h1>');
        return;
      }
      const raw = Buffer.concat(chunks).toString('utf8');
      const type = req.headers['content-type'] ?? '';
      let body: Record<string, unknown> = {};
      if (/json/.test(type) && raw) {
        try {
          body = JSON.parse(raw) as Record<string, unknown>;
        } catch {
          body = {};
        }
      }
      handler(
        {
          method: req.method ?? 'GET',
          path,
          query: url.searchParams,
          form: new URLSearchParams(/urlencoded/.test(type) ? raw : ''),
          json: body,
          cookies: parseCookies(req.headers.cookie),
          headers: req.headers,
        },
        res,
      );
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await pool?.dispose();
  server?.closeAllConnections();
  await new Promise<void>((r) => server?.close(() => r()));
});

const url = (site: RealworldSite, path: string): string => `${base}/${site.slug}${path}`;

function explain(r: LoginResult): string {
  return r.ok ? `ok at ${r.finalUrl}\n${r.steps.join('\n')}` : `${r.reason}: ${r.message}\n${r.steps.join('\n')}`;
}

/** Opens the protected page in a fresh context with `state`; waits up to `waitMs` for the signed-in text (SPAs render late). */
async function signedInText(
  site: RealworldSite,
  state: Extract<LoginResult, { ok: true }>['storageState'],
  waitMs = 10_000,
): Promise<string> {
  return pool.withContext(
    async (ctx) => {
      const page = await ctx.newPage();
      await page.goto(url(site, site.protectedPath), { waitUntil: 'domcontentloaded' });
      await page
        .getByText(site.loggedInText)
        .first()
        .waitFor({ timeout: waitMs })
        .catch(() => {});
      return page.evaluate(() => document.body.innerText);
    },
    { contextOptions: { storageState: state as never } },
  );
}

describe.each(REALWORLD_SITES.map((s) => [s.slug, s] as const))('real-world replica: %s', (_slug, site) => {
  it('logs in; the storageState shows the signed-in page in a new context', async () => {
    const result = await pool.withContext((ctx) =>
      engine.login(ctx, { url: url(site, site.loginPath), username: site.username, password: site.password }),
    );
    if (!result.ok) throw new Error(explain(result));
    expect(result.steps.join('\n')).not.toContain(site.password);
    // Before: a fresh context is not signed in.
    expect(await signedInText(site, { cookies: [], origins: [] }, 1500)).not.toMatch(site.loggedInText);
    expect(await signedInText(site, result.storageState)).toMatch(site.loggedInText);
  });

  it('wrong password: invalid_credentials', async () => {
    const result = await pool.withContext((ctx) =>
      engine.login(ctx, { url: url(site, site.loginPath), username: site.username, password: WRONG_PASSWORD }),
    );
    expect(result.ok, explain(result)).toBe(false);
    expect(result.ok ? undefined : result.reason, explain(result)).toBe('invalid_credentials');
    expect(result.steps.join('\n')).not.toContain(WRONG_PASSWORD);
  });
});
