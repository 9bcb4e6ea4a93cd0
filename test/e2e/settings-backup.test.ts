// Settings → Backup end to end: the built renderer in Chromium over the app's IPC channels, the desktop core
// (electron/lifecycle.ts startCore) in its own data folder, and the OS dialogs as stand-ins the test answers. A backup
// made now opens with its passphrase (restored with a real core); a schedule writes its first backup into the chosen
// folder at once; a restore goes into a new, empty folder the person picks, refuses a wrong passphrase without
// touching it, and asks the app to start again there. Each state passes axe-core in light and dark at 1280x800 and at
// 320 CSS px, nothing scrolls sideways at 320, 640 (200 % zoom) or 900 px, and the outcome of each action is in view
// and focused; screenshots in test-results/screens/backup/.
import fs from 'node:fs';
import path from 'node:path';
import { type Browser, type Locator, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { restoreBackup } from '../../src/main/core/backup/restore-backup.js';
import { parseConfig } from '../../src/main/core/config/load-config.js';
import { createCore } from '../../src/main/core/create-core.js';
import { launchTestBrowser } from '../helpers/browser.js';
import { tempDir } from '../helpers/temp-dir.js';
import { buildRenderer } from './support/build-renderer.js';
import { openWindow, SHOTS_DIR, startDesktopApp, type DesktopApp } from './support/desktop-app.js';
import { axeViolations, overflowsRight, screenshotsAtSizes, setScheme } from './support/layout-audit.js';
import { startRendererServer, type RendererServer } from './support/renderer-server.js';

const SHOTS = path.join(SHOTS_DIR, 'backup');
const PASSPHRASE = 'a passphrase for this test';

let app: DesktopApp;
let web: RendererServer;
let browser: Browser;
const outDir = tempDir('agent-studio-backup-ui-');
const saveDir = tempDir('agent-studio-backup-saved-');
/** Made by the first test, restored by the last. */
let madeFile: string | null = null;

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
});

const section = (page: Page) => page.getByRole('region', { name: 'Backup', exact: true });
const focused = (locator: Locator) =>
  locator.evaluate((el) => el === document.activeElement || el.contains(document.activeElement));

async function openBackup(page: Page): Promise<Locator> {
  await page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: 'Settings' }).click();
  const s = section(page);
  await s.waitFor();
  return s;
}

/** axe in both schemes at 1280x800 and at 320 px (no sideways scroll), and screenshots, scrolled to `show`. */
async function inspect(page: Page, name: string, show: Locator) {
  for (const size of [
    [1280, 800],
    [320, 700],
  ] as const) {
    await page.setViewportSize({ width: size[0], height: size[1] });
    for (const scheme of ['light', 'dark'] as const) {
      await setScheme(page, scheme);
      expect(await axeViolations(page), `axe: ${name} at ${size[0]} px in ${scheme}`).toEqual([]);
    }
  }
  expect(await overflowsRight(page, '#main'), `${name}: scrolls sideways at 320 px`).toEqual({ by: 0, out: [] });
  // 900 px wide, and a 1280x800 window at 200 % zoom (640x400 CSS px): nothing sideways there either
  for (const [width, height] of [
    [900, 800],
    [640, 400],
  ] as const) {
    await page.setViewportSize({ width, height });
    expect(await overflowsRight(page, '#main'), `${name}: scrolls sideways at ${width} px`).toEqual({ by: 0, out: [] });
  }
  await screenshotsAtSizes(
    page,
    SHOTS,
    name,
    [
      [1280, 800],
      [900, 800],
      [640, 400],
      [320, 700],
    ],
    { show },
  );
  await page.setViewportSize({ width: 1280, height: 800 });
}

describe('Settings → Backup', () => {
  it('backs up now into the file the person picks; the file opens with its passphrase', async () => {
    const { page, context } = await openWindow(browser, app, web.url, {
      chooseSavePath: (name) => path.join(saveDir, name),
    });
    try {
      const s = await openBackup(page);
      const now = s.getByRole('form', { name: 'Back up now' });
      await now.getByRole('button', { name: 'Back up…' }).click();
      await now.getByText('At least 12 characters (this one has 0).').waitFor();
      await now.getByLabel(/^Passphrase( \*)?$/).fill(PASSPHRASE);
      await now.getByLabel(/^Passphrase again( \*)?$/).fill(`${PASSPHRASE}!`);
      await now.getByRole('button', { name: 'Back up…' }).click();
      await now.getByText('The two passphrases differ.').waitFor();
      expect(fs.readdirSync(saveDir)).toEqual([]);

      await now.getByLabel(/^Passphrase again( \*)?$/).fill(PASSPHRASE);
      await now.getByRole('button', { name: 'Back up…' }).click();
      const outcome = now.getByTestId('backup-now-outcome');
      await outcome.getByText(/^Backup saved to /).waitFor();
      expect(await focused(outcome)).toBe(true);
      const [name] = fs.readdirSync(saveDir);
      expect(name).toMatch(/^agent-studio-backup-\d{4}-\d{2}-\d{2}\.asb$/);
      madeFile = path.join(saveDir, name);
      expect(await outcome.innerText()).toContain(madeFile);
      await inspect(page, 'backed-up', outcome);

      // the file is a real backup: a fresh data folder made from it has this organization and its secrets
      const target = path.join(tempDir(), 'restored');
      const done = await restoreBackup({
        file: madeFile,
        dataDir: target,
        passphrase: PASSPHRASE,
        openTarget: async (staging) =>
          createCore(parseConfig({ dataDir: staging, log: { level: 'silent' }, secrets: { backend: 'file' } })),
      });
      expect(done.secrets).toBeGreaterThan(0);
      expect(done.stillMissing).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it('turns on scheduled backups into a folder: the first one is made at once; turning off keeps the files', async () => {
    const folder = tempDir('agent-studio-backup-folder-');
    const { page, context } = await openWindow(browser, app, web.url, { chooseFolder: () => folder });
    try {
      const s = await openBackup(page);
      const form = s.getByRole('form', { name: 'Scheduled backups' });
      await expect.poll(() => form.getByTestId('backup-schedule-state').innerText()).toBe('Off.');
      await form.getByRole('button', { name: 'Choose folder…' }).click();
      await expect.poll(() => form.getByTestId('backup-folder').innerText()).toBe(folder);
      await form.getByLabel('Backups to keep').fill('2');
      await form.getByLabel(/^Passphrase( \*)?$/).fill(PASSPHRASE);
      await form.getByLabel(/^Passphrase again( \*)?$/).fill(PASSPHRASE);
      await form.getByRole('button', { name: 'Turn on' }).click();
      const outcome = form.getByTestId('backup-schedule-outcome');
      await outcome.getByText(/^Schedule saved\. The first backup is in /).waitFor();
      expect(await focused(outcome)).toBe(true);
      const made = fs.readdirSync(folder);
      expect(made).toHaveLength(1);
      expect(made[0]).toMatch(/^agent-studio-backup-\d{4}-\d{2}-\d{2}T\d{2}-\d{2}-\d{2}Z\.asb$/);
      expect(await form.getByTestId('backup-schedule-state').innerText()).toMatch(
        new RegExp(
          `^On: every day into ${folder.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}, the newest 2 kept\\. Last: .*Next: `,
        ),
      );
      await inspect(page, 'scheduled', outcome);

      await form.getByRole('button', { name: 'Turn off' }).click();
      await outcome.getByText('Scheduled backups are off; the files made stay.').waitFor();
      await expect.poll(() => form.getByTestId('backup-schedule-state').innerText()).toBe('Off.');
      expect(fs.readdirSync(folder)).toEqual(made);
    } finally {
      await context.close();
    }
  });

  it('restores into a new, empty folder: a wrong passphrase changes nothing; then the app starts again there', async () => {
    expect(madeFile, 'the first test made a backup').not.toBeNull();
    const target = tempDir('agent-studio-backup-target-');
    const { page, context, bridge } = await openWindow(browser, app, web.url, {
      chooseOpenPath: () => madeFile,
      chooseFolder: () => target,
    });
    try {
      const s = await openBackup(page);
      const form = s.getByRole('form', { name: 'Restore' });
      await form.getByRole('button', { name: 'Choose a backup…' }).click();
      await expect
        .poll(() => form.getByTestId('backup-inspected').innerText())
        .toMatch(
          new RegExp(
            `^${path.basename(madeFile!)}: made .* by Agent Studio \\d+\\.\\d+\\.\\d+; \\d+ files, .*, \\d+ secrets\\.$`,
          ),
        );
      await form.getByLabel(/^Its passphrase( \*)?$/).fill('not the passphrase at all');
      await form.getByRole('button', { name: 'Restore into a new folder…' }).click();
      const outcome = form.getByTestId('backup-restore-outcome');
      await outcome
        .getByRole('alert')
        .getByText(/the passphrase does not open this backup/)
        .waitFor();
      expect(await focused(outcome)).toBe(true);
      expect(fs.readdirSync(target)).toEqual([]);
      await inspect(page, 'restore-refused', outcome);

      await form.getByLabel(/^Its passphrase( \*)?$/).fill(PASSPHRASE);
      await form.getByRole('button', { name: 'Restore into a new folder…' }).click();
      await outcome
        .getByText(new RegExp(`^Restored into ${target.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}: `))
        .waitFor();
      expect(fs.readdirSync(target)).toContain('agent-studio.db');
      // the secrets went where this app keeps its own (its store: the encrypted file in this desktop's settings)
      expect(app.current().core.secrets.backend).toBe('file');
      expect(fs.readdirSync(target)).toEqual(expect.arrayContaining(['secrets.enc.json', 'secrets.key']));
      await inspect(page, 'restored', outcome);
      await form.getByRole('button', { name: 'Open the restored data' }).click();
      await expect.poll(() => bridge.relaunched).toEqual([target]);
    } finally {
      await context.close();
    }
  });
});
