/**
 * Route × scope matrix: every entry of the route table (API_ROUTES) against a real server. A route that needs a key
 * answers 401 without one (and with a made-up one), a route that needs a scope answers 403 to a key holding every
 * scope but that one, and the routes that need nothing are pinned by name, so a route that becomes public by accident
 * (its `scope` dropped to null) fails here instead of shipping. The auth check runs on `onRequest`, before params,
 * body or handler, so ids that do not exist and empty bodies are enough: no request reaches a handler with a
 * refused key. About 250 sequential requests to 127.0.0.1.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_ROUTES, type ApiRoute, type ApiRouteName } from '../../../src/shared/api/index.js';
import { requiredScopes, SCOPES, type Scope } from '../../../src/shared/scopes.js';
import { errorShapeProblem } from '../../helpers/error-shape.js';
import { startTestServer, type TestServer } from '../../helpers/test-server.js';

/**
 * The routes anyone on the machine may call without a key, each for a reason: the health probe and the API's own
 * description (the OpenAPI document, and the reference page that shows it: its try-it-out calls carry the key the
 * person pastes); the live page of a stopped login (its capability is the unguessable id in the URL); the signed upload
 * and download URLs (the signature in the query is the capability). Adding a route here is a security decision.
 */
const PUBLIC_ROUTES: readonly ApiRouteName[] = [
  'health',
  'openapi',
  'apiReference',
  'apiReferenceScript',
  'livePage',
  'liveAsset',
  'liveEvents',
  'liveInput',
  'liveResize',
  'liveDone',
  'liveCancel',
  'putUpload',
  'getFile',
];

const ROUTES = Object.entries(API_ROUTES) as [ApiRouteName, ApiRoute][];
const isPublic = (r: ApiRoute) => r.scope === null && !r.keyOnly;
const guarded = ROUTES.filter(([, r]) => !isPublic(r));
const scoped = ROUTES.filter((entry): entry is [ApiRouteName, ApiRoute & { scope: NonNullable<ApiRoute['scope']> }] =>
  Boolean(entry[1].scope),
);

/** A path of the route with every parameter filled by an id that does not exist (the check comes first). */
const concrete = (path: string) => path.replace(/:(\w+)/g, 'no-such-$1').replace(/\*$/, 'no-such-key');

/** The route's path and its aliases (POST /login answers like POST /api/login, so it is guarded alike). */
const pathsOf = (r: ApiRoute) => [r.path, ...(r.aliases ?? [])].map(concrete);

describe('route × scope matrix', () => {
  let t: TestServer;
  /** Per scope, a key of the test org holding every scope but that one. */
  const allBut = new Map<Scope, string>();
  const keyWith = (scopes: readonly string[]) => t.core.keys.create(t.orgId, { scopes: [...scopes] }).key;

  beforeAll(async () => {
    // Generous limits: ~250 requests, a third without a key, must never meet the rate limiter's 429.
    t = await startTestServer({
      server: { rateLimit: { perKeyPerSecond: 10_000, perKeyBurst: 10_000, unauthenticatedPerMinute: 10_000 } },
    });
    for (const scope of SCOPES) allBut.set(scope, keyWith(SCOPES.filter((s) => s !== scope)));
  });
  afterAll(() => t?.close());

  /** No body: the refusal must not depend on what the request carries. */
  const send = (method: string, path: string, key: string | null) =>
    t.request(path, { method, key, redirect: 'manual', signal: AbortSignal.timeout(10_000) });

  it('pins the public routes by name', () => {
    expect(
      ROUTES.filter(([, r]) => isPublic(r))
        .map(([name]) => name)
        .sort(),
    ).toEqual([...PUBLIC_ROUTES].sort());
    // Every other route is guarded: a scope, or a valid key (MCP, whose tools check their own routes' scopes).
    expect(guarded.length + PUBLIC_ROUTES.length).toBe(ROUTES.length);
    expect(guarded.map(([name]) => name)).toContain('mcp');
  });

  it('answers 401 in the route’s error shape to a request without a key or with an unknown key', async () => {
    const problems: string[] = [];
    for (const [name, r] of guarded) {
      for (const path of pathsOf(r)) {
        for (const key of [null, 'pk_not_a_real_key_0000000000000000']) {
          const res = await send(r.method, path, key);
          const body: unknown = await res.json().catch(() => undefined);
          const where = `${name} ${r.method} ${path} ${key ? 'unknown key' : 'no key'}`;
          if (res.status !== 401) problems.push(`${where}: ${res.status} ${JSON.stringify(body)}`);
          const shape = errorShapeProblem(body, r.api);
          if (shape) problems.push(`${where}: ${shape}`);
        }
      }
    }
    expect(problems).toEqual([]);
  });

  it('answers 403 naming the scope to a key holding every scope but one the route needs', async () => {
    const problems: string[] = [];
    let checked = 0;
    for (const [name, r] of scoped) {
      // A route needing several scopes is checked once per scope: holding all but any one of them is refused.
      for (const missing of requiredScopes(r.scope)) {
        for (const path of pathsOf(r)) {
          checked++;
          const res = await send(r.method, path, allBut.get(missing)!);
          const body = (await res.json().catch(() => undefined)) as { message?: string } | undefined;
          const where = `${name} ${r.method} ${path} without ${missing}`;
          if (res.status !== 403) problems.push(`${where}: ${res.status} ${JSON.stringify(body)}`);
          const shape = errorShapeProblem(body, r.api);
          if (shape) problems.push(`${where}: ${shape}`);
          else if (!body?.message?.includes(`"${missing}"`)) problems.push(`${where}: ${body?.message}`);
        }
      }
    }
    expect(problems).toEqual([]);
    // The passkey route needs two scopes: both are checked (a list meaning all of them, not any of them).
    expect(checked).toBeGreaterThan(scoped.length);
  });

  it('lets a key holding exactly the scopes a route needs past the check (the matrix is not vacuous)', async () => {
    const problems: string[] = [];
    for (const [name, r] of scoped) {
      const res = await send(r.method, concrete(r.path), keyWith(requiredScopes(r.scope)));
      const body = (await res.json().catch(() => undefined)) as { message?: string } | undefined;
      // Past the check the handler answers: 2xx, or 400/404 for the empty body and the made-up id. A handler's
      // own refusal (e.g. browser profiles the person has not opened to this org) is a 403 about something else.
      const refusedByScope = res.status === 403 && /lacks the required scope/.test(body?.message ?? '');
      if (res.status === 401 || refusedByScope || res.status >= 500)
        problems.push(`${name} ${r.method} ${r.path}: ${res.status} ${JSON.stringify(body)}`);
    }
    expect(problems).toEqual([]);
  });
});
