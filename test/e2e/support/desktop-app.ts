// The desktop app's main process without Electron: the real startCore (electron/lifecycle.ts, which
// imports no Electron at run time) in its own data folder, held by the real CoreHost (restarted when
// settings change), and the built renderer in Chromium behind the IPC bridge that answers every
// channel with the app's own handlers. What Electron alone does (dialogs, the clipboard, the tray) is
// a stand-in the test reads.
import fs from 'node:fs';
import path from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { CoreHost } from '../../../src/main/core/desktop/core-host.js';
import { startCore, type RunningCore } from '../../../src/main/electron/lifecycle.js';
import type { Settings, SettingsStore } from '../../../src/main/electron/settings.js';
import { tempDir } from '../../helpers/temp-dir.js';
import { installIpcBridge, type IpcBridge, type IpcBridgeOptions } from './ipc-bridge.js';
import { memoryThemeStore } from './desktop-host.js';

/** electron-store's interface over memory (the app keeps these in settings.json). */
function memorySettings(): SettingsStore {
  let value: Settings = {
    secretsBackend: 'file',
    keepRunningInTray: true,
    missingToolsNoticed: [],
    theme: 'system',
  };
  return { get: () => value, update: (patch) => (value = { ...value, ...patch }) };
}

export interface DesktopApp {
  dataDir: string;
  host: CoreHost<RunningCore>;
  theme: ReturnType<typeof memoryThemeStore>;
  current(): RunningCore;
  close(): Promise<void>;
}

/**
 * Starts the app's core as the desktop does, in a new data folder with this config.json; `prepare` puts what the
 * folder holds before the start (a data dir moved from another computer, say).
 */
export async function startDesktopApp(
  config: Record<string, unknown> = {},
  opts: { prepare?: (dataDir: string) => Promise<void> } = {},
): Promise<DesktopApp> {
  const dataDir = tempDir('agent-studio-desktop-');
  await opts.prepare?.(dataDir);
  // Rendering paused (nothing here renders) and a free port, unless the test says otherwise.
  const file = { server: { port: 0 }, jobs: { renderConcurrency: 0 }, ...config };
  fs.writeFileSync(path.join(dataDir, 'config.json'), JSON.stringify(file, null, 2));
  const settings = memorySettings();
  const host = new CoreHost<RunningCore>(() =>
    startCore({ dataDir, settings, askWithoutKeychain: async () => 'quit' }),
  );
  if (!(await host.init())) throw new Error('the desktop core did not start');
  return {
    dataDir,
    host,
    theme: memoryThemeStore(),
    current: () => host.current(),
    async close() {
      await host.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

export interface OpenWindow {
  page: Page;
  context: BrowserContext;
  bridge: IpcBridge;
  /** Console errors and page errors seen so far. */
  problems: string[];
}

/** The renderer at 1280x800 over the app's channels (AppInfo, settings and keys from the running core). */
export async function openWindow(
  browser: Browser,
  app: DesktopApp,
  rendererUrl: string,
  extra: Partial<IpcBridgeOptions> = {},
): Promise<OpenWindow> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  const page = await context.newPage();
  const problems: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'error') problems.push(`console: ${m.text()}`);
  });
  page.on('pageerror', (e) => problems.push(`pageerror: ${e.message}`));
  const running = app.current();
  const bridge = await installIpcBridge(page, {
    api: app.host.api,
    core: running.core,
    orgId: running.desktop.orgId,
    info: running.info,
    chooseFile: () => null,
    host: app.host,
    theme: app.theme,
    keyId: running.desktop.keyId,
    ...extra,
    local: { 'app:getInfo': async () => ({ ok: true, value: app.current().info }), ...extra.local },
  });
  await page.goto(`${rendererUrl}/index.html`);
  await page.getByRole('navigation', { name: 'Main' }).waitFor();
  return { page, context, bridge, problems };
}

/** Where the screenshots go (looked at by people; kept out of git). */
export const SHOTS_DIR = path.resolve(import.meta.dirname, '..', '..', '..', 'test-results', 'screens');
