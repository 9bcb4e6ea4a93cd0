import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { shapeForPath } from '../../../src/main/core/http/plugins/errors.js';
import {
  documentedRoutes,
  errorShapeProblem,
  type ApiShape,
  type DocumentedRoute,
  type OpenApiDocument,
} from '../../helpers/error-shape.js';
import { httpRequest, rawHttp, type RawResponse } from '../../helpers/raw-http.js';
import { startTestServer, type TestServer } from '../../helpers/test-server.js';

/** A built-in template (read-only, so no request here can change it) whose generate takes an image file. */
const TEMPLATE_ID = 'image-to-video-animate';

let t: TestServer;
let routes: DocumentedRoute[];

beforeAll(async () => {
  t = await startTestServer({
    server: { rateLimit: { perKeyPerSecond: 10_000, perKeyBurst: 10_000, unauthenticatedPerMinute: 10_000 } },
  });
  const doc = (await (await t.request('/api/openapi.json', { key: null })).json()) as OpenApiDocument;
  routes = documentedRoutes(doc);
});
afterAll(() => t?.close());

/** The route's path with its parameters filled: `value`, or an id that reaches the route. */
function concretePath(path: string, value?: string): string {
  return path.replace(/\{(\w+)\}/g, (_m, name: string) => {
    if (value !== undefined) return value;
    if (name === 'key') return 'org_x/some-file.png';
    return path.startsWith('/api/templates/') ? TEMPLATE_ID : 'no-such-id';
  });
}

const send = (method: string, target: string, headers: [string, string][] = [], body?: string | Buffer) =>
  rawHttp(
    t.server.port,
    httpRequest(method, target, [['Host', '127.0.0.1'], ['Authorization', `Bearer ${t.key}`], ...headers], body),
  );

/** '' when `res` is an error of `status` in the body of `shape`, else what is wrong (collected, then asserted). */
function problemOf(res: RawResponse, status: number | number[], shape: ApiShape): string {
  const statuses = Array.isArray(status) ? status : [status];
  if (!statuses.includes(res.status)) return `status ${res.status}, expected ${statuses.join('|')}: ${res.text}`;
  if (!/^application\/json/.test(res.headers['content-type'] ?? ''))
    return `content-type ${res.headers['content-type']}`;
  return errorShapeProblem(res.body, shape) ?? '';
}

/** Runs `check` on every documented route and fails with the list of routes that answered wrong. */
async function everyRoute(check: (r: DocumentedRoute) => Promise<string>): Promise<void> {
  const problems: string[] = [];
  for (const r of routes) {
    const problem = await check(r);
    if (problem) problems.push(`${r.method} ${r.path}: ${problem}`);
  }
  expect(problems).toEqual([]);
}

describe('3. malformed multipart bodies to generate are a 400 validation_error', () => {
  // A real 1x1 PNG: the server decodes images, so the control case below needs one that does.
  const png = Buffer.from(
    'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
    'base64',
  );
  const filePart = (boundary: string) =>
    Buffer.concat([
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="variables[photo]"; filename="a.png"\r\n` +
          'Content-Type: image/png\r\n\r\n',
      ),
      png,
    ]);
  const textPart = (boundary: string) =>
    `--${boundary}\r\nContent-Disposition: form-data; name="variables[motion]"\r\n\r\nslow zoom\r\n`;
  const cases: [string, string, string | Buffer][] = [
    ['no boundary parameter', 'multipart/form-data', `${textPart('b')}--b--\r\n`],
    ['an empty boundary', 'multipart/form-data; boundary=', `${textPart('b')}--b--\r\n`],
    ['a boundary the body does not use', 'multipart/form-data; boundary=other', `${textPart('b')}--b--\r\n`],
    ['a body truncated inside a text field', 'multipart/form-data; boundary=b', textPart('b').slice(0, -6)],
    ['a body truncated inside a file part', 'multipart/form-data; boundary=b', filePart('b')],
    ['JSON sent as multipart', 'multipart/form-data; boundary=b', JSON.stringify({ variables: { motion: 'x' } })],
  ];
  it.each(cases)('%s', async (_name, contentType, body) => {
    const res = await send('POST', `/api/templates/${TEMPLATE_ID}/generate`, [['Content-Type', contentType]], body);
    expect(res.status, res.text).toBe(400);
    expect(res.body).toEqual({ error: 'validation_error', message: expect.stringMatching(/multipart/) });
  });

  it('a well-formed multipart body to the same template still gets past the parser', async () => {
    // Control: the template exists and takes this body, so the 400s above are the parser's (402: no credits).
    const res = await send(
      'POST',
      `/api/templates/${TEMPLATE_ID}/generate`,
      [['Content-Type', 'multipart/form-data; boundary=b']],
      Buffer.concat([filePart('b'), Buffer.from(`\r\n${textPart('b')}--b--\r\n`)]),
    );
    expect(res.status, res.text).toBe(402);
    expect(res.body).toMatchObject({ error: 'insufficient_credits' });
  });
});

describe('4. answers given before any route runs use the shape of the API of their path', () => {
  it('the path rule for unmatched paths and raw errors agrees with the api of every documented route', () => {
    const disagree = routes
      .filter((r) => shapeForPath(concretePath(r.path)) !== r.shape)
      .map((r) => `${r.method} ${r.path} is ${r.shape}`);
    expect(routes.length).toBeGreaterThan(20);
    expect(disagree).toEqual([]);
  });

  it('bad percent-encoding in the path is a 400 validation_error on every route', async () => {
    await everyRoute(async (r) => {
      const target = r.path.includes('{') ? concretePath(r.path, '%zz') : `${r.path}/%ff`;
      return problemOf(await send(r.method, target), 400, r.shape);
    });
  });

  it('ids up to the 200 characters the schemas allow reach the route; longer ones are a 400 in shape', async () => {
    await everyRoute(async (r) => {
      if (!r.path.includes('{id}')) return '';
      // The route's own schema answers (its messages start "Invalid path" / "Invalid body"), or the route does.
      const fromRoute = (res: RawResponse, statuses: number[]) => {
        const message = String((res.body as { message?: unknown }).message);
        if (res.status === 400 && !/^Invalid (path|body)/.test(message)) return `400 not from the route: ${message}`;
        return problemOf(res, statuses, r.shape);
      };
      // 150 characters: a valid template/generation id that does not exist; over the session id limit (64).
      const valid = await send(r.method, concretePath(r.path, 'x'.repeat(150)));
      const tooLong = await send(r.method, concretePath(r.path, 'x'.repeat(201)));
      const huge = await send(r.method, concretePath(r.path, '%41'.repeat(3000)));
      return [fromRoute(valid, [400, 403, 404]), fromRoute(tooLong, [400]), problemOf(huge, 400, r.shape)]
        .filter(Boolean)
        .join('; ');
    });
  });

  it('a request line or headers over 16 KB is a 431 on every route', async () => {
    await everyRoute(async (r) => {
      const header = await send(r.method, concretePath(r.path), [['X-Padding', 'p'.repeat(17 * 1024)]]);
      const url = await send(r.method, `${concretePath(r.path)}?pad=${'p'.repeat(17 * 1024)}`);
      return [problemOf(header, 431, r.shape), problemOf(url, 431, r.shape)].filter(Boolean).join('; ');
    });
  });

  it('requests Node cannot parse are a 400 on every route (no more {"error":"Bad Request","statusCode":400})', async () => {
    await everyRoute(async (r) => {
      const target = concretePath(r.path);
      const noColon = await rawHttp(
        t.server.port,
        `${r.method} ${target} HTTP/1.1\r\nHost: 127.0.0.1\r\nthis line is no header\r\n\r\n`,
      );
      const smuggle = await send(r.method, target, [
        ['Content-Length', '3'],
        ['Transfer-Encoding', 'chunked'],
      ]);
      const badLength = await send(r.method, target, [['Content-Length', 'abc']]);
      return [problemOf(noColon, 400, r.shape), problemOf(smuggle, 400, r.shape), problemOf(badLength, 400, r.shape)]
        .filter(Boolean)
        .join('; ');
    });
  });

  it('an HTTP/1.1 request without Host is a 400, an unsupported Expect a 417, on every route', async () => {
    await everyRoute(async (r) => {
      const target = concretePath(r.path);
      const noHost = await rawHttp(t.server.port, `${r.method} ${target} HTTP/1.1\r\nConnection: close\r\n\r\n`);
      const expectation = await send(r.method, target, [['Expect', 'the-unexpected']]);
      return [problemOf(noHost, 400, r.shape), problemOf(expectation, 417, r.shape)].filter(Boolean).join('; ');
    });
  });

  it('bytes that are no HTTP request at all get a 400 in the video-service body (no path to go by)', async () => {
    const res = await rawHttp(t.server.port, 'HELLO THERE\r\n\r\n');
    expect(problemOf(res, 400, 'video')).toBe('');
  });
});

describe('6. a request with more than one Host header is refused', () => {
  it('is a 400 in the shape of the API, whichever Host comes first', async () => {
    const twice = (target: string, hosts: string[]) =>
      rawHttp(
        t.server.port,
        httpRequest('GET', target, [
          ...hosts.map((h): [string, string] => ['Host', h]),
          ['Authorization', `Bearer ${t.key}`],
        ]),
      );
    expect(problemOf(await twice('/healthz', ['127.0.0.1', '127.0.0.1']), 400, 'video')).toBe('');
    expect(problemOf(await twice('/api/credits', ['127.0.0.1', 'evil.example']), 400, 'video')).toBe('');
    expect(problemOf(await twice('/api/credits', ['evil.example', 'localhost']), 400, 'video')).toBe('');
    const login = await twice('/api/sessions', ['localhost', 'evil.example']);
    expect(problemOf(login, 400, 'login')).toBe('');
    expect(login.body).toMatchObject({ error: 'INVALID_REQUEST', message: expect.stringMatching(/Host/) });
    // Header names are case-insensitive: `host` and `HOST` are the same header.
    const mixedCase = await rawHttp(
      t.server.port,
      'GET /healthz HTTP/1.1\r\nhost: 127.0.0.1\r\nHOST: 127.0.0.1\r\nConnection: close\r\n\r\n',
    );
    expect(problemOf(mixedCase, 400, 'video')).toBe('');
    // Control: one loopback Host is answered.
    expect((await twice('/healthz', ['127.0.0.1'])).status).toBe(200);
  });
});
