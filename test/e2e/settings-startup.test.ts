// Settings → Start-up end to end: the built renderer in Chromium over the app's IPC channels, the desktop core in its
// own data folder, and start at login answered by the app's own channels (core/desktop/autostart-channels.ts). On
// Linux that is for real: the XDG autostart entry written into a temp XDG_CONFIG_HOME, read back from the file (a file
// turned off by hand shows as off), and removed when turned off. macOS and Windows answer through a stand-in of
// Electron's login items (a login item waiting for approval). What the box shows is what the OS says; the outcome of
// each change is in view and focused; each state passes axe-core in light and dark at 1280x800 and at 320 CSS px,
// nothing scrolls sideways at 320, 640 (200 % zoom) or 900 px; screenshots in test-results/screens/startup/.
import fs from 'node:fs';
import path from 'node:path';
import { type Browser, type Locator, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AutostartOs } from '../../src/main/core/desktop/autostart-channels.js';
import { FROM_SOURCE, type LoginItemFacts } from '../../src/main/core/desktop/autostart.js';
import { launchTestBrowser } from '../helpers/browser.js';
import { tempDir } from '../helpers/temp-dir.js';
import { buildRenderer } from './support/build-renderer.js';
import { openWindow, SHOTS_DIR, startDesktopApp, type DesktopApp } from './support/desktop-app.js';
import { axeViolations, overflowsRight, screenshotsAtSizes, setScheme } from './support/layout-audit.js';
import { startRendererServer, type RendererServer } from './support/renderer-server.js';

const SHOTS = path.join(SHOTS_DIR, 'startup');
/** A path with a space, as an installed app's often has (the Exec line must quote it). */
const EXECUTABLE = '/opt/Agent Studio/agent-studio';

let app: DesktopApp;
let web: RendererServer;
let browser: Browser;
const outDir = tempDir('agent-studio-startup-ui-');
const dirs: string[] = [];

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
  for (const dir of [outDir, ...dirs]) fs.rmSync(dir, { recursive: true, force: true });
});

/** An installed Linux app whose XDG_CONFIG_HOME is a new temp folder. */
function linux(over: Partial<AutostartOs> = {}): AutostartOs & { file: string } {
  const config = tempDir('agent-studio-startup-xdg-');
  dirs.push(config);
  return {
    platform: 'linux',
    env: { XDG_CONFIG_HOME: config },
    execPath: EXECUTABLE,
    packaged: true,
    home: config,
    loginItems: null,
    file: path.join(config, 'autostart', 'agent-studio.desktop'),
    ...over,
  };
}

const focused = (locator: Locator) =>
  locator.evaluate((el) => el === document.activeElement || el.contains(document.activeElement));

async function openStartup(page: Page) {
  await page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: 'Settings' }).click();
  const section = page.getByRole('region', { name: 'Start-up', exact: true });
  await section.waitFor();
  const box = section.getByRole('checkbox', { name: 'Start Agent Studio when I log in' });
  await box.waitFor();
  return {
    section,
    box,
    state: section.getByTestId('autostart-state'),
    outcome: section.getByTestId('autostart-outcome'),
  };
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
      [320, 700],
    ],
    { show },
  );
  await page.setViewportSize({ width: 1280, height: 800 });
}

describe('Settings → Start-up', () => {
  it('Linux: turned on writes the autostart entry, turned off removes it; a file turned off by hand reads as off', async () => {
    const os = linux();
    const { page, context } = await openWindow(browser, app, web.url, { autostart: os });
    try {
      let ui = await openStartup(page);
      expect(await ui.box.isChecked()).toBe(false);
      expect(await ui.state.innerText()).toBe(
        `Off: Agent Studio starts only when you open it. Kept in ${os.file}, which your desktop's list of startup applications shows.`,
      );
      await inspect(page, 'off', ui.section);

      await ui.box.check();
      await ui.outcome
        .getByText('Turned on: from your next login the system starts Agent Studio in the background.')
        .waitFor();
      expect(await focused(ui.outcome)).toBe(true);
      expect(await ui.box.isChecked()).toBe(true);
      const text = fs.readFileSync(os.file, 'utf8');
      expect(text).toContain(`\nExec="${EXECUTABLE}" --background\n`);
      expect(text).toContain('\nX-GNOME-Autostart-enabled=true\n');
      expect(await ui.state.innerText()).toMatch(/^On: the system starts Agent Studio at your next login\./);
      await inspect(page, 'on', ui.outcome);

      // turned off outside the app (GNOME's startup settings write this): the window shows what the file says
      fs.writeFileSync(os.file, text.replace('X-GNOME-Autostart-enabled=true', 'X-GNOME-Autostart-enabled=false'));
      await page.reload();
      ui = await openStartup(page);
      expect(await ui.box.isChecked()).toBe(false);
      const turnedOff = ui.section.getByRole('status').filter({ hasText: 'X-GNOME-Autostart-enabled=false' });
      await turnedOff.waitFor();
      await inspect(page, 'off-in-file', turnedOff);

      await ui.box.check();
      await ui.outcome.getByText(/^Turned on: /).waitFor();
      expect(fs.readFileSync(os.file, 'utf8')).toContain('\nX-GNOME-Autostart-enabled=true\n');
      // said once: the note went with the change
      expect(await turnedOff.count()).toBe(0);

      await ui.box.uncheck();
      await ui.outcome.getByText('Turned off: Agent Studio no longer starts when you log in.').waitFor();
      expect(await focused(ui.outcome)).toBe(true);
      expect(fs.existsSync(os.file)).toBe(false);
      expect(await ui.box.isChecked()).toBe(false);
    } finally {
      await context.close();
    }
  });

  it('a change the system refuses is said where it was made, and the box shows what the system says', async () => {
    const os = linux();
    // a file where the autostart folder should be: the entry cannot be written
    fs.mkdirSync(path.dirname(path.dirname(os.file)), { recursive: true });
    fs.writeFileSync(path.dirname(os.file), 'not a folder');
    const { page, context } = await openWindow(browser, app, web.url, { autostart: os });
    try {
      const ui = await openStartup(page);
      await ui.box.click();
      const refused = ui.outcome.getByRole('alert');
      await refused.getByText(/^The start at login could not be changed: /).waitFor();
      expect(await refused.getByText('Not on').count()).toBe(1);
      expect(await focused(ui.outcome)).toBe(true);
      await expect.poll(() => ui.box.isChecked()).toBe(false);
      await inspect(page, 'refused', ui.outcome);
    } finally {
      await context.close();
    }
  });

  it('a run from source cannot start at login: the box is off and disabled, and says why', async () => {
    const { page, context } = await openWindow(browser, app, web.url, { autostart: linux({ packaged: false }) });
    try {
      const ui = await openStartup(page);
      expect(await ui.box.isDisabled()).toBe(true);
      const why = ui.section.getByText(FROM_SOURCE);
      await why.waitFor();
      await inspect(page, 'from-source', why);
    } finally {
      await context.close();
    }
  });

  it('Windows: a Run key value turned off in Task Manager reads as off; turning it on here turns it on again', async () => {
    const exe = 'C:\\Users\\ada\\AppData\\Local\\Programs\\Agent Studio\\Agent Studio.exe';
    // Electron's answer as documented: the value is there with these arguments, and Task Manager turned it off
    let approved = false;
    const windows: AutostartOs = {
      platform: 'win32',
      env: {},
      execPath: exe,
      packaged: true,
      home: 'C:\\Users\\ada',
      loginItems: {
        get: ({ args }) => ({
          openAtLogin: args.join(' ') === '--background',
          executableWillLaunchAtLogin: approved,
        }),
        set: ({ openAtLogin }) => void (approved = openAtLogin),
      },
    };
    const { page, context } = await openWindow(browser, app, web.url, { autostart: windows });
    try {
      const ui = await openStartup(page);
      expect(await ui.box.isChecked()).toBe(false);
      expect(await ui.state.innerText()).toMatch(
        /Listed in Task Manager → Startup apps \(the value is in HKEY_CURRENT_USER\\Software\\Microsoft\\Windows\\CurrentVersion\\Run\)\.$/,
      );
      const turnedOff = ui.section.getByRole('status').filter({ hasText: 'Turned off in Task Manager' });
      await turnedOff.waitFor();
      await inspect(page, 'windows-off-in-task-manager', ui.section);
      await ui.box.check();
      await ui.outcome.getByText(/^Turned on: /).waitFor();
      expect(await ui.box.isChecked()).toBe(true);
    } finally {
      await context.close();
    }
  });

  it('macOS: a login item waiting for approval is not on, and the outcome says where to allow it', async () => {
    let facts: LoginItemFacts = { openAtLogin: false, status: 'not-registered' };
    const mac: AutostartOs = {
      platform: 'darwin',
      env: {},
      execPath: '/Applications/Agent Studio.app/Contents/MacOS/Agent Studio',
      packaged: true,
      home: '/Users/ada',
      loginItems: {
        get: () => facts,
        set: ({ openAtLogin }) => {
          facts = openAtLogin
            ? { openAtLogin: true, status: 'requires-approval' }
            : { openAtLogin: false, status: 'not-registered' };
        },
      },
    };
    const { page, context } = await openWindow(browser, app, web.url, { autostart: mac });
    try {
      const ui = await openStartup(page);
      expect(await ui.state.innerText()).toBe(
        'Off: Agent Studio starts only when you open it. Listed in System Settings → General → Login Items.',
      );
      await ui.box.click();
      const waiting = ui.outcome.getByRole('alert');
      await waiting.getByText(/macOS waits for your approval: in System Settings → General → Login Items/).waitFor();
      expect(await focused(ui.outcome)).toBe(true);
      expect(await ui.box.isChecked()).toBe(false);
      await inspect(page, 'mac-approval', ui.outcome);
    } finally {
      await context.close();
    }
  });
});
