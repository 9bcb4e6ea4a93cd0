import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { chromium, type BrowserServer } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSite, type FixtureSite } from '../../../fixtures/sites/index.js';
import { TEST_BROWSER_ARGS } from '../../../helpers/browser.js';
import { resolveBrowserExecutable } from '../../../../src/main/core/login/browser/browser-resolver.js';
import { startTestServer, tempDir } from '../../../helpers/test-server.js';

const body = (site: FixtureSite, extra: Record<string, unknown> = {}) => ({
  cred: { username: site.credentials.username, password: site.credentials.password },
  domain: site.loginUrl,
  useCache: false,
  ...extra,
});

describe('browser options of the login service', () => {
  let site: FixtureSite;
  beforeAll(async () => {
    site = await startSite('error-inline');
  });
  afterAll(() => site.close());

  it('logs in through a remote browser endpoint (Playwright server) instead of launching one', async () => {
    const remote: BrowserServer = await chromium.launchServer({
      executablePath: resolveBrowserExecutable({}).path,
      args: TEST_BROWSER_ARGS,
      host: '127.0.0.1',
    });
    const t = await startTestServer({ browser: { connectEndpoint: remote.wsEndpoint() } });
    try {
      const res = await t.request('/api/login', { method: 'POST', json: body(site) });
      expect(res.status).toBe(200);
      expect((await res.json()).cookies.length).toBeGreaterThan(0);
    } finally {
      await t.close();
      await remote.close();
    }
  });

  it('answers 503 BROWSER_NOT_FOUND naming what to install when the configured browser is missing', async () => {
    const t = await startTestServer({ browser: { executablePath: '/nonexistent/chrome' } });
    try {
      const res = await t.request('/api/login', { method: 'POST', json: body(site) });
      expect(res.status).toBe(503);
      const err = await res.json();
      expect(err.error).toBe('BROWSER_NOT_FOUND');
      expect(err.message).toMatch(/executablePath|install/i);
      // the rest of the API keeps working
      expect((await t.request('/api/credits')).status).toBe(200);
    } finally {
      await t.close();
    }
  });

  /**
   * A browser "executable" that dies of SIGSEGV at its first `crashes` starts (as Chromium itself now and then does
   * while it starts) and is the real browser afterwards: a shell script counting its starts in a file.
   */
  function crashingBrowser(crashes: number): string {
    const dir = tempDir('crashing-browser-');
    const script = path.join(dir, 'chrome');
    fs.writeFileSync(
      script,
      [
        '#!/bin/sh',
        `n=$(cat "${dir}/starts" 2>/dev/null || echo 0); n=$((n + 1)); echo $n > "${dir}/starts"`,
        `if [ $n -le ${crashes} ]; then kill -SEGV $$; fi`,
        `exec "${resolveBrowserExecutable({}).path}" "$@"`,
      ].join('\n'),
      { mode: 0o755 },
    );
    return script;
  }

  it('starts the browser once more when it crashes while starting, and the login answers as usual', async () => {
    const executablePath = crashingBrowser(1);
    const t = await startTestServer({ browser: { executablePath } });
    try {
      const res = await t.request('/api/login', { method: 'POST', json: body(site) });
      expect(res.status).toBe(200);
      expect(fs.readFileSync(path.join(path.dirname(executablePath), 'starts'), 'utf8').trim()).toBe('2');
    } finally {
      await t.close();
    }
  });

  it('answers 503 BROWSER_UNAVAILABLE when the browser crashes at every start (never a 500)', async () => {
    const executablePath = crashingBrowser(1_000);
    const t = await startTestServer({ browser: { executablePath } });
    try {
      const res = await t.request('/api/login', { method: 'POST', json: body(site) });
      expect(res.status).toBe(503);
      const err = await res.json();
      expect(err).toMatchObject({ error: 'BROWSER_UNAVAILABLE' });
      expect(err.message).toMatch(/could not start \(twice in a row\)/);
      expect(fs.readFileSync(path.join(path.dirname(executablePath), 'starts'), 'utf8').trim()).toBe('2');
    } finally {
      await t.close();
    }
  });

  it('queues logins beyond maxContexts and still completes them all', async () => {
    const t = await startTestServer({ browser: { maxContexts: 1 } });
    try {
      const answers = await Promise.all(
        ['a', 'b', 'c'].map((tag) =>
          t.request('/api/login', { method: 'POST', json: body(site, { additionalFields: { note: tag } }) }),
        ),
      );
      expect(answers.map((a) => a.status)).toEqual([200, 200, 200]);
      expect(new Set(answers.map((a) => a.headers.get('x-session-id'))).size).toBe(3); // three distinct fresh logins (different additionalFields)
    } finally {
      await t.close();
    }
  });

  it('stops a login that never finishes at login.timeoutMs with 504 LOGIN_TIMEOUT', async () => {
    const hanging = http.createServer((req, res) => {
      if (req.method === 'POST') return; // never answers
      res.setHeader('content-type', 'text/html');
      res.end(
        '<form method="post"><input name="user" autocomplete="username"><input type="password" name="pass"><button>Log in</button></form>',
      );
    });
    await new Promise<void>((r) => hanging.listen(0, '127.0.0.1', r));
    const t = await startTestServer({ login: { timeoutMs: 4000 } });
    try {
      const res = await t.request('/api/login', {
        method: 'POST',
        json: {
          cred: { username: 'u@example.com', password: 'pw' },
          domain: `http://127.0.0.1:${(hanging.address() as AddressInfo).port}/login`,
        },
      });
      expect(res.status).toBe(504);
      expect(await res.json()).toMatchObject({ error: 'LOGIN_TIMEOUT', details: { reason: 'timeout' } });
    } finally {
      await t.close();
      hanging.closeAllConnections();
      hanging.close();
    }
  });
});
