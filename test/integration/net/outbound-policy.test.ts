import http from 'node:http';
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { OutboundPolicy } from '../../../src/main/core/net/outbound-policy.js';
import type { OutboundMode } from '../../../src/main/core/config/config.schema.js';
import { downloadResult } from '../../../src/main/core/video/pipeline/providers/download-result.js';
import { mapDownloadError, startDownload } from '../../../src/main/core/video/uploads/media-downloader.js';
import { sendWebhook } from '../../../src/main/core/webhooks/webhook-sender.js';
import { media } from '../../helpers/media-fixtures.js';
import { namedPolicy, type NameTable } from '../../helpers/outbound-names.js';
import { startTestServer, tempDir, type TestServer } from '../../helpers/test-server.js';
import { generate } from '../../helpers/video-api.js';

/**
 * The outbound policy at the HTTP call sites that fetch on an API key's behalf: media URLs, webhooks,
 * result URLs of providers. Every listener is on 127.0.0.1; names are mapped by a resolver hook to the
 * address a listener stands for (10.0.0.1, 169.254.169.254...), and the policy decides by that address.
 * The test hook `dial` then connects an allowed address to 127.0.0.1, so nothing leaves the machine;
 * a refused one must never reach its listener, which counts connections.
 */

interface Listener {
  port: number;
  /** TCP connections accepted so far. */
  connections: number;
  close(): Promise<void>;
}

/** An HTTP server on 127.0.0.1: a PNG at /photo.png, redirects at /to?url=..., 404 elsewhere. */
async function httpListener(): Promise<Listener> {
  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    if (url.pathname === '/photo.png')
      return void res.writeHead(200, { 'content-type': 'image/png' }).end(media.png(2048));
    if (url.pathname === '/video.mp4') return void res.writeHead(200, { 'content-type': 'video/mp4' }).end(media.mp4());
    if (url.pathname === '/to') return void res.writeHead(302, { location: url.searchParams.get('url') ?? '/' }).end();
    if (url.pathname === '/hook') return void res.writeHead(204).end();
    if (url.pathname === '/page.html') return void res.writeHead(200, { 'content-type': 'text/html' }).end('<p>hi</p>');
    res.writeHead(404).end('missing');
  });
  return listen(server);
}

function listen(server: net.Server): Promise<Listener> {
  const l: Listener = { port: 0, connections: 0, close: () => new Promise((r) => server.close(() => r())) };
  server.on('connection', () => l.connections++);
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () => {
      l.port = (server.address() as net.AddressInfo).port;
      const close = l.close;
      l.close = () => {
        (server as http.Server).closeAllConnections?.();
        return close();
      };
      resolve(l);
    }),
  );
}

const NAMES: NameTable = {
  'public.test': [{ address: '93.184.215.14', family: 4 }],
  'private.test': [{ address: '10.0.0.1', family: 4 }],
  'loop.test': [{ address: '127.0.0.1', family: 4 }],
  localhost: [
    { address: '::1', family: 6 },
    { address: '127.0.0.1', family: 4 },
  ],
  'meta.test': [{ address: '169.254.169.254', family: 4 }],
  'mapped.test': [{ address: '::ffff:169.254.169.254', family: 6 }],
  'mapped-private.test': [{ address: '::ffff:10.0.0.1', family: 6 }],
  'rebind.test': [
    { address: '93.184.215.14', family: 4 },
    { address: '10.0.0.1', family: 4 },
  ],
};

/** A policy whose names resolve per NAMES and whose allowed addresses are dialed on 127.0.0.1. */
const policy = (mode: OutboundMode): OutboundPolicy => namedPolicy(NAMES, mode);

const DOWNLOAD = { timeoutMs: 5000, maxRedirects: 3 };

/** Downloads a media URL as media ingestion does; the 400's message, or 'ok'. */
async function download(url: string, outbound: OutboundPolicy): Promise<string> {
  let d;
  try {
    d = await startDownload(url, 'image', 10_000_000, { ...DOWNLOAD, outbound });
  } catch (err) {
    return (err as Error).message;
  }
  try {
    for await (const chunk of d.stream) void chunk;
    return 'ok';
  } catch (err) {
    return (mapDownloadError(d.rejection() ?? err, 'image', DOWNLOAD, d.onlyPublic()) as Error).message;
  }
}

describe('outbound policy at the HTTP call sites', () => {
  const L: Record<'pub' | 'priv' | 'loop' | 'meta', Listener> = {} as never;
  beforeAll(async () => {
    for (const k of ['pub', 'priv', 'loop', 'meta'] as const) L[k] = await httpListener();
  });
  afterAll(async () => {
    for (const l of Object.values(L)) await l?.close();
  });
  /** Runs fn and returns how many connections each listener got meanwhile. */
  async function counting<T>(fn: () => Promise<T>): Promise<{ result: T; hits: Record<string, number> }> {
    const before = Object.fromEntries(Object.entries(L).map(([k, l]) => [k, l.connections]));
    const result = await fn();
    const hits = Object.fromEntries(Object.entries(L).map(([k, l]) => [k, l.connections - before[k]]));
    return { result, hits };
  }
  const none = { pub: 0, priv: 0, loop: 0, meta: 0 };

  it('media URLs, private-ok: public, private and loopback are fetched; link-local never, in any spelling or hop', async () => {
    const p = policy('private-ok');
    const ok = async (url: string, hits: Partial<typeof none>) =>
      expect(await counting(() => download(url, p))).toEqual({ result: 'ok', hits: { ...none, ...hits } });
    await ok(`http://public.test:${L.pub.port}/photo.png`, { pub: 1 });
    await ok(`http://private.test:${L.priv.port}/photo.png`, { priv: 1 });
    await ok(`http://mapped-private.test:${L.priv.port}/photo.png`, { priv: 1 });
    await ok(`http://127.0.0.1:${L.loop.port}/photo.png`, { loop: 1 });

    const refused = async (url: string, hits: Partial<typeof none> = {}) => {
      const { result, hits: got } = await counting(() => download(url, p));
      expect(result, url).toMatch(/^Could not download the image URL: its (address|host) is .*never connects to\.$/);
      expect(got, url).toEqual({ ...none, ...hits });
    };
    await refused(`http://meta.test:${L.meta.port}/latest/meta-data/`);
    await refused(`http://mapped.test:${L.meta.port}/`);
    await refused(`http://metadata.google.internal:${L.meta.port}/`);
    await refused(`http://0.0.0.0:${L.loop.port}/photo.png`); // 0.0.0.0 would reach this machine's listeners
    await refused(`http://[::ffff:169.254.169.254]:${L.meta.port}/`);
    // A public URL that redirects to a refused one: the hop is checked before it connects.
    const to = (target: string) => `http://public.test:${L.pub.port}/to?url=${encodeURIComponent(target)}`;
    await refused(to(`http://meta.test:${L.meta.port}/`), { pub: 1 });
    await refused(to('http://169.254.169.254/latest/meta-data/'), { pub: 1 });
  });

  it('media URLs, public-only: loopback and private addresses are refused by name, literal, mapped form and redirect', async () => {
    const p = policy('public-only');
    expect(await counting(() => download(`http://public.test:${L.pub.port}/photo.png`, p))).toEqual({
      result: 'ok',
      hits: { ...none, pub: 1 },
    });
    const to = (target: string) => `http://public.test:${L.pub.port}/to?url=${encodeURIComponent(target)}`;
    for (const [url, hits] of [
      [`http://loop.test:${L.loop.port}/photo.png`, none],
      [`http://127.0.0.1:${L.loop.port}/photo.png`, none],
      [`http://localhost:${L.loop.port}/photo.png`, none], // resolves to loopback: refused before connecting
      [`http://private.test:${L.priv.port}/photo.png`, none],
      [`http://mapped-private.test:${L.priv.port}/photo.png`, none],
      [`http://rebind.test:${L.priv.port}/photo.png`, none], // one private address refuses the name
      [to(`http://127.0.0.1:${L.loop.port}/photo.png`), { ...none, pub: 1 }],
      [to(`http://private.test:${L.priv.port}/photo.png`), { ...none, pub: 1 }],
    ] as const) {
      const { result, hits: got } = await counting(() => download(url, p));
      expect(result, url).toMatch(/network\.outbound is "public-only" \(public addresses only\)\.$/);
      expect(got, url).toEqual(hits);
    }
  });

  it('webhooks: a refused receiver is a stop without a connection; an allowed one is delivered', async () => {
    const send = (url: string, p: OutboundPolicy) =>
      sendWebhook({ url, body: '{}', headers: {}, timeoutMs: 5000, outbound: p });
    const lax = policy('private-ok');
    const strict = policy('public-only');
    expect(await counting(() => send(`http://private.test:${L.priv.port}/hook`, lax))).toMatchObject({
      result: { outcome: 'delivered', statusCode: 204 },
      hits: { ...none, priv: 1 },
    });
    for (const [url, p] of [
      [`http://meta.test:${L.meta.port}/hook`, lax],
      [`http://[::ffff:a9fe:a9fe]:${L.meta.port}/hook`, lax],
      [`http://private.test:${L.priv.port}/hook`, strict],
      [`http://127.0.0.1:${L.loop.port}/hook`, strict],
    ] as const) {
      const { result, hits } = await counting(() => send(url, p));
      expect(result, url).toMatchObject({ outcome: 'stop', statusCode: null });
      expect(result.error, url).toMatch(/^receiver refused: its address is /);
      expect(hits, url).toEqual(none);
    }
    // Redirects are not followed, so a refused address cannot be reached through one either.
    expect(
      (await send(`http://public.test:${L.pub.port}/to?url=${encodeURIComponent('http://169.254.169.254/')}`, lax))
        .outcome,
    ).toBe('stop');
  });

  it('provider result URLs obey the policy; a URL of the configured base (null policy) does not', async () => {
    const ctx = () => ({ signal: new AbortController().signal, workDir: tempDir('outbound-result-') });
    const fetchResult = (url: string, outbound: OutboundPolicy | null) =>
      downloadResult(url, 'fal.ai', ctx(), { outbound }).then(
        () => 'ok',
        (e: Error) => e.message,
      );
    expect(
      await counting(() => fetchResult(`http://public.test:${L.pub.port}/video.mp4`, policy('public-only'))),
    ).toEqual({ result: 'ok', hits: { ...none, pub: 1 } });
    const refused = await counting(() =>
      fetchResult(`http://meta.test:${L.meta.port}/video.mp4`, policy('private-ok')),
    );
    expect(refused.result).toMatch(
      /^fal\.ai returned a result address this server does not fetch: its address is link-local/,
    );
    expect(refused.hits).toEqual(none);
    const loopback = await counting(() =>
      fetchResult(`http://127.0.0.1:${L.loop.port}/video.mp4`, policy('public-only')),
    );
    expect(loopback.result).toMatch(/network\.outbound is "public-only"/);
    expect(loopback.hits).toEqual(none);
    // ComfyUI's /view on its configured 127.0.0.1 base: the person's own config, fetched in any mode.
    expect(await fetchResult(`http://127.0.0.1:${L.loop.port}/video.mp4`, null)).toBe('ok');
  });

  it('provider result URLs: what went wrong is told for a public address only', async () => {
    const ctx = () => ({ signal: new AbortController().signal, workDir: tempDir('outbound-result-') });
    const fetchResult = (url: string, opts: { maxBytes?: number } = {}) =>
      downloadResult(url, 'fal.ai', ctx(), { ...opts, outbound: policy('private-ok') }).then(
        () => 'ok',
        (e: Error) => e.message,
      );
    const at = (host: string, port: number) => `http://${host}:${port}`;
    expect(await fetchResult(`${at('public.test', L.pub.port)}/page.html`)).toBe(
      'The result from fal.ai is not a video (its content is not a video format).',
    );
    expect(await fetchResult(`${at('public.test', L.pub.port)}/gone.mp4`)).toBe(
      'Could not download the finished video from fal.ai: HTTP 404.',
    );
    expect(await fetchResult(`${at('public.test', L.pub.port)}/video.mp4`, { maxBytes: 100 })).toBe(
      'The video from fal.ai is larger than the 100 bytes allowed.',
    );
    const unfetchable =
      'Could not download the finished video from fal.ai: no video could be fetched from the address it gave.';
    for (const path of ['/page.html', '/gone.mp4'])
      expect(await fetchResult(`${at('private.test', L.priv.port)}${path}`)).toBe(unfetchable);
    expect(await fetchResult(`${at('private.test', L.priv.port)}/video.mp4`, { maxBytes: 100 })).toBe(unfetchable);
  });
});

describe('webhook_url refused at generate time', () => {
  let lax: TestServer;
  let strict: TestServer;
  beforeAll(async () => {
    lax = await startTestServer({}, { credits: 1000 });
    strict = await startTestServer({ network: { outbound: 'public-only' } }, { credits: 1000 });
  });
  afterAll(async () => {
    await lax?.close();
    await strict?.close();
  });
  const body = (webhook_url: string) => ({ variables: { scene: 'A long enough scene' }, webhook_url });

  it('a literal address the policy never allows is a 400 validation_error naming webhook_url; nothing is charged', async () => {
    const before = lax.core.credits.balance(lax.orgId);
    for (const url of [
      'http://169.254.169.254/latest/meta-data/',
      'http://[::ffff:169.254.169.254]/',
      'http://0.0.0.0:4780/hook',
      'http://metadata.google.internal/',
    ]) {
      const r = await generate(lax, 'text-to-video-cinematic', body(url));
      expect(r.status, url).toBe(400);
      expect(r.body).toEqual({
        error: 'validation_error',
        message: expect.stringMatching(/webhook_url: its (address|host) is/),
      });
    }
    expect(lax.core.credits.balance(lax.orgId)).toBe(before);
    // Loopback and private receivers are fine by default; names are checked when delivering.
    for (const url of ['http://127.0.0.1:9/hook', 'http://10.0.0.1/hook', 'https://hooks.example.com/cb'])
      expect((await generate(lax, 'text-to-video-cinematic', body(url))).status, url).toBe(200);
  });

  it('public-only refuses loopback and private literals too', async () => {
    for (const url of [
      'http://127.0.0.1:9/hook',
      'http://[::1]/hook',
      'http://10.0.0.1/hook',
      'http://[::ffff:a00:1]/',
    ]) {
      const r = await generate(strict, 'text-to-video-cinematic', body(url));
      expect(r.status, url).toBe(400);
      expect(r.body.message, url).toMatch(/webhook_url: its address is .* network\.outbound is "public-only"/);
    }
    expect((await generate(strict, 'text-to-video-cinematic', body('https://hooks.example.com/cb'))).status).toBe(200);
  });
});
