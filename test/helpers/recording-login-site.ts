// A login site that records every request it receives (method, URL, body), for tests that prove where a saved
// login's secrets went — or did not go. node:http on 127.0.0.2 (another origin than the fixture sites on 127.0.0.1;
// 127.0.0.1 when the machine does not route 127.0.0.2). A plain sign-in form: POST /login with the right username and
// password sets a session cookie and redirects to /app. With `token`, GET /login shows the form only when the URL's
// query carries `invite=<token>` (a login link a site mailed): a login that opened the URL without it finds no form.
import crypto from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface RecordedRequest {
  method: string;
  url: string;
  body: string;
}

export interface RecordingLoginSite {
  origin: string;
  /** The login page (with `?invite=<token>` when the site has a token). */
  loginUrl: string;
  credentials: { username: string; password: string };
  requests: RecordedRequest[];
  /** Every recorded request as text (method, URL, headers' cookie, body), to search for secrets in. */
  transcript(): string;
  close(): Promise<void>;
}

const page = (title: string, main: string) =>
  `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${title}</title></head><body><main>${main}</main></body></html>`;

const form = (action: string, error = '') =>
  page(
    'Sign in',
    `<h1>Sign in to Ledger</h1>${error ? `<p role="alert">${error}</p>` : ''}
<form method="post" action="${action}">
<label for="email">Email</label> <input id="email" name="username" type="email" autocomplete="username">
<label for="password">Password</label> <input id="password" name="password" type="password" autocomplete="current-password">
<button type="submit">Sign in</button>
</form>`,
  );

export async function startRecordingLoginSite(opts: { token?: string } = {}): Promise<RecordingLoginSite> {
  const credentials = { username: 'ada@ledger.test', password: `ledger-${crypto.randomBytes(8).toString('hex')}` };
  const sessions = new Set<string>();
  const requests: RecordedRequest[] = [];
  const transcript: string[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      requests.push({ method: req.method ?? '', url: req.url ?? '', body });
      transcript.push(`${req.method} ${req.url}\ncookie: ${req.headers.cookie ?? ''}\n${body}`);
      const url = new URL(req.url ?? '/', 'http://site');
      const sid = /(?:^|;\s*)sid=([^;]+)/.exec(req.headers.cookie ?? '')?.[1];
      const send = (status: number, html: string, headers: http.OutgoingHttpHeaders = {}) => {
        res.writeHead(status, { 'content-type': 'text/html; charset=utf-8', ...headers });
        res.end(html);
      };
      if (url.pathname === '/login' && req.method === 'GET') {
        if (opts.token && url.searchParams.get('invite') !== opts.token)
          return send(404, page('Not found', '<h1>This sign-in link is not valid</h1>'));
        return send(200, form(`/login${url.search}`));
      }
      if (url.pathname === '/login' && req.method === 'POST') {
        const fields = new URLSearchParams(body);
        if (fields.get('username') !== credentials.username || fields.get('password') !== credentials.password)
          return send(200, form(`/login${url.search}`, 'Wrong email or password.'));
        const id = crypto.randomBytes(16).toString('hex');
        sessions.add(id);
        return send(302, '', { location: '/app', 'set-cookie': `sid=${id}; HttpOnly; Path=/; SameSite=Lax` });
      }
      if (url.pathname === '/app' && sid && sessions.has(sid))
        return send(
          200,
          page('Dashboard', '<h1>Dashboard</h1><p>Signed in to Ledger.</p><a href="/logout">Sign out</a>'),
        );
      if (url.pathname === '/app') return send(302, '', { location: '/login' });
      send(404, page('Not found', '<h1>Not found</h1>'));
    });
  });
  const host = await new Promise<string>((resolve, reject) => {
    const tryListen = (h: string, fallback?: string) => {
      server.once('error', (err) => (fallback ? tryListen(fallback) : reject(err)));
      server.listen(0, h, () => resolve(h));
    };
    tryListen('127.0.0.2', '127.0.0.1');
  });
  const origin = `http://${host}:${(server.address() as AddressInfo).port}`;
  return {
    origin,
    loginUrl: `${origin}/login${opts.token ? `?invite=${encodeURIComponent(opts.token)}` : ''}`,
    credentials,
    requests,
    transcript: () => transcript.join('\n\n'),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
