import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BrowserPool } from '../../../../src/main/core/login/browser/browser-pool.js';
import { resolveBrowserExecutable } from '../../../../src/main/core/login/browser/browser-resolver.js';
import { NetworkTracker } from '../../../../src/main/core/login/engine/network-tracker.js';

let pool: BrowserPool;
let server: Server;
let base = '';

beforeAll(async () => {
  pool = new BrowserPool({ executablePath: resolveBrowserExecutable({}).path, maxContexts: 1 });
  server = createServer((req, res) => {
    if (req.method === 'POST') {
      res.writeHead(302, { location: '/home' }).end();
      return;
    }
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    if (path === '/long-poll') return; // held open until the page goes away
    if (path.startsWith('/api/')) {
      setTimeout(() => res.writeHead(200, { 'content-type': 'application/json' }).end('{}'), 20);
      return;
    }
    res.writeHead(200, { 'content-type': 'text/html' });
    if (path === '/console') {
      res.end(`<h1>Console</h1><script>
        setInterval(() => fetch('/api/status?_dc=' + Date.now()), 100);
        fetch('/long-poll');
      </script>`);
      return;
    }
    if (path === '/boot') {
      // A boot that fetches three items of one endpoint at once: not polling.
      res.end(`<script>Promise.all([1, 2, 3].map((n) => fetch('/api/items/' + n)));</script>`);
      return;
    }
    res.end(path === '/home' ? '<h1>Home</h1>' : '<form method="post"><button>Sign in</button></form>');
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await pool?.dispose();
  await new Promise<void>((r) => server?.close(() => r()));
});

describe('NetworkTracker', () => {
  it('counts a document that answered with a redirect as a navigation still under way', async () => {
    await pool.withContext(async (ctx) => {
      const page = await ctx.newPage();
      const net = new NetworkTracker(page);
      try {
        await page.goto(base);
        // Registered after the tracker's own listener: what the engine would see when it wakes.
        const pendingWhenPostFinished = new Promise<boolean>((resolve) =>
          page.on('requestfinished', (r) => {
            if (r.method() === 'POST') resolve(net.documentPending());
          }),
        );
        await page.click('button');
        expect(await pendingWhenPostFinished).toBe(true);
        await page.waitForURL(`${base}/home`);
        await expect.poll(() => net.documentPending()).toBe(false);
      } finally {
        net.dispose();
      }
    });
  });

  it('recognises polling and a long poll, and is quiet while the page only does those', async () => {
    await pool.withContext(async (ctx) => {
      const page = await ctx.newPage();
      const net = new NetworkTracker(page);
      try {
        await page.goto(`${base}/console`);
        await expect.poll(() => net.isPolling(), { timeout: 5000 }).toBe(true);
        // The long poll stays open and the status requests go on, yet the page counts as quiet.
        await expect.poll(() => net.isQuiet(300), { timeout: 8000 }).toBe(true);
        const requests = net.requestCount();
        await page.waitForTimeout(500);
        expect(net.requestCount()).toBe(requests);
        expect(net.isQuiet(300)).toBe(true);
        // Anything else the page does still counts.
        await page.evaluate(() => void fetch('/api/other'));
        await expect.poll(() => net.requestCount()).toBe(requests + 1);
      } finally {
        net.dispose();
      }
    });
  });

  it('does not take a boot that fetches several items of one endpoint at once for polling', async () => {
    await pool.withContext(async (ctx) => {
      const page = await ctx.newPage();
      const net = new NetworkTracker(page);
      try {
        await page.goto(`${base}/boot`);
        await expect.poll(() => net.requestCount()).toBeGreaterThanOrEqual(4); // the document and the three items
        expect(net.isPolling()).toBe(false);
      } finally {
        net.dispose();
      }
    });
  });
});
