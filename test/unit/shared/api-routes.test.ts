// The route table (src/shared/api) is the one declaration of every operation: the server registers exactly its
// entries (a handler cannot exist without its entry, nor the reverse), the OpenAPI document lists exactly the
// documented ones, the typed client calls them by name, and no path is written by hand anywhere else in src/.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mergeRoutes, replaceRoutes, type FeatureRoutes } from '../../../src/main/core/http/route.js';
import { API_ROUTE_NAMES, API_ROUTES, routeUrl, successStatus, type ApiRoute } from '../../../src/shared/api/index.js';
import { openApiPath } from '../../helpers/openapi-doc.js';
import { REPO_ROOT } from '../../helpers/repo-root.js';
import { startTestServer, type TestServer } from '../../helpers/test-server.js';

const routes = API_ROUTE_NAMES.map((name) => [name, API_ROUTES[name] as ApiRoute] as const);
const handlersFor = (names: readonly string[]) =>
  Object.fromEntries(names.map((n) => [n, () => null])) as unknown as FeatureRoutes;

describe('handlers against the table', () => {
  it('one handler per route: a missing, a second or an unknown handler stops the start', () => {
    expect(() => mergeRoutes(handlersFor(API_ROUTE_NAMES))).not.toThrow();
    expect(() => mergeRoutes(handlersFor(API_ROUTE_NAMES.slice(1)))).toThrow(
      new RegExp(`without a handler: ${API_ROUTE_NAMES[0]}`),
    );
    expect(() => mergeRoutes(handlersFor(API_ROUTE_NAMES), handlersFor(['login']))).toThrow(/"login" has two handlers/);
    expect(() => mergeRoutes(handlersFor([...API_ROUTE_NAMES, 'notARoute']))).toThrow(/"notARoute", which the route/);
    const all = mergeRoutes(handlersFor(API_ROUTE_NAMES));
    expect(() => replaceRoutes(all, handlersFor(['nope']))).toThrow(/"nope"/);
  });

  it('every entry documents one success answer and its path parameters', () => {
    for (const [name, route] of routes) {
      expect(() => successStatus(route), name).not.toThrow();
      const inPath = [...route.path.matchAll(/:(\w+)/g)].map((m) => m[1]).sort();
      const declared = route.params ? Object.keys((route.params as unknown as { shape: object }).shape).sort() : [];
      expect(declared, `${name}: params schema vs ${route.path}`).toEqual(inPath);
    }
  });

  it('routeUrl fills parameters percent-encoded and drops empty query values', () => {
    expect(routeUrl(API_ROUTES.getTemplate, { params: { id: 'a/b c' } })).toBe('/api/templates/a%2Fb%20c');
    expect(routeUrl(API_ROUTES.listTemplates, { query: { limit: 5, offset: undefined } })).toBe(
      '/api/templates?limit=5',
    );
    expect(routeUrl(API_ROUTES.putUpload, { params: { key: 'uploads/o/x y.png' } })).toBe(
      '/api/uploads/uploads/o/x%20y.png',
    );
    expect(() => routeUrl(API_ROUTES.getTemplate, {})).toThrow(/needs the path parameter :id/);
  });
});

describe('the running server serves exactly the table', () => {
  let s: TestServer;
  let doc: { paths: Record<string, Record<string, { 'x-required-scope'?: string }>> };
  beforeAll(async () => {
    s = await startTestServer();
    doc = (await (await fetch(`${s.url}/api/openapi.json`)).json()) as typeof doc;
  });
  afterAll(() => s?.close());

  it.each(routes)('%s is registered with its method, path and aliases', (_name, route) => {
    for (const url of [route.path, ...(route.aliases ?? [])]) {
      expect(s.server.app.hasRoute({ method: route.method, url }), `${route.method} ${url}`).toBe(true);
    }
  });

  it('the OpenAPI document lists the documented entries and nothing else', () => {
    const documented = routes
      .filter(([, r]) => !r.undocumented)
      .flatMap(([, r]) => [r.path, ...(r.aliases ?? [])].map((p) => `${r.method.toLowerCase()} ${openApiPath(p)}`));
    const listed = Object.entries(doc.paths).flatMap(([p, ops]) => Object.keys(ops).map((m) => `${m} ${p}`));
    const missing = documented.filter((r) => !listed.includes(r));
    const extra = listed.filter((r) => !documented.includes(r));
    expect({ missing, extra }).toEqual({ missing: [], extra: [] });
  });
});

/** src/ files, comments removed (paths in comments are prose, not declarations). */
function sourceFiles(dir: string): { file: string; code: string }[] {
  return fs.readdirSync(dir, { withFileTypes: true, recursive: true }).flatMap((e) => {
    if (!e.isFile() || !/\.tsx?$/.test(e.name)) return [];
    const file = path.join(e.parentPath, e.name);
    const code = fs.readFileSync(file, 'utf8').replace(/\/\*[\s\S]*?\*\/|(^|[^:])\/\/[^\n]*/g, '$1');
    return [{ file: path.relative(REPO_ROOT, file), code }];
  });
}

describe('no hand-written paths', () => {
  const files = sourceFiles(path.join(REPO_ROOT, 'src'));
  const PATH_LITERAL = /['"`]\/(api\/|api['"`]|mcp\b|healthz\b|login\b|signup\b|refresh\b)/;

  it('only src/shared/api writes an API path in a string', () => {
    const offenders = files
      .filter((f) => !f.file.startsWith(path.join('src', 'shared', 'api')))
      .flatMap((f) =>
        f.code
          .split('\n')
          .filter((line) => PATH_LITERAL.test(line))
          .map((line) => `${f.file}: ${line.trim()}`),
      );
    expect(offenders).toEqual([]);
  });

  it('the check sees a path written by hand (it is not vacuous)', () => {
    expect(PATH_LITERAL.test("await api.request({ method: 'GET', url: '/api/templates' })")).toBe(true);
    expect(PATH_LITERAL.test('fetch(`/api/generations/${id}`)')).toBe(true);
    expect(PATH_LITERAL.test("const x = 'api/templates'")).toBe(false);
  });

  it('the typed client calls routes by their table names, and wraps every route but the listed ones', () => {
    const client = fs.readFileSync(path.join(REPO_ROOT, 'src/client/agent-studio-client.ts'), 'utf8');
    const called = new Set([...client.matchAll(/call\('(\w+)'/g)].map((m) => m[1]));
    for (const name of called) expect(API_ROUTE_NAMES, `client calls ${name}`).toContain(name);
    /** Not wrapped, and why. */
    const notInClient: Record<string, string> = {
      health: 'liveness: plain GET /healthz',
      openapi: 'the document itself',
      apiReference: 'the document as a page for a person (GET /docs in a browser)',
      apiReferenceScript: "the reference page's own script",
      mcp: 'MCP clients speak to it',
      putUpload: 'the client PUTs to the presigned upload_url it was given',
      getFile: 'a presigned download URL (video_url, thumbnail_url): fetch it directly',
      createMailbox: 'mailbox administration: CLI or curl (docs/login-service.md#mailboxes)',
      listMailboxes: 'mailbox administration: CLI or curl (docs/login-service.md#mailboxes)',
      deleteMailbox: 'mailbox administration: CLI or curl (docs/login-service.md#mailboxes)',
      testMailbox: 'mailbox administration: CLI or curl (docs/login-service.md#mailboxes)',
      createCredential: 'a person saves logins: desktop app, CLI (credentials add) or curl (docs/saved-logins.md)',
      updateCredential: 'a person changes saved logins: desktop app or curl (docs/saved-logins.md)',
      deleteCredential: 'a person removes saved logins: desktop app, CLI (credentials remove) or curl',
      importCredentials: 'a person imports exports: desktop app, CLI (credentials import) or curl',
      createPasskey: 'a person makes a passkey for a saved login: curl (docs/own-browsers-and-passkeys.md#passkeys)',
      listBrowserProfiles: "the person's own browsers: desktop app, CLI (sessions import --list) or curl",
      importSessions: "the person's own browsers: desktop app, CLI (sessions import) or curl",
      livePage: "the person's browser opens the takeover_url",
      liveAsset: "the live page's own files",
      liveEvents: 'the live page streams them',
      liveInput: 'the live page sends them',
      liveResize: 'the live page sends it',
      liveDone: 'the live page sends it',
      liveCancel: 'the live page sends it',
    };
    expect(API_ROUTE_NAMES.filter((n) => !called.has(n) && !notInClient[n])).toEqual([]);
  });
});
