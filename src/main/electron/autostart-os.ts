// What start at login needs of Electron and the process; the decisions are core/desktop/autostart.ts's.
import os from 'node:os';
import { app } from 'electron';
import type { AutostartOs, LoginItems } from '../core/desktop/autostart-channels.js';
import { isBackgroundStart } from '../core/desktop/autostart.js';

/** Electron's login items exist on macOS and Windows only (on Linux the calls do nothing). */
const electronLoginItems: LoginItems = {
  get: (query) => app.getLoginItemSettings(query),
  set: (settings) => app.setLoginItemSettings(settings),
};

export function autostartOs(): AutostartOs {
  return {
    platform: process.platform,
    env: process.env,
    execPath: process.execPath,
    packaged: app.isPackaged,
    home: os.homedir(),
    loginItems: process.platform === 'darwin' || process.platform === 'win32' ? electronLoginItems : null,
  };
}

/** This start was one at login: the core and the tray, no window until the person asks. Call once the app is ready. */
export function startedInBackground(): boolean {
  return isBackgroundStart({
    argv: process.argv,
    platform: process.platform,
    openedAtLogin: () => app.getLoginItemSettings().wasOpenedAtLogin,
  });
}
