// Each signal by which the open-source BotD detector (the real package) and the usual client checks tell an automated
// browser, read in the login browser as the product launches it (BrowserPool's default arguments): every one says "a
// person's browser". Without the one switch that hides automation, BotD's webdriver detection fires: the check can fail.
import { detectors } from '@fingerprintjs/botd';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BrowserPool } from '../../../../src/main/core/login/browser/browser-pool.js';
import { defaultLaunchArgs } from '../../../../src/main/core/login/browser/chromium-args.js';
import { resolveBrowserExecutable } from '../../../../src/main/core/login/browser/browser-resolver.js';
import { decideSandbox, sandboxFacts } from '../../../../src/main/core/login/browser/chromium-sandbox.js';
import { startBotWall, type FixtureSite } from '../../../fixtures/sites/index.js';

interface Reading {
  detections: Record<string, { bot: boolean; botKind?: string }>;
  client: Record<string, unknown>;
}

/** Runs in the page: BotD's detections, and the common client checks an automated browser fails. */
const READ_IN_PAGE = `(async () => {
  const { load } = await import('/assets/botd.esm.js');
  const botd = await load({ monitoring: false });
  botd.detect();
  const perm = await navigator.permissions.query({ name: 'notifications' });
  const uaData = navigator.userAgentData;
  // The Runtime-domain probe: a console message whose error's stack getter runs only if a debugger serializes it.
  let serialized = false;
  const probe = new Error('probe');
  Object.defineProperty(probe, 'stack', { get() { serialized = true; return ''; } });
  console.debug(probe);
  await new Promise((r) => setTimeout(r, 50));
  return {
    detections: botd.getDetections(),
    client: {
      webdriver: navigator.webdriver,
      headlessUserAgent: /headless/i.test(navigator.userAgent) || /headless/i.test(navigator.appVersion),
      headlessBrand: !!(uaData && uaData.brands.some((b) => /headless/i.test(b.brand))),
      windowChrome: typeof window.chrome === 'object',
      plugins: navigator.plugins.length > 0,
      mimeTypes: navigator.mimeTypes.length > 0,
      languages: navigator.languages.length > 0,
      notificationsConsistent: !(Notification.permission === 'denied' && perm.state === 'prompt'),
      outerSize: window.outerWidth > 0 && window.outerHeight > 0,
      roundTripTime: ((navigator.connection && navigator.connection.rtt) ?? 1) > 0,
      debuggerSerializesConsole: serialized,
    },
  };
})()`;

/** BotD's detections and the common client checks, read on the wall's sign-in page in a context of `pool`. */
function read(pool: BrowserPool, site: FixtureSite): Promise<Reading> {
  return pool.withContext(async (ctx) => {
    const page = await ctx.newPage();
    await page.goto(site.loginUrl);
    // A string, not a function: vitest would rewrite the page's import() into its own loader.
    return page.evaluate(READ_IN_PAGE) as Promise<Reading>;
  });
}

describe('the login browser, as bot detectors read it', () => {
  let site: FixtureSite;
  let pool: BrowserPool;
  let reading: Reading;
  beforeAll(async () => {
    site = await startBotWall();
    pool = new BrowserPool({ executablePath: resolveBrowserExecutable({}).path, maxContexts: 1 });
    reading = await read(pool, site);
  });
  afterAll(() => Promise.all([pool?.dispose(), site?.close()]));

  it('BotD runs every one of its detectors here', () => {
    expect(Object.keys(reading.detections).sort()).toEqual(Object.keys(detectors).sort());
  });

  it.each(Object.keys(detectors))('BotD %s: not a bot', (name) => {
    expect(reading.detections[name]).toEqual({ bot: false });
  });

  it.each([
    ['webdriver', false],
    ['headlessUserAgent', false],
    ['headlessBrand', false],
    ['windowChrome', true],
    ['plugins', true],
    ['mimeTypes', true],
    ['languages', true],
    ['notificationsConsistent', true],
    ['outerSize', true],
    ['roundTripTime', true],
    ['debuggerSerializesConsole', false],
  ])('client check %s reads %s', (check, expected) => {
    expect(reading.client[check]).toBe(expected);
  });

  it('without the switch that hides automation, BotD calls it a headless Chrome (the check can fail)', async () => {
    const executablePath = resolveBrowserExecutable({}).path;
    const args = defaultLaunchArgs(decideSandbox(sandboxFacts(executablePath))).filter(
      (a) => !a.includes('AutomationControlled'),
    );
    const bare = new BrowserPool({ executablePath, launchArgs: args, maxContexts: 1 });
    try {
      const r = await read(bare, site);
      expect(r.detections.detectWebDriver).toEqual({ bot: true, botKind: 'headless_chrome' });
      expect(r.client.webdriver).toBe(true);
    } finally {
      await bare.dispose();
    }
  });
});
