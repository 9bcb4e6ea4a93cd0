import http from 'node:http';
import net, { type LookupFunction } from 'node:net';
import type { Duplex } from 'node:stream';
import { checkedLookup } from './outbound-http.js';
import { normalizeHost, outboundRefusal, type OutboundPolicy } from './outbound-policy.js';

/**
 * A forward proxy on 127.0.0.1 that makes a browser obey the outbound policy: the login browser is
 * launched with it as its only proxy (browser-pool.ts), so every request a page makes (the page itself,
 * subresources, redirects, fetch, WebSockets) arrives here and is connected only to an address the policy
 * checked. HTTPS and WebSockets come as CONNECT host:port (a tunnel, nothing decrypted); plain HTTP comes
 * as absolute-form requests (`GET http://host/path`), forwarded here. Names are resolved by the policy and
 * the socket connects to the checked address, so a rebinding answer gains nothing, as in outbound-http.ts.
 */
export interface OutboundProxy {
  /** `http://127.0.0.1:<port>`, for Chromium's --proxy-server. */
  readonly url: string;
  /** Stops listening and drops every open connection (tunnels included). */
  close(): Promise<void>;
}

export interface OutboundProxyOptions {
  /** How long connecting to a site may take before the browser is told it failed. Default 30 s. */
  connectTimeoutMs?: number;
}

// The text a refused request answers; the same for every reason, so that a page learns nothing of the
// addresses names resolve to in the server's network beyond "refused".
const REFUSED = "Refused by this server's outbound policy (network.outbound).\n";
// CONNECT failures: Chromium shows any non-2xx CONNECT answer as net::ERR_TUNNEL_CONNECTION_FAILED.
const FAILED = 'The proxy could not connect to the site.\n';

// RFC 9110 7.6.1: meaningful for one connection only, never forwarded (proxy-* too: they are ours).
const HOP_BY_HOP = new Set([
  'connection',
  'keep-alive',
  'proxy-connection',
  'proxy-authenticate',
  'proxy-authorization',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
]);

/** rawHeaders without hop-by-hop ones (and those the Connection header names); order and repeats kept. */
function endToEnd(raw: string[]): string[] {
  const named = new Set<string>();
  for (let i = 0; i < raw.length; i += 2)
    if (raw[i].toLowerCase() === 'connection')
      for (const token of raw[i + 1].split(',')) named.add(token.trim().toLowerCase());
  const kept: string[] = [];
  for (let i = 0; i < raw.length; i += 2) {
    const name = raw[i].toLowerCase();
    if (!HOP_BY_HOP.has(name) && !named.has(name)) kept.push(raw[i], raw[i + 1]);
  }
  return kept;
}

/**
 * Where to connect for a host: the host itself when it is an address (the policy checked it), else the
 * name with a lookup that answers only the policy's checked (dial) addresses. Throws the policy's refusal.
 */
async function checkedTarget(policy: OutboundPolicy, host: string): Promise<{ host: string; lookup?: LookupFunction }> {
  const checked = await policy.resolve(host);
  const bare = normalizeHost(host);
  if (net.isIP(bare)) return { host: bare };
  return { host: bare, lookup: checkedLookup(checked) };
}

/** A minimal HTTP/1.1 answer written straight to a socket (CONNECT is answered before any HTTP framing). */
function rawAnswer(socket: Duplex, status: 403 | 502 | 400, text: string): void {
  const reason = http.STATUS_CODES[status];
  socket.end(
    `HTTP/1.1 ${status} ${reason}\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(text)}\r\n` +
      `Cache-Control: no-store\r\nConnection: close\r\n\r\n${text}`,
  );
}

export async function startOutboundProxy(
  policy: OutboundPolicy,
  opts: OutboundProxyOptions = {},
): Promise<OutboundProxy> {
  const connectTimeoutMs = opts.connectTimeoutMs ?? 30_000;
  // Tunnels leave the HTTP server's bookkeeping once CONNECT is answered: tracked here for close().
  const sockets = new Set<net.Socket | Duplex>();
  const track = (s: net.Socket | Duplex) => {
    sockets.add(s);
    s.once('close', () => sockets.delete(s));
    s.on('error', () => {});
  };

  const server = http.createServer((req, res) => {
    void forward(req, res);
  });

  async function forward(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const answer = (status: 403 | 400, text: string) => {
      res.writeHead(status, { 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'no-store' }).end(text);
    };
    // A site that cannot be reached (no such name, refused, timed out, reset) is told by closing the
    // connection without an answer: Chromium reports a network error (net::ERR_EMPTY_RESPONSE), as it would
    // without a proxy, where a 502 would read as a page the site served (the login engine and the session
    // check tell "unreachable" from "answered 5xx" by that). Once the answer has begun, the same cut ends it.
    const unreachable = (): void => void res.socket?.destroy();
    let url: URL;
    try {
      url = new URL(req.url ?? '');
    } catch {
      return answer(400, 'This proxy takes absolute-form http:// requests only.\n');
    }
    if (url.protocol !== 'http:' || url.username || url.password)
      return answer(400, 'This proxy takes absolute-form http:// requests only.\n');
    let target: Awaited<ReturnType<typeof checkedTarget>>;
    try {
      target = await checkedTarget(policy, url.hostname);
    } catch (err) {
      return outboundRefusal(err) ? answer(403, REFUSED) : unreachable();
    }
    const upstream = http.request({
      host: target.host,
      port: url.port || 80,
      lookup: target.lookup,
      method: req.method,
      path: url.pathname + url.search,
      headers: endToEnd(req.rawHeaders),
      // The browser's own Host header is forwarded as it came; no pooled socket skips the policy.
      setHost: false,
      agent: false,
      timeout: connectTimeoutMs,
    });
    upstream.once('socket', (s) => {
      track(s);
      // The time-out is for connecting only: a slow response (a long poll) is the site's business.
      s.once('connect', () => upstream.setTimeout(0));
    });
    upstream.once('timeout', () => upstream.destroy(new Error('connect timeout')));
    upstream.once('error', unreachable);
    upstream.once('response', (up) => {
      res.writeHead(up.statusCode ?? 502, up.statusMessage, endToEnd(up.rawHeaders));
      up.pipe(res);
      up.once('error', unreachable);
    });
    // The browser gave up (navigated away, closed the page): stop talking to the site too.
    res.once('close', () => {
      if (!res.writableFinished) upstream.destroy();
    });
    req.pipe(upstream);
  }

  server.on('connect', (req: http.IncomingMessage, client: Duplex, head: Buffer) => {
    track(client);
    void tunnel(req.url ?? '', client, head);
  });

  async function tunnel(authority: string, client: Duplex, head: Buffer): Promise<void> {
    let url: URL | null = null;
    try {
      url = new URL(`http://${authority}`);
    } catch {
      /* answered below */
    }
    if (!url || url.pathname !== '/' || url.search || url.username || !/:\d+$/.test(authority))
      return rawAnswer(client, 400, 'CONNECT takes host:port.\n');
    let target: Awaited<ReturnType<typeof checkedTarget>>;
    try {
      target = await checkedTarget(policy, url.hostname);
    } catch (err) {
      return rawAnswer(client, outboundRefusal(err) ? 403 : 502, outboundRefusal(err) ? REFUSED : FAILED);
    }
    if (client.destroyed) return;
    const upstream = net.connect({ host: target.host, port: Number(url.port || 80), lookup: target.lookup });
    track(upstream);
    upstream.setTimeout(connectTimeoutMs, () => upstream.destroy(new Error('connect timeout')));
    const onFailure = () => rawAnswer(client, 502, FAILED);
    upstream.once('error', onFailure);
    client.once('close', () => upstream.destroy());
    upstream.once('connect', () => {
      upstream.setTimeout(0);
      upstream.off('error', onFailure);
      upstream.once('close', () => client.destroy());
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      if (head.length) upstream.write(head);
      upstream.pipe(client);
      client.pipe(upstream);
    });
  }

  server.on('connection', track);
  // A browser keeps idle connections to its proxy open; the default 5 s would just make it reconnect.
  server.keepAliveTimeout = 60_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as net.AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}
