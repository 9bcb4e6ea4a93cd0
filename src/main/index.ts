// Electron entry: one window over the headless core. The core also serves agents on 127.0.0.1.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { app, BrowserWindow, dialog } from 'electron';
import { APP_ORIGIN, handleAppProtocol, registerAppScheme } from './electron/app-protocol.js';
import { registerIpc } from './electron/ipc/index.js';
import { startCore, type RunningCore } from './electron/lifecycle.js';
import { createMainWindow } from './electron/main-window.js';
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

let running: RunningCore | null = null;
let mainWindow: BrowserWindow | null = null;
let quitting = false;

function openWindow(settings: ReturnType<typeof openSettings>): void {
  mainWindow = createMainWindow({ preloadPath: path.join(here, '../preload/index.cjs'), url: rendererUrl, settings });
  mainWindow.on('closed', () => (mainWindow = null));
}

async function askWithoutKeychain(reason: string): Promise<'file' | 'quit'> {
  const { response } = await dialog.showMessageBox({
    type: 'warning',
    title: 'No keychain available',
    message: 'Agent Studio cannot reach the system keychain.',
    detail:
      `${reason}\n\nIt keeps API keys, site credentials and the session-cache key there. You can keep them instead in ` +
      'an encrypted file in the app data folder, with its key in a separate file next to it (anyone who can read both ' +
      'files can read the secrets), or quit and start a keychain first.',
    buttons: ['Use an encrypted file', 'Quit'],
    defaultId: 1,
    cancelId: 1,
  });
  return response === 0 ? 'file' : 'quit';
}

async function boot(): Promise<void> {
  await app.whenReady();
  hardenSession({ dev: Boolean(devServerUrl) });
  handleAppProtocol(path.join(here, '../renderer'));
  const dataDir = app.getPath('userData');
  const settings = openSettings(dataDir);
  try {
    running = await startCore({ dataDir, settings, askWithoutKeychain });
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
  registerIpc({ client: core.client, isTrusted, appInfo: () => core.info, mainWindow: () => mainWindow });
  openWindow(settings);
  app.on('activate', () => {
    if (BrowserWindow.getAllWindows().length === 0) openWindow(settings);
  });
  app.on('second-instance', () => {
    if (!mainWindow) return;
    if (mainWindow.isMinimized()) mainWindow.restore();
    mainWindow.focus();
  });
}

if (!app.requestSingleInstanceLock()) {
  app.quit();
} else {
  app.on('window-all-closed', () => {
    if (process.platform !== 'darwin') app.quit();
  });
  // Close the server (and dispose the core) before exiting: the SQLite WAL is checkpointed and no
  // browser process outlives the app.
  app.on('before-quit', (event) => {
    if (quitting || !running) return;
    event.preventDefault();
    quitting = true;
    running.close().finally(() => app.quit());
  });
  boot().catch((err) => {
    dialog.showErrorBox('Agent Studio failed', (err as Error).stack ?? String(err));
    app.exit(1);
  });
}
