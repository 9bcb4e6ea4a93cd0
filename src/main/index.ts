// Electron entry: one window over the headless core. The core also serves agents on 127.0.0.1.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { app, dialog } from 'electron';
import { APP_ORIGIN, handleAppProtocol, registerAppScheme } from './electron/app-protocol.js';
import { DesktopShell, useDataDirFromEnv } from './electron/desktop-shell.js';
import { askPortInUse, askWithoutKeychain } from './electron/dialogs.js';
import { registerIpc } from './electron/ipc/index.js';
import { startCore } from './electron/lifecycle.js';
import { hardenContents, hardenSession } from './electron/security.js';
import { openSettings } from './electron/settings.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const devServerUrl = !app.isPackaged ? process.env.ELECTRON_RENDERER_URL : undefined;
const rendererUrl = devServerUrl ?? `${APP_ORIGIN}/index.html`;

const isTrusted = (url: string): boolean => {
  try {
    const u = new URL(url);
    if (devServerUrl) return u.origin === new URL(devServerUrl).origin;
    return u.origin === APP_ORIGIN || `${u.protocol}//${u.host}` === APP_ORIGIN;
  } catch {
    return false;
  }
};

registerAppScheme();
hardenContents(isTrusted);
useDataDirFromEnv();
const shell = new DesktopShell({ preloadPath: path.join(here, '../preload/index.cjs'), rendererUrl });

async function boot(): Promise<void> {
  await app.whenReady();
  hardenSession({ dev: Boolean(devServerUrl) });
  handleAppProtocol(path.join(here, '../renderer'));
  const dataDir = app.getPath('userData');
  const settings = openSettings(dataDir);
  let running: Awaited<ReturnType<typeof startCore>>;
  try {
    running = await startCore({ dataDir, settings, askWithoutKeychain, portInUse: (p) => askPortInUse(p, dataDir) });
    if (!running) {
      app.exit(0);
      return;
    }
  } catch (err) {
    dialog.showErrorBox('Agent Studio could not start', (err as Error).message);
    app.exit(1);
    return;
  }
  const core = running;
  registerIpc({
    core: core.core,
    desktop: core.desktop,
    isTrusted,
    appInfo: () => core.info,
    mainWindow: () => shell.mainWindow(),
  });
  shell.start(core, settings);
}

if (!app.requestSingleInstanceLock()) {
  app.quit();
} else {
  shell.install();
  boot().catch((err) => {
    dialog.showErrorBox('Agent Studio failed', (err as Error).stack ?? String(err));
    app.exit(1);
  });
}
