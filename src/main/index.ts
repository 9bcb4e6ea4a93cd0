// Electron entry: one window over the headless core. The core also serves agents on 127.0.0.1.
import './core/tune-heap.js'; // first: see there
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { app, crashReporter, dialog, nativeTheme } from 'electron';
import { CoreHost } from './core/desktop/core-host.js';
import type { ThemeStore } from './core/desktop/settings-channels.js';
import { APP_ORIGIN, handleAppProtocol, registerAppScheme } from './electron/app-protocol.js';
import { startedInBackground } from './electron/autostart-os.js';
import { startCrashReporting } from './electron/crash-reporting.js';
import { DesktopShell, useDataDirFromEnv } from './electron/desktop-shell.js';
import { askPortInUse, askWithoutKeychain } from './electron/dialogs.js';
import { registerIpc } from './electron/ipc/index.js';
import { startCore, type RunningCore } from './electron/lifecycle.js';
import { createDesktopFinisher } from './electron/login-window.js';
import { startUpdates } from './electron/updater.js';
import { restartBlocker } from './core/desktop/restart-blockers.js';
import { notifyFinishedGenerations, notifyLoginsNeedingPerson } from './electron/notifications.js';
import { hardenContents, hardenSession } from './electron/security.js';
import { openSettings, type SettingsStore } from './electron/settings.js';

/** electron-builder.yml's appId, put in at build time (electron.vite.config.ts): the installer's id, declared once. */
declare const __AGENT_STUDIO_APP_ID__: string;

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
// As early as the data folder is known, before the app is ready: a crash while starting is kept too (never uploaded).
startCrashReporting(
  { setPath: (name, value) => app.setPath(name, value), start: (options) => crashReporter.start(options) },
  app.getPath('userData'),
);
const shell = new DesktopShell({ preloadPath: path.join(here, '../preload/index.cjs'), rendererUrl });

async function boot(): Promise<void> {
  await app.whenReady();
  hardenSession({ dev: Boolean(devServerUrl), isTrusted });
  handleAppProtocol(path.join(here, '../renderer'));
  const dataDir = app.getPath('userData');
  const settings = openSettings(dataDir);
  const theme = themeStore(settings);
  nativeTheme.themeSource = theme.get();
  // The first start asks about a taken port; a restart from Settings runs without the API instead and
  // the window says why (Settings refuses a port in use before saving, so that is only a race).
  const host = new CoreHost<RunningCore>((reason) =>
    startCore({
      dataDir,
      settings,
      askWithoutKeychain,
      portInUse: reason === 'first' ? (p) => askPortInUse(p, dataDir) : undefined,
      interactiveFinisher: createDesktopFinisher,
      windowOrigin: devServerUrl ? new URL(devServerUrl).origin : APP_ORIGIN,
    }),
  );
  try {
    if (!(await host.init())) {
      app.exit(0);
      return;
    }
  } catch (err) {
    dialog.showErrorBox('Agent Studio could not start', (err as Error).message);
    app.exit(1);
    return;
  }
  // One for the app's life (a core restart keeps it): it asks whichever core runs what a restart would cut off.
  const updates = startUpdates({
    dataDir,
    config: host.current().core.config.updates,
    packaged: app.isPackaged,
    restartBlockedBy: () => restartBlocker(host.current().core),
    log: () => host.current().core.log,
  });
  app.once('will-quit', () => updates.dispose());
  registerIpc({ host, theme, updates, isTrusted, mainWindow: () => shell.mainWindow() });
  // The agents' API is up before any window: a start at login (the OS's login item, Run key or autostart entry)
  // opens none until the person asks for it.
  shell.start(host, settings, { background: startedInBackground() });
  notifyFinishedGenerations({ host, mainWindow: () => shell.mainWindow(), showWindow: () => shell.showWindow() });
  notifyLoginsNeedingPerson({ host, mainWindow: () => shell.mainWindow(), showWindow: () => shell.showWindow() });
}

/** The theme choice kept with the app's settings, applied to the OS-drawn parts (menus, dialogs, scrollbars). */
function themeStore(settings: SettingsStore): ThemeStore {
  return {
    get: () => settings.get().theme,
    set(theme) {
      settings.update({ theme });
      nativeTheme.themeSource = theme;
    },
  };
}

if (!app.requestSingleInstanceLock()) {
  app.quit();
} else {
  shell.install(__AGENT_STUDIO_APP_ID__);
  boot().catch((err) => {
    dialog.showErrorBox('Agent Studio failed', (err as Error).stack ?? String(err));
    app.exit(1);
  });
}
