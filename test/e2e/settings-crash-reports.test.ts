// Settings → Crash reports end to end: the built renderer in Chromium over the app's IPC channels, the desktop core in
// its own data folder. The section says where the dumps are kept (the data folder's crashes/, the path the Electron
// glue gives crashReporter), that nothing is sent, what a dump may hold, how many there are (read from the folder),
// and opens that folder (the one the main process knows, whatever the page asks). axe in light and dark at 1280x800
// and 320 px, no sideways scroll; screenshots in test-results/screens/crash-reports/.
import fs from 'node:fs';
import path from 'node:path';
import { type Browser, type Locator, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { crashDumpsDir } from '../../src/main/core/desktop/crash-reports.js';
import { launchTestBrowser } from '../helpers/browser.js';
import { tempDir } from '../helpers/temp-dir.js';
import { buildRenderer } from './support/build-renderer.js';
import { openWindow, SHOTS_DIR, startDesktopApp, type DesktopApp } from './support/desktop-app.js';
import { axeViolations, overflowsRight, screenshotsAtSizes, setScheme } from './support/layout-audit.js';
import { startRendererServer, type RendererServer } from './support/renderer-server.js';

const SHOTS = path.join(SHOTS_DIR, 'crash-reports');

let app: DesktopApp;
let web: RendererServer;
let browser: Browser;
const outDir = tempDir('agent-studio-crashes-ui-');

beforeAll(async () => {
  fs.mkdirSync(SHOTS, { recursive: true });
  await buildRenderer(outDir);
  [app, web] = await Promise.all([startDesktopApp(), startRendererServer({ dir: outDir })]);
  browser = await launchTestBrowser();
}, 120_000);
afterAll(async () => {
  await browser?.close();
  await web?.close();
  await app?.close();
  fs.rmSync(outDir, { recursive: true, force: true });
});

const focused = (locator: Locator) =>
  locator.evaluate((el) => el === document.activeElement || el.contains(document.activeElement));

async function openCrashReports(page: Page): Promise<Locator> {
  await page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: 'Settings' }).click();
  const section = page.getByRole('region', { name: 'Crash reports', exact: true });
  await section.getByRole('button', { name: 'Open the crash reports folder' }).waitFor();
  return section;
}

/** axe in both schemes at 1280x800 and at 320 px, no sideways scroll at 320 and 640 px, screenshots. */
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

describe('Settings → Crash reports', () => {
  it('says where dumps are kept, that none is sent and what one may hold; counts them; opens only their folder', async () => {
    const folder = crashDumpsDir(app.dataDir);
    const { page, context, bridge } = await openWindow(browser, app, web.url);
    try {
      let section = await openCrashReports(page);
      expect(await section.getByTestId('crash-reports-where').innerText()).toBe(
        `Kept in ${folder}, in your data folder. No report is uploaded or sent: if you want help with a crash, you choose what to share.`,
      );
      expect(await section.getByTestId('crash-reports-contents').innerText()).toMatch(
        /copy of the memory of the part of the app that crashed\. It may include a password, a code or a cookie that was in use/,
      );
      expect(await section.getByTestId('crash-reports-count').innerText()).toBe(
        'No crash reports: Agent Studio has not crashed here.',
      );
      await inspect(page, 'none', section);

      // Crashpad files a dump under completed/ (or pending/) of its database in that folder
      fs.mkdirSync(path.join(folder, 'completed'), { recursive: true });
      fs.writeFileSync(path.join(folder, 'completed', '5d3c6a1e-0000-4000-8000-000000000001.dmp'), 'MDMP');
      fs.mkdirSync(path.join(folder, 'pending'), { recursive: true });
      fs.writeFileSync(path.join(folder, 'pending', '5d3c6a1e-0000-4000-8000-000000000002.dmp'), 'MDMP');
      await page.reload();
      section = await openCrashReports(page);
      expect(await section.getByTestId('crash-reports-count').innerText()).toMatch(
        /^2 crash reports, the newest from .+\.$/,
      );

      await section.getByRole('button', { name: 'Open the crash reports folder' }).click();
      const outcome = section.getByTestId('crash-reports-outcome');
      await outcome.getByText('Opened the crash reports folder in your file manager.').waitFor();
      expect(await focused(outcome)).toBe(true);
      expect(bridge.openedFolders).toEqual([folder]);
      await inspect(page, 'two-reports', outcome);

      // the channel takes no path: one from the page is refused before it reaches the handler
      const refused = await page.evaluate(() =>
        (
          window as unknown as {
            agentStudio: {
              channels: Record<string, (a: unknown) => Promise<{ ok: boolean; error?: { code: string } }>>;
            };
          }
        ).agentStudio.channels['crashes:openFolder']({ path: '/etc' }),
      );
      expect(refused.ok).toBe(false);
      expect(bridge.openedFolders).toEqual([folder]);
    } finally {
      await context.close();
    }
  });
});
