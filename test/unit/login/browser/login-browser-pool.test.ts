import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, describe, expect, it } from 'vitest';
import { BrowserPool, PoolDisposedError } from '../../../../src/main/core/login/browser/browser-pool.js';
import { defaultLaunchArgs, playwrightEnabledFeatures } from '../../../../src/main/core/login/browser/chromium-args.js';
import { resolveBrowserExecutable } from '../../../../src/main/core/login/browser/browser-resolver.js';
import { startSite } from '../../../fixtures/sites/index.js';

// One pool for the whole file; the last test disposes it.
const pool = new BrowserPool({ executablePath: resolveBrowserExecutable({}).path, maxContexts: 2 });

afterAll(async () => {
  await pool.dispose();
});

function deferred(): { promise: Promise<void>; resolve: () => void } {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => (resolve = r));
  return { promise, resolve };
}

/** Resolves once `cond` holds, checking on each macrotask turn (no fixed sleeps). */
async function until(cond: () => boolean, what: string): Promise<void> {
  const end = Date.now() + 20_000;
  while (!cond()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

/** Browser (chromium) processes that are direct children of this test process. */
function chromiumChildren(): number[] {
  if (process.platform !== 'linux') return [];
  const out = execFileSync('ps', ['-o', 'pid=,comm=', '--ppid', String(process.pid)], { encoding: 'utf8' }).trim();
  return out
    .split('\n')
    .map((l) => l.trim().split(/\s+/))
    .filter(([, comm]) => comm && /chrom/i.test(comm))
    .map(([pid]) => Number(pid));
}

/** A process and all of its descendants (Linux /proc). */
function descendants(root: number): number[] {
  const children = new Map<number, number[]>();
  for (const d of fs.readdirSync('/proc').filter((n) => /^\d+$/.test(n))) {
    try {
      const stat = fs.readFileSync(`/proc/${d}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      children.set(ppid, [...(children.get(ppid) ?? []), Number(d)]);
    } catch {
      // exited meanwhile
    }
  }
  const out: number[] = [];
  for (const stack = [root]; stack.length;) {
    const pid = stack.pop()!;
    out.push(pid);
    stack.push(...(children.get(pid) ?? []));
  }
  return out;
}

/** Chromium's `--type=` of a process (with `--utility-sub-type=`), `browser` when it has none. */
function processType(pid: number): string {
  let cmd = '';
  try {
    cmd = fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8');
  } catch {
    return 'exited';
  }
  const type = /--type=([^\s\0]+)/.exec(cmd)?.[1];
  const sub = /--utility-sub-type=([^\s\0]+)/.exec(cmd)?.[1];
  return type ? (sub ? `${type}:${sub}` : type) : 'browser';
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

describe('BrowserPool', () => {
  it('runs at most maxContexts contexts at once, FIFO, sharing one lazily launched browser', async () => {
    expect(pool.stats()).toEqual({ running: 0, queued: 0, launched: false });
    let current = 0;
    let max = 0;
    const started: number[] = [];
    const gates = Array.from({ length: 5 }, () => deferred());
    const browsers = new Set<Browser>();
    const tasks = gates.map((gate, i) =>
      pool.withContext(async (ctx) => {
        current++;
        max = Math.max(max, current);
        started.push(i);
        browsers.add(ctx.browser()!);
        const page = await ctx.newPage();
        await page.setContent(`<p>task ${i}</p>`);
        await gate.promise;
        current--;
        return page.textContent('p');
      }),
    );
    await until(() => started.length === 2, 'two tasks to start');
    expect(pool.stats()).toMatchObject({ running: 2, queued: 3, launched: true });
    for (const gate of gates) {
      gate.resolve();
      await until(() => started.length === 5 || current < 2, 'a slot to be handed on');
    }
    const results = await Promise.all(tasks);
    expect(results).toEqual(['task 0', 'task 1', 'task 2', 'task 3', 'task 4']);
    expect(max).toBe(2);
    expect(started).toEqual([0, 1, 2, 3, 4]);
    expect(browsers.size).toBe(1);
    // Contexts close after the answers (not awaited by the callers); their slots free once they have.
    await until(() => pool.stats().running === 0, 'the contexts to close');
    expect(pool.stats()).toMatchObject({ running: 0, queued: 0 });
  });

  it('gives each call a fresh context and closes it afterwards, also on error', async () => {
    let first: import('playwright-core').BrowserContext | undefined;
    await pool.withContext(async (ctx) => {
      first = ctx;
      await ctx.addCookies([{ name: 'a', value: 'b', url: 'http://127.0.0.1/' }]);
    });
    await expect(
      pool.withContext(async (ctx) => {
        expect(ctx).not.toBe(first);
        expect(await ctx.cookies()).toEqual([]);
        throw new Error('boom');
      }),
    ).rejects.toThrow('boom');
    await until(() => pool.stats().running === 0, 'the contexts to close');
    expect(first!.pages()).toEqual([]);
    expect(pool.stats()).toMatchObject({ running: 0, queued: 0 });
  });

  it('lets a queued caller give up with an AbortSignal', async () => {
    const gates = [deferred(), deferred()];
    const holders = gates.map((g) => pool.withContext(() => g.promise));
    await until(() => pool.stats().running === 2, 'slots to fill');
    const controller = new AbortController();
    const waiting = pool.withContext(async () => 'never', { signal: controller.signal });
    await until(() => pool.stats().queued === 1, 'the caller to queue');
    controller.abort(new Error('caller gave up'));
    await expect(waiting).rejects.toThrow('caller gave up');
    expect(pool.stats().queued).toBe(0);
    gates.forEach((g) => g.resolve());
    await Promise.all(holders);
    const pre = new AbortController();
    pre.abort();
    await expect(pool.withContext(async () => 1, { signal: pre.signal })).rejects.toBeDefined();
  });

  it('relaunches the browser after it was closed', async () => {
    const before = await pool.withContext(async (ctx) => {
      const b = ctx.browser()!;
      await b.close();
      return b;
    });
    expect(pool.stats().launched).toBe(false);
    const after = await pool.withContext(async (ctx) => {
      const page = await ctx.newPage();
      await page.setContent('<b>again</b>');
      expect(await page.textContent('b')).toBe('again');
      return ctx.browser()!;
    });
    expect(after).not.toBe(before);
    expect(pool.stats().launched).toBe(true);
  });

  it('relaunches the browser after a crash', async () => {
    await pool.withContext(async (ctx) => {
      const browser = ctx.browser()!;
      const disconnected = new Promise<void>((r) => browser.once('disconnected', () => r()));
      const session = await browser.newBrowserCDPSession();
      await session.send('Browser.crash').catch(() => {});
      await disconnected;
    });
    const text = await pool.withContext(async (ctx) => {
      const page = await ctx.newPage();
      await page.setContent('<i>alive</i>');
      return page.textContent('i');
    });
    expect(text).toBe('alive');
  });

  it.skipIf(process.platform !== 'linux')(
    'runs the browser and the renderers it starts later below the app’s priority (nice 10), the app unchanged',
    async () => {
      const niceOf = (tid: number | string, pid = tid) => {
        const s = fs.readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8');
        return Number(s.slice(s.lastIndexOf(')') + 2).split(' ')[16]);
      };
      const tree = (root: number): number[] => {
        const all = fs
          .readdirSync('/proc')
          .filter((e) => /^\d+$/.test(e))
          .flatMap((pid) => {
            try {
              const s = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
              return [[Number(pid), Number(s.slice(s.lastIndexOf(')') + 2).split(' ')[1])] as const];
            } catch {
              return [];
            }
          });
        const out = [root];
        for (let i = 0; i < out.length; i++) for (const [pid, ppid] of all) if (ppid === out[i]) out.push(pid);
        return out;
      };
      // A page open, so a renderer forked after the launch is in the tree.
      await pool.withContext(async (ctx) => {
        const page = await ctx.newPage();
        await page.setContent('<p>renderer</p>');
        const [browserPid] = chromiumChildren();
        expect(tree(browserPid).length).toBeGreaterThan(2);
        // Chromium raises some threads itself where it may (as root): the pool puts them back while logins run.
        const everyThreadLowered = () =>
          tree(browserPid).every((pid) => {
            try {
              return fs.readdirSync(`/proc/${pid}/task`).every((tid) => niceOf(tid, pid) === 10);
            } catch {
              return true; // ended meanwhile
            }
          });
        await until(everyThreadLowered, 'every thread of the browser tree at nice 10');
      });
      expect(niceOf(process.pid)).toBe(0);
    },
  );

  it('uses sandbox-less args only where the sandbox cannot run', () => {
    expect(defaultLaunchArgs({ sandbox: false })).toContain('--no-sandbox');
    expect(defaultLaunchArgs({ sandbox: true })).not.toContain('--no-sandbox');
    expect(defaultLaunchArgs({ sandbox: true })).toEqual(
      expect.arrayContaining([
        '--disable-gpu',
        '--disable-background-networking',
        '--disable-component-update',
        '--no-first-run',
        '--disable-sync',
      ]),
    );
  });

  it("keeps Playwright's disabled features in its single --disable-features switch (Chromium honours only the last one)", () => {
    const switches = defaultLaunchArgs({ sandbox: true }).filter((a) => a.startsWith('--disable-features='));
    expect(switches).toHaveLength(1);
    const ours = switches[0].slice('--disable-features='.length).split(',');
    expect(ours).toEqual(
      expect.arrayContaining(['WebUIOmniboxPopup', 'WebUIOmniboxAimPopup', 'SpareRendererForSitePerProcess']),
    );
    // The list of the installed playwright-core (`disabledFeatures = [...]` in its bundle).
    const pkg = createRequire(import.meta.url).resolve('playwright-core/package.json');
    const bundle = fs.readFileSync(path.join(path.dirname(pkg), 'lib', 'coreBundle.js'), 'utf8');
    const literal = /disabledFeatures = \[([\s\S]*?)\]\.filter/.exec(bundle)?.[1];
    expect(
      literal,
      'playwright-core changed how it lists its disabled features: update PLAYWRIGHT_DISABLED_FEATURES',
    ).toBeDefined();
    const theirs = [...literal!.replace(/\/\/.*$/gm, '').matchAll(/"([A-Za-z0-9]+)"/g)].map((m) => m[1]);
    expect(theirs.length).toBeGreaterThan(5);
    expect(ours).toEqual(expect.arrayContaining(theirs));
  });

  it('runs the GPU and the network service inside the browser process only where there is no sandbox', () => {
    const unsandboxed = defaultLaunchArgs({ sandbox: false });
    const sandboxed = defaultLaunchArgs({ sandbox: true });
    expect(unsandboxed).toContain('--in-process-gpu');
    expect(sandboxed).not.toContain('--in-process-gpu');
    expect(sandboxed.filter((a) => a.startsWith('--enable-features='))).toEqual([]);
    const enables = unsandboxed.filter((a) => a.startsWith('--enable-features='));
    expect(enables).toHaveLength(1);
    const ours = enables[0].slice('--enable-features='.length).split(',');
    expect(ours).toContain('NetworkServiceInProcess2');
    // Playwright's own list (`enabledFeatures = () => [...]` in its bundle) is repeated: only the last switch counts.
    const pkg = createRequire(import.meta.url).resolve('playwright-core/package.json');
    const bundle = fs.readFileSync(path.join(path.dirname(pkg), 'lib', 'coreBundle.js'), 'utf8');
    const literal = /enabledFeatures = \(\) => \[([\s\S]*?)\]\.filter/.exec(bundle)?.[1];
    expect(
      literal,
      'playwright-core changed how it lists its enabled features: update playwrightEnabledFeatures',
    ).toBeDefined();
    const theirs = [...literal!.replace(/\/\/.*$/gm, '').matchAll(/"([A-Za-z0-9]+)"/g)].map((m) => m[1]);
    expect(theirs.length).toBeGreaterThan(0);
    expect(ours).toEqual(expect.arrayContaining(theirs));
    expect(playwrightEnabledFeatures({ PLAYWRIGHT_LEGACY_SCREENSHOT: '1' })).not.toContain('CDPScreenshotNewSurface');
  });

  it.runIf(process.platform === 'linux' && (process.getuid?.() === 0 || !!process.env.CI))(
    'an unsandboxed browser has no GPU or network-service process, and its pages still have WebGL and the network',
    async () => {
      const site = await startSite('classic-csrf');
      try {
        const seen = await pool.withContext(async (ctx) => {
          const page = await ctx.newPage();
          await page.goto(site.loginUrl);
          const webgl = await page.evaluate(() => !!document.createElement('canvas').getContext('webgl'));
          const types = chromiumChildren().flatMap((pid) => descendants(pid).map(processType));
          return { webgl, types, title: await page.title() };
        });
        expect(seen.webgl).toBe(true);
        expect(seen.title).not.toBe('');
        expect(seen.types).toContain('renderer');
        expect(seen.types).not.toContain('gpu-process');
        expect(seen.types.filter((t) => t.includes('NetworkService'))).toEqual([]);
      } finally {
        await site.close();
      }
    },
  );

  it('dispose closes the browser, leaves no chromium process and rejects new work', async () => {
    await pool.withContext(async (ctx) => (await ctx.newPage()).setContent('<p>x</p>'));
    const pids = chromiumChildren();
    if (process.platform === 'linux') expect(pids.length).toBeGreaterThan(0);
    await pool.dispose();
    expect(pool.stats()).toEqual({ running: 0, queued: 0, launched: false });
    await until(() => pids.every((pid) => !alive(pid)), 'chromium to exit');
    expect(chromiumChildren()).toEqual([]);
    await expect(pool.withContext(async () => 1)).rejects.toBeInstanceOf(PoolDisposedError);
  });
});
