// Settings → Updates end to end: the built renderer in Chromium over the app's IPC channels, the desktop core in its
// own data folder, and the app's update service (core/desktop/update-service.ts) over a stand-in feed on 127.0.0.1
// (latest.yml and the installer it names). What a restart would cut off is asked of the real core: a generation
// whose render began. The only stand-in is the platform's install step (electron-updater), which records the restart.
// Each state the window says passes axe in light and dark at 1280x800 and 320 px, nothing scrolls sideways at 320 or
// 640 px; screenshots in test-results/screens/updates/.
import crypto from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { type Browser, type Locator, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { restartBlocker } from '../../src/main/core/desktop/restart-blockers.js';
import { UpdateService } from '../../src/main/core/desktop/update-service.js';
import { callRoute } from '../../src/main/core/http/in-process-api.js';
import type { UpdateSettings } from '../../src/shared/updates.schema.js';
import { launchTestBrowser } from '../helpers/browser.js';
import { tempDir } from '../helpers/temp-dir.js';
import { buildRenderer } from './support/build-renderer.js';
import { openWindow, SHOTS_DIR, startDesktopApp, type DesktopApp } from './support/desktop-app.js';
import { axeViolations, overflowsRight, screenshotsAtSizes, setScheme } from './support/layout-audit.js';
import { startRendererServer, type RendererServer } from './support/renderer-server.js';

const SHOTS = path.join(SHOTS_DIR, 'updates');
const INSTALLER = Buffer.from('MZ stand-in installer of Agent Studio 1.2.0 '.repeat(500));
const SHA512 = crypto.createHash('sha512').update(INSTALLER).digest('base64');

let app: DesktopApp;
let web: RendererServer;
let browser: Browser;
let feed: { url: string; asked: string[]; close(): Promise<void> };
const outDir = tempDir('agent-studio-updates-ui-');
const dirs: string[] = [];
const services: UpdateService[] = [];

async function startFeed(files: Record<string, Buffer | string>) {
  const asked: string[] = [];
  const server = http.createServer((req, res) => {
    const name = new URL(req.url ?? '/', 'http://x').pathname.replace(/^\/feed\//, '');
    asked.push(name);
    const body = files[name];
    if (body === undefined) res.writeHead(404).end();
    else res.writeHead(200).end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/feed/`,
    asked,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

beforeAll(async () => {
  fs.mkdirSync(SHOTS, { recursive: true });
  await buildRenderer(outDir);
  [app, web, feed] = await Promise.all([
    startDesktopApp(),
    startRendererServer({ dir: outDir }),
    startFeed({
      'latest.yml': stringify({
        version: '1.2.0',
        files: [{ url: 'agent-studio-setup-1.2.0.exe', sha512: SHA512, size: INSTALLER.length }],
        path: 'agent-studio-setup-1.2.0.exe',
        sha512: SHA512,
        releaseDate: '2026-12-01T10:00:00.000Z',
      }),
      'agent-studio-setup-1.2.0.exe': INSTALLER,
    }),
  ]);
  browser = await launchTestBrowser();
}, 120_000);
afterAll(async () => {
  for (const service of services) service.dispose();
  await browser?.close();
  await web?.close();
  await feed?.close();
  await app?.close();
  for (const dir of [outDir, ...dirs]) fs.rmSync(dir, { recursive: true, force: true });
});

/** The app's update service as electron/updater.ts makes it, over the stand-in feed; the install step recorded. */
function updates(settings: Partial<UpdateSettings>, currentVersion = '1.1.0') {
  const dir = tempDir('agent-studio-updates-');
  dirs.push(dir);
  const installs: string[] = [];
  const service = new UpdateService({
    currentVersion,
    dir,
    installation: { platform: 'win32', arch: 'x64' },
    settings: { policy: 'ask', channel: 'stable', feedUrl: feed.url, ...settings },
    checkEveryMs: 6 * 3_600_000,
    restartBlockedBy: () => restartBlocker(app.current().core),
    installer: { stage: async () => undefined, install: () => void installs.push('restart') },
    log: app.current().core.log,
  });
  services.push(service);
  return { service, installs };
}

const focused = (locator: Locator) =>
  locator.evaluate((el) => el === document.activeElement || el.contains(document.activeElement));

async function openUpdates(page: Page) {
  await page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: 'Settings' }).click();
  const section = page.getByRole('region', { name: 'Updates', exact: true });
  await section.getByTestId('update-status').waitFor();
  return { section, status: section.getByTestId('update-status'), outcome: section.getByTestId('update-outcome') };
}

async function inspect(page: Page, name: string, show: Locator) {
  for (const [width, height] of [
    [1280, 800],
    [320, 700],
  ] as const) {
    await page.setViewportSize({ width, height });
    for (const scheme of ['light', 'dark'] as const) {
      await setScheme(page, scheme);
      expect(await axeViolations(page), `axe: ${name} at ${width} px in ${scheme}`).toEqual([]);
    }
  }
  for (const width of [320, 640]) {
    await page.setViewportSize({ width, height: 700 });
    expect(await overflowsRight(page, '#main'), `${name}: scrolls sideways at ${width} px`).toEqual({ by: 0, out: [] });
  }
  await screenshotsAtSizes(
    page,
    SHOTS,
    name,
    [
      [1280, 800],
      [320, 700],
    ],
    { show },
  );
  await page.setViewportSize({ width: 1280, height: 800 });
}

describe('Settings → Updates', () => {
  it('tell me: checked, downloaded on request, and the restart disabled with the reason while a render runs', async () => {
    const { service, installs } = updates({ policy: 'ask' });
    const { page, context } = await openWindow(browser, app, web.url, { updates: service });
    try {
      const ui = await openUpdates(page);
      expect(await ui.status.innerText()).toBe('Not checked yet.');
      expect(await ui.section.getByRole('radio', { name: /^Tell me/ }).isChecked()).toBe(true);
      await ui.section.getByRole('button', { name: 'Check now' }).click();
      await ui.outcome.getByText(/^Version 1\.2\.0 is out \(checked at .+\)\.$/).waitFor();
      expect(await focused(ui.outcome)).toBe(true);
      await inspect(page, 'available', ui.section);

      await ui.section.getByRole('button', { name: 'Download version 1.2.0' }).click();
      await ui.outcome.getByText('Version 1.2.0 is ready: restart to install.').waitFor();
      expect(await ui.status.innerText()).toBe('Version 1.2.0 is ready: restart to install.');
      const restart = ui.section.getByRole('button', { name: 'Restart to install' });
      expect(await restart.isEnabled()).toBe(true);

      // a render begins (the render job picked up a generation): the restart would cut it off
      const made = await callRoute(app.current().desktop.api, 'generate', {
        params: { id: 'text-to-video-cinematic' },
        body: { variables: { scene: 'A lighthouse on a cliff at dusk' } },
      });
      const id = made.body.generations[0].generation_id;
      app.current().core.video.generations.forPipeline(id);
      await page.reload();
      const again = await openUpdates(page);
      const restartAgain = again.section.getByRole('button', { name: 'Restart to install' });
      await restartAgain.waitFor();
      expect(await restartAgain.isDisabled()).toBe(true);
      const why = again.section.getByTestId('update-restart-why');
      expect(await why.innerText()).toBe('Waiting for 1 video being made: the restart happens once it ends.');
      expect(await restartAgain.getAttribute('aria-describedby')).toBe('update-restart-why');
      await inspect(page, 'ready-waiting-for-render', again.section);

      // it ends (cancelled): the window hears it and the restart is offered again
      await callRoute(app.current().desktop.api, 'cancelGeneration', { params: { id } });
      await expect.poll(() => restartAgain.isEnabled()).toBe(true);
      expect(await why.count()).toBe(0);
      await restartAgain.click();
      await again.outcome.getByText('Restarting to install…').waitFor();
      expect(installs).toEqual(['restart']);
    } finally {
      await context.close();
    }
  });

  it('off is kept in config.json and fetches nothing; up to date and a failed check say so', async () => {
    const { service } = updates({ policy: 'ask' }, '1.2.0');
    const { page, context } = await openWindow(browser, app, web.url, { updates: service });
    try {
      const ui = await openUpdates(page);
      await ui.section.getByRole('button', { name: 'Check now' }).click();
      await ui.outcome.getByText(/^Up to date \(checked at .+\): 1\.2\.0 is the newest stable version\.$/).waitFor();
      await inspect(page, 'up-to-date', ui.section);

      await ui.section.getByRole('radio', { name: /^Off/ }).check();
      await ui.outcome.getByText('Saved: Off, stable releases.').waitFor();
      expect(await ui.status.innerText()).toBe('Updates are off: Agent Studio does not check for new versions.');
      expect(await ui.section.getByRole('button', { name: 'Check now' }).count()).toBe(0);
      const config = JSON.parse(fs.readFileSync(path.join(app.dataDir, 'config.json'), 'utf8')) as {
        updates: { policy: string; channel: string };
      };
      expect(config.updates).toEqual({ policy: 'off', channel: 'stable' });
      const asked = feed.asked.length;
      await page.reload();
      await openUpdates(page);
      expect(feed.asked.length).toBe(asked);
      await inspect(page, 'off', ui.section);
    } finally {
      await context.close();
    }

    const broken = updates({ policy: 'ask', feedUrl: `${feed.url}nothing-here/` }).service;
    const second = await openWindow(browser, app, web.url, { updates: broken });
    try {
      const ui = await openUpdates(second.page);
      await ui.section.getByRole('button', { name: 'Check now' }).click();
      const refused = ui.outcome.getByRole('alert');
      await refused.getByText(`Could not check: ${feed.url}nothing-here/latest.yml answered 404 Not Found`).waitFor();
      expect(await ui.status.innerText()).toMatch(/^Could not check: /);
      await inspect(second.page, 'could-not-check', ui.section);
    } finally {
      await second.context.close();
    }
  });
});
