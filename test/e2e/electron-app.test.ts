// The desktop app end to end: the real Electron binary runs the electron-vite build (out/), with its own
// data folder and a free API port, through Playwright's Electron driver. Skipped, saying why, where no
// Electron binary is installed (it is downloaded by electron's install script, which may be impossible).
import fs from 'node:fs';
import path from 'node:path';
import { _electron, type ElectronApplication, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findOnPath } from '../../src/main/electron/system-tools.js';
import { tempDir } from '../helpers/temp-dir.js';
import { startXvfb, type VirtualDisplay } from './support/xvfb.js';

const ROOT = path.resolve(import.meta.dirname, '..', '..');

/** The Electron binary, found without require('electron'), which tries to download a missing one. */
function electronBinary(): { path: string } | { reason: string } {
  const dir = path.join(ROOT, 'node_modules', 'electron');
  const pathFile = path.join(dir, 'path.txt');
  const rel = fs.existsSync(pathFile) ? fs.readFileSync(pathFile, 'utf8').trim() : '';
  const bin = rel && path.join(process.env.ELECTRON_OVERRIDE_DIST_PATH ?? path.join(dir, 'dist'), rel);
  if (bin && fs.existsSync(bin)) return { path: bin };
  return { reason: `no Electron binary in ${path.relative(ROOT, dir)} (its download did not happen)` };
}

const found = electronBinary();
const needsDisplay = process.platform === 'linux' && !process.env.DISPLAY && !process.env.WAYLAND_DISPLAY;
const skipReason =
  'reason' in found
    ? found.reason
    : needsDisplay && !findOnPath('Xvfb', process.env, process.platform)
      ? 'no display and no Xvfb to make one'
      : null;
if (skipReason) console.warn(`test/e2e/electron-app.test.ts skipped: ${skipReason}`);

describe.skipIf(skipReason !== null)(`Electron app${skipReason ? ` (skipped: ${skipReason})` : ''}`, () => {
  let dataDir: string;
  let xvfb: VirtualDisplay | null = null;
  let app: ElectronApplication;
  let page: Page;

  beforeAll(async () => {
    const main = path.join(ROOT, 'out', 'main', 'index.js');
    if (!fs.existsSync(main)) throw new Error(`${main} is missing: run npx electron-vite build first (npm test does)`);
    dataDir = tempDir('agent-studio-electron-');
    if (needsDisplay) xvfb = await startXvfb();
    const env: Record<string, string> = {};
    for (const [k, v] of Object.entries(process.env)) if (v !== undefined) env[k] = v;
    delete env.ELECTRON_RUN_AS_NODE;
    delete env.ELECTRON_RENDERER_URL;
    Object.assign(env, {
      AGENT_STUDIO_DATA_DIR: dataDir,
      AGENT_STUDIO_PORT: '0',
      // No keychain question: the encrypted-file secret store, with its key generated in the data dir.
      AGENT_STUDIO_SECRETS_BACKEND: 'file',
      ...(xvfb ? { DISPLAY: xvfb.display } : {}),
    });
    app = await _electron.launch({
      executablePath: (found as { path: string }).path,
      // Chromium refuses to start as root with its OS sandbox (CI containers); the renderer's own
      // sandbox (webPreferences.sandbox) is what this test checks and stays on.
      args: [...(process.getuid?.() === 0 ? ['--no-sandbox'] : []), ROOT],
      env,
      timeout: 60_000,
    });
    page = await app.firstWindow();
    await page.waitForFunction(() => document.documentElement.dataset.appReady === 'true', undefined, {
      timeout: 60_000,
    });
  });

  afterAll(async () => {
    await app?.close().catch(() => undefined);
    await xvfb?.stop();
    if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('opens the window on the app:// page with its title and sidebar', async () => {
    expect(page.url()).toBe('app://renderer/index.html');
    expect(await page.title()).toBe('Agent Studio');
    const nav = page.getByRole('navigation', { name: 'Main' });
    await nav.waitFor();
    for (const label of ['Sessions', 'Templates', 'Generate', 'Generations', 'Characters', 'Uploads', 'Settings'])
      expect(await nav.getByRole('button', { name: label }).count(), label).toBe(1);
  });

  it('gives the page the named-function bridge, no Node, and no new windows', async () => {
    const globals = await page.evaluate(() => ({
      bridge: typeof (globalThis as Record<string, unknown>).agentStudio,
      frozen: Object.isFrozen((globalThis as Record<string, unknown>).agentStudio),
      require: typeof (globalThis as Record<string, unknown>).require,
      process: typeof (globalThis as Record<string, unknown>).process,
    }));
    expect(globals).toEqual({ bridge: 'object', frozen: true, require: 'undefined', process: 'undefined' });
    // The window-open handler denies every window (and hands only https links to the OS browser).
    expect(await page.evaluate(() => window.open('app://renderer/index.html') === null)).toBe(true);
    expect(await app.evaluate(({ BrowserWindow }) => BrowserWindow.getAllWindows().length)).toBe(1);
  });

  it('quits cleanly and remembers the window size for the next start', async () => {
    const bounds = await app.evaluate(({ BrowserWindow }) => BrowserWindow.getAllWindows()[0]!.getNormalBounds());
    await app.close();
    const settings = JSON.parse(fs.readFileSync(path.join(dataDir, 'settings.json'), 'utf8')) as {
      window?: { width: number; height: number };
    };
    expect(settings.window).toMatchObject({ width: bounds.width, height: bounds.height });
  });
});
