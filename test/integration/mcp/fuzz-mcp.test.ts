// Fuzzing what the OpenAPI document does not list: the MCP endpoint (every method, odd paths, bad JSON-RPC) and
// CONNECT. Every request gets an answer (no reset), never a 5xx; errors are in the login-service shape, or, for a
// protocol error of the MCP transport on POST /mcp itself, a JSON-RPC error object.
// Deterministic (SEED), bounded, sequential, raw sockets to 127.0.0.1 only.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorShapeProblem, type ApiShape } from '../../helpers/error-shape.js';
import { prng, type Prng } from '../../helpers/prng.js';
import { httpRequest, rawHttp, type RawResponse } from '../../helpers/raw-http.js';
import { startTestServer, type TestServer } from '../../helpers/test-server.js';

const SEED = 0x6d637030;
const RANDOM_BODIES = 150;
const MCP_ACCEPT: [string, string] = ['Accept', 'application/json, text/event-stream'];
const JSON_TYPE: [string, string] = ['Content-Type', 'application/json'];

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer({
    server: { rateLimit: { perKeyPerSecond: 100_000, perKeyBurst: 100_000, unauthenticatedPerMinute: 100_000 } },
  });
});
afterAll(() => t?.close());

const send = (method: string, target: string, headers: [string, string][], body?: string) =>
  rawHttp(t.server.port, httpRequest(method, target, [['Host', '127.0.0.1'], ...headers], body));
const auth = (): [string, string] => ['Authorization', `Bearer ${t.key}`];

/** A JSON-RPC 2.0 error object, what the MCP transport answers for protocol errors. */
function jsonRpcErrorProblem(body: unknown): string | null {
  const b = body as { jsonrpc?: unknown; error?: { code?: unknown; message?: unknown } } | null;
  if (!b || b.jsonrpc !== '2.0' || typeof b.error?.code !== 'number' || typeof b.error?.message !== 'string')
    return `neither the login shape nor a JSON-RPC error: ${JSON.stringify(body).slice(0, 200)}`;
  return null;
}

/** The data lines of an SSE answer (a POST /mcp that reached the server answers as an event stream). */
const sseMessages = (text: string): unknown[] =>
  text
    .split('\n')
    .filter((l) => l.startsWith('data: '))
    .map((l) => JSON.parse(l.slice(6)) as unknown);

/** '' when the answer is acceptable, else what is wrong. `rpc`: a JSON-RPC error body is allowed. */
function problemOf(
  res: RawResponse,
  opts: { status?: number; shape?: ApiShape | 'either'; rpc?: boolean } = {},
): string {
  if (res.status >= 500) return `${res.status} ${res.text.slice(0, 200)}`;
  if (opts.status !== undefined && res.status !== opts.status) return `status ${res.status}, expected ${opts.status}`;
  if (res.status < 400) return '';
  const shape = opts.shape ?? 'login';
  const shaped =
    shape === 'either'
      ? errorShapeProblem(res.body, 'login') && errorShapeProblem(res.body, 'video')
      : errorShapeProblem(res.body, shape);
  if (!shaped) return '';
  return opts.rpc ? (jsonRpcErrorProblem(res.body) ?? '') : shaped;
}

function randomRpc(rnd: Prng): unknown {
  switch (rnd.int(6)) {
    case 0:
      return rnd.json();
    case 1:
      return { jsonrpc: rnd.pick(['2.0', '1.0', 2, null]), method: rnd.chars(20), id: rnd.json(), params: rnd.json() };
    case 2:
      return { jsonrpc: '2.0', id: rnd.int(1e6), method: 'tools/call', params: { name: rnd.chars(12) } };
    case 3:
      return {
        jsonrpc: '2.0',
        id: rnd.pick([1, 'x', null, {}, [], 2 ** 60]),
        method: 'tools/call',
        params: { name: rnd.pick(['login', 'get_template', 'generate_video', 'upload_file']), arguments: rnd.json() },
      };
    case 4:
      return Array.from({ length: rnd.int(4) }, () => ({ jsonrpc: '2.0', id: rnd.int(9), method: rnd.chars(10) }));
    default:
      return { jsonrpc: '2.0', method: rnd.pick(['initialize', 'tools/list', 'ping']), params: rnd.json(), id: 1 };
  }
}

describe('fuzzing /mcp and CONNECT', () => {
  it('every method on /mcp: POST opens or serves; GET/DELETE want a session (400); others 405; 401 without a key', async () => {
    const problems: string[] = [];
    for (const method of ['GET', 'DELETE', 'PUT', 'PATCH', 'OPTIONS']) {
      const res = await send(method, '/mcp', [auth()]);
      const expected = method === 'GET' || method === 'DELETE' ? 400 : 405;
      if (res.status !== expected) problems.push(`${method} /mcp with a key: ${res.status}`);
      else if (expected === 405 && res.headers.allow !== 'GET, POST, DELETE')
        problems.push(`${method} /mcp: Allow ${res.headers.allow}`);
      else if (jsonRpcErrorProblem(res.body)) problems.push(`${method} /mcp: ${res.text}`);
      // An unknown session is a 404, as the MCP spec says.
      const unknown = await send(method, '/mcp', [auth(), ['Mcp-Session-Id', 'no-such-session']]);
      if (expected === 400 && unknown.status !== 404)
        problems.push(`${method} /mcp, unknown session: ${unknown.status}`);
      const anonymous = await send(method, '/mcp', []);
      const problem = problemOf(anonymous, { status: 401 });
      if (problem) problems.push(`${method} /mcp without a key: ${problem}`);
    }
    // HEAD has no body to read (the raw client would wait for the Content-Length it announces).
    const head = await fetch(`${t.url}/mcp`, { method: 'HEAD', headers: { authorization: `Bearer ${t.key}` } });
    expect([head.status, head.headers.get('allow')]).toEqual([405, 'GET, POST, DELETE']);
    expect(problems).toEqual([]);
  });

  it('odd paths under /mcp are a 404 in the login-service shape; look-alikes are unknown paths', async () => {
    const problems: string[] = [];
    const under = ['/mcp/x', '/mcp//', '/mcp/tools/call', '/mcp/..%2Fapi'];
    // `/mcp/` is /mcp (trailing slashes are ignored) and `?x=%ZZ` a query it does not read: the endpoint answers.
    const endpoint = ['/mcp/', '/mcp?x=%ZZ'];
    // One segment that is not `mcp`: an unknown path, in the default (video) shape or the login shape.
    const lookAlikes = ['/mcp%2Fx', '/mcp;x', '/mcpx', '/MCP'];
    for (const p of [...under, ...endpoint, ...lookAlikes]) {
      for (const method of ['POST', 'GET', 'PUT']) {
        const res = await send(method, p, [auth(), MCP_ACCEPT, JSON_TYPE], method === 'GET' ? undefined : '{}');
        const shape = lookAlikes.includes(p) ? 'either' : 'login';
        const problem = problemOf(res, { rpc: endpoint.includes(p), shape });
        if (problem) problems.push(`${method} ${p}: ${problem}`);
        if (!endpoint.includes(p) && res.status !== 404) problems.push(`${method} ${p}: ${res.status}, not 404`);
      }
    }
    expect(problems).toEqual([]);
  });

  it('bad JSON-RPC to POST /mcp: a JSON-RPC error or a 4xx, never a 5xx, never a reset', async () => {
    const rnd = prng(SEED);
    const problems: string[] = [];
    const bodies: string[] = [
      '',
      'not json',
      '{',
      'null',
      '[]',
      '{}',
      '"x"',
      '{"jsonrpc":"2.0"}',
      '{"jsonrpc":"2.0","id":1,"method":"no/such"}',
      '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"nope","arguments":{}}}',
      '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"login","arguments":{"cred":1}}}',
      ...Array.from({ length: RANDOM_BODIES }, () =>
        rnd.int(5) === 0 ? rnd.chars(300) : JSON.stringify(randomRpc(rnd)),
      ),
    ];
    const headerSets: [string, string][][] = [
      [auth(), MCP_ACCEPT, JSON_TYPE],
      [auth(), JSON_TYPE], // no Accept: the transport answers 406
      [auth(), MCP_ACCEPT, ['Content-Type', 'text/plain']],
      [auth(), MCP_ACCEPT],
    ];
    for (const body of bodies) {
      const headers = headerSets[rnd.int(headerSets.length)];
      let res: RawResponse;
      try {
        res = await send('POST', '/mcp', headers, body);
      } catch (err) {
        problems.push(`${JSON.stringify(body.slice(0, 80))}: no answer (${(err as Error).message})`);
        continue;
      }
      const problem = problemOf(res, { rpc: true });
      if (problem) problems.push(`${JSON.stringify(body.slice(0, 80))}: ${problem}`);
      // A 200 carries JSON-RPC messages (an SSE stream or JSON), results or errors, never a server failure.
      if (res.status === 200 && /event-stream/.test(res.headers['content-type'] ?? '')) {
        for (const m of sseMessages(res.text)) {
          const error = (m as { error?: { code?: number } }).error;
          if (error && error.code === -32603) problems.push(`${body.slice(0, 120)}: internal error`);
        }
      }
    }
    expect(problems.slice(0, 20)).toEqual([]);
  });

  it('tool arguments that are not an object: -32602 Invalid params naming the field, not an internal error', async () => {
    const body = { jsonrpc: '2.0', id: 7, method: 'tools/call', params: { name: 'login', arguments: '__proto__' } };
    const res = await send('POST', '/mcp', [auth(), MCP_ACCEPT, JSON_TYPE], JSON.stringify(body));
    expect(res.status).toBe(200);
    expect(sseMessages(res.text)).toEqual([
      { jsonrpc: '2.0', id: 7, error: { code: -32602, message: 'Invalid params for tools/call: params.arguments' } },
    ]);
  });

  it('CONNECT gets a 400 in the shape of the path it names (an authority is the video shape), not a reset', async () => {
    const cases: [string, ApiShape][] = [
      ['/api/login', 'login'],
      ['/mcp', 'login'],
      ['/api/templates', 'video'],
      ['127.0.0.1:443', 'video'],
      ['example.com:443', 'video'],
    ];
    const problems: string[] = [];
    for (const [target, shape] of cases) {
      for (const headers of [[auth()], []] as [string, string][][]) {
        const res = await send('CONNECT', target, headers);
        const problem = problemOf(res, { status: 400, shape });
        if (problem) problems.push(`CONNECT ${target}: ${problem}`);
      }
    }
    expect(problems).toEqual([]);
    // The server still answers afterwards.
    expect((await send('GET', '/healthz', [])).status).toBe(200);
  });
});
