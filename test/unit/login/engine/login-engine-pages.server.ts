// The set-up shared by login-engine-pages-*.test.ts: a BrowserPool, a LoginEngine and a loopback server whose
// routes each test sets to the hand-made pages it needs.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll } from 'vitest';
import { BrowserPool } from '../../../../src/main/core/login/browser/browser-pool.js';
import { resolveBrowserExecutable } from '../../../../src/main/core/login/browser/browser-resolver.js';
import {
  LoginEngine,
  type EngineLoginRequest,
  type LoginResult,
} from '../../../../src/main/core/login/flow/login-engine.js';

export const WRONG_PASSWORD = 'Tr0ub4dor&3-wrong';
let pool: BrowserPool;
const engine = new LoginEngine({});

type Handler = (req: IncomingMessage, res: ServerResponse, body: URLSearchParams) => void;
let server: Server;
/** http://127.0.0.1:PORT of the page server (set in its beforeAll). */
export let base = '';
/** The same server as another origin: http://localhost:PORT. */
export let altBase = '';
export const routes = new Map<string, Handler>();

export function html(res: ServerResponse, body: string, status = 200, headers: Record<string, string> = {}): void {
  res.writeHead(status, { 'content-type': 'text/html; charset=utf-8', ...headers });
  res.end(`<!doctype html><html><head><meta charset="utf-8"><title>t</title></head><body>${body}</body></html>`);
}

export function redirect(res: ServerResponse, location: string, cookie?: string): void {
  res.writeHead(303, { location, ...(cookie ? { 'set-cookie': cookie } : {}) });
  res.end();
}

export function login(req: EngineLoginRequest, signal?: AbortSignal): Promise<LoginResult> {
  return pool.withContext((ctx) => engine.login(ctx, req, signal));
}

export function explain(r: LoginResult): string {
  return r.ok ? 'ok' : `${r.reason}: ${r.message}\n${r.steps.join('\n')}`;
}

/** Starts the browser pool and the page server before the file's tests and stops them after. */
export function usePageServer(): void {
  beforeAll(async () => {
    pool = new BrowserPool({ executablePath: resolveBrowserExecutable({}).path, maxContexts: 2 });
    server = createServer((req, res) => {
      let raw = '';
      req.on('data', (c) => (raw += c));
      req.on('end', () => {
        const handler = routes.get(new URL(req.url ?? '/', 'http://x').pathname);
        if (handler) handler(req, res, new URLSearchParams(raw));
        else html(res, 'not found', 404);
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const port = (server.address() as AddressInfo).port;
    base = `http://127.0.0.1:${port}`;
    altBase = `http://localhost:${port}`; // same server, another origin (still loopback)
  });

  afterAll(async () => {
    await pool?.dispose();
    server?.closeAllConnections();
    await new Promise<void>((r) => server?.close(() => r()));
  });
}

export const LOGIN_FORM = `<form method="post" action="/c/do-login"><h1>Sign in</h1><label>Email <input type="email" name="email"></label>
  <label>Password <input type="password" name="password"></label><button>Sign in</button></form>`;
