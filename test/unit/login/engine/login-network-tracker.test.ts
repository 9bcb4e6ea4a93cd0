import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BrowserPool } from '../../../../src/main/core/login/browser-pool.js';
import { resolveBrowserExecutable } from '../../../../src/main/core/login/browser-resolver.js';
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
    res.writeHead(200, { 'content-type': 'text/html' });
    res.end(req.url === '/home' ? '<h1>Home</h1>' : '<form method="post"><button>Sign in</button></form>');
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
});
