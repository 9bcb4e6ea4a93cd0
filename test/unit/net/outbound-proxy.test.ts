import http from 'node:http';
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { namedPolicy, type NameTable } from '../../helpers/outbound-names.js';
import { startOutboundProxy, type OutboundProxy } from '../../../src/main/core/net/outbound-proxy.js';

/**
 * The login browser's forward proxy, spoken to as a browser does (CONNECT for tunnels, absolute-form
 * requests for plain HTTP). Names stand for address ranges through the policy's resolver hook; allowed
 * ones are dialed on 127.0.0.1, so nothing leaves the machine.
 */
const NAMES: NameTable = {
  'public.test': [{ address: '93.184.215.14', family: 4 }],
  'private.test': [{ address: '10.0.0.5', family: 4 }],
  'meta.test': [{ address: '169.254.169.254', family: 4 }],
};
const policy = namedPolicy(NAMES, 'public-only');

let proxy: OutboundProxy;
let site: http.Server;
let sitePort: number;
let echo: net.Server;
let echoPort: number;
let connections = 0;
/** What the site received last: method, path, headers and body. */
let seen: { method?: string; url?: string; headers: http.IncomingHttpHeaders; body: string } = {
  headers: {},
  body: '',
};

beforeAll(async () => {
  site = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      seen = { method: req.method, url: req.url, headers: req.headers, body };
      res.setHeader('set-cookie', ['a=1', 'b=2']);
      res.setHeader('connection', 'close, x-hop');
      res.setHeader('x-hop', 'secret');
      res.writeHead(200, { 'content-type': 'text/plain' }).end(`echo ${body}`);
    });
  });
  site.on('connection', () => connections++);
  // Behind CONNECT: raw TCP (a tunnel carries any bytes: TLS, WebSocket frames).
  echo = net.createServer((s) => {
    connections++;
    s.once('data', (first: Buffer) => s.end(`PONG ${first.toString().replace(/^PING /, '')}`));
  });
  await new Promise<void>((r) => echo.listen(0, '127.0.0.1', r));
  echoPort = (echo.address() as net.AddressInfo).port;
  await new Promise<void>((r) => site.listen(0, '127.0.0.1', r));
  sitePort = (site.address() as net.AddressInfo).port;
  proxy = await startOutboundProxy(policy, { connectTimeoutMs: 2000 });
});
afterAll(async () => {
  await proxy?.close();
  site?.closeAllConnections();
  await new Promise((r) => site?.close(r));
  await new Promise((r) => echo?.close(r));
});

const proxyPort = () => Number(new URL(proxy.url).port);

/** Sends CONNECT host:port then, once tunnelled, `payload`; resolves with everything read until close. */
function connect(authority: string, payload = ''): Promise<string> {
  return new Promise((resolve, reject) => {
    const s = net.connect(proxyPort(), '127.0.0.1');
    let got = '';
    s.on('data', (c: Buffer) => {
      got += c.toString();
      if (payload && got.endsWith('200 Connection Established\r\n\r\n')) {
        s.write(payload);
        payload = '';
      }
    });
    s.on('close', () => resolve(got));
    s.on('error', reject);
    s.write(`CONNECT ${authority} HTTP/1.1\r\nHost: ${authority}\r\n\r\n`);
  });
}

/** An absolute-form request through the proxy, as Chromium sends plain HTTP. */
function viaProxy(
  url: string,
  init: { method?: string; headers?: Record<string, string>; body?: string } = {},
): Promise<{ status: number; headers: http.IncomingHttpHeaders; text: string } | 'closed'> {
  return new Promise((resolve) => {
    const req = http.request({
      host: '127.0.0.1',
      port: proxyPort(),
      path: url,
      method: init.method ?? 'GET',
      headers: { host: URL.canParse(url) ? new URL(url).host : 'public.test', ...init.headers },
      agent: false,
    });
    req.on('response', (res) => {
      let text = '';
      res.on('data', (c: Buffer) => (text += c.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, text }));
    });
    req.on('error', () => resolve('closed'));
    req.end(init.body);
  });
}

describe('CONNECT (https, WebSockets)', () => {
  it('tunnels to an allowed host, dialed at the checked address', async () => {
    const got = await connect(`public.test:${echoPort}`, 'PING hello');
    expect(got).toMatch(/^HTTP\/1\.1 200 Connection Established\r\n\r\nPONG hello$/);
  });

  it('answers 403 for a refused host without connecting or telling its address', async () => {
    const before = connections;
    for (const host of ['private.test', 'meta.test', '127.0.0.1', '10.0.0.5', '169.254.169.254']) {
      const got = await connect(`${host}:${echoPort}`);
      expect(got).toMatch(/^HTTP\/1\.1 403 Forbidden\r\n/);
      expect(got).toContain('network.outbound');
      expect(got).not.toMatch(/10\.0\.0\.5|169\.254/);
    }
    expect(connections).toBe(before);
  });

  it('answers 502 when the host does not resolve or does not accept; 400 for a malformed target', async () => {
    expect(await connect(`nowhere.test:${echoPort}`)).toMatch(/^HTTP\/1\.1 502 /);
    const closed = net.createServer();
    await new Promise<void>((r) => closed.listen(0, '127.0.0.1', r));
    const port = (closed.address() as net.AddressInfo).port;
    await new Promise((r) => closed.close(r));
    expect(await connect(`public.test:${port}`)).toMatch(/^HTTP\/1\.1 502 /);
    expect(await connect('public.test')).toMatch(/^HTTP\/1\.1 400 /);
  });
});

describe('absolute-form HTTP', () => {
  it('forwards the request and its body, drops hop-by-hop headers both ways, keeps repeated ones', async () => {
    const res = await viaProxy(`http://public.test:${sitePort}/form?x=1`, {
      method: 'POST',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        'proxy-connection': 'keep-alive',
        'proxy-authorization': 'Basic eDp5',
        connection: 'keep-alive, x-private',
        'x-private': 'hop',
        'x-kept': 'end-to-end',
      },
      body: 'user=ada',
    });
    expect(res).toMatchObject({ status: 200, text: 'echo user=ada' });
    if (res === 'closed') return;
    expect(res.headers['set-cookie']).toEqual(['a=1', 'b=2']);
    expect(res.headers['x-hop']).toBeUndefined();
    expect(seen).toMatchObject({ method: 'POST', url: '/form?x=1', body: 'user=ada' });
    expect(seen.headers).toMatchObject({ host: `public.test:${sitePort}`, 'x-kept': 'end-to-end' });
    for (const h of ['proxy-connection', 'proxy-authorization', 'x-private']) expect(seen.headers[h]).toBeUndefined();
  });

  it('answers 403 for a refused host (literal or name) without connecting', async () => {
    const before = connections;
    for (const host of ['private.test', 'meta.test', '127.0.0.1', '169.254.169.254']) {
      const res = await viaProxy(`http://${host}:${sitePort}/`);
      expect(res).toMatchObject({ status: 403, text: expect.stringContaining('network.outbound') });
    }
    expect(connections).toBe(before);
  });

  it('closes the connection without an answer when the site cannot be reached (a network error for the browser)', async () => {
    expect(await viaProxy(`http://nowhere.test:${sitePort}/`)).toBe('closed');
  });

  it('refuses requests that are not absolute-form http://', async () => {
    expect(await viaProxy('/relative')).toMatchObject({ status: 400 });
    expect(await viaProxy(`https://public.test:${sitePort}/`)).toMatchObject({ status: 400 });
  });
});
