// Start at login, decided in plain functions with the platform, environment and paths passed in, so the suite on one
// OS checks the branches of all three: which mechanism a platform uses, which executable the OS should start, what
// Electron's login-item answer means, and whether this start is one at login (no window). The Electron layer only
// calls app.get/setLoginItemSettings (electron/autostart-os.ts); the Linux file is desktop-entry.ts + autostart-file.ts.
import type { AutostartState } from '../../../shared/ipc-autostart-channels.js';

export type AutostartMechanism = AutostartState['mechanism'];

/**
 * What a start at login carries: the app starts its core (the agents' API listening) and its tray icon, and opens no
 * window until the person asks for it. Given to the Run key and the XDG entry; a macOS login item takes no arguments
 * (isBackgroundStart asks macOS instead).
 */
export const BACKGROUND_ARG = '--background';

/** macOS: a login item (SMAppService); Windows: the HKCU Run key; Linux and the BSDs: an XDG autostart entry. */
export function autostartMechanism(platform: NodeJS.Platform): AutostartMechanism {
  if (platform === 'darwin') return 'login-item';
  if (platform === 'win32') return 'run-key';
  // Every desktop that follows the XDG Autostart spec: GNOME, KDE Plasma, Xfce, Cinnamon, MATE, LXQt, …
  return 'xdg-autostart';
}

/** Whether a command line asks for a start without a window (argv[0] is the program). */
export const hasBackgroundArg = (argv: readonly string[]): boolean => argv.slice(1).includes(BACKGROUND_ARG);

/**
 * Whether this start opens no window: the OS started the app at login. Windows and Linux pass BACKGROUND_ARG; a macOS
 * login item starts the app without arguments, and macOS says instead that it opened the app at login (asked only
 * there, and only when the argument is absent).
 */
export function isBackgroundStart(start: {
  argv: readonly string[];
  platform: NodeJS.Platform;
  /** macOS: app.getLoginItemSettings().wasOpenedAtLogin. */
  openedAtLogin(): boolean;
}): boolean {
  return hasBackgroundArg(start.argv) || (start.platform === 'darwin' && start.openedAtLogin());
}

/** Where the app runs from, as the Electron layer reports it. */
export interface AppLocation {
  platform: NodeJS.Platform;
  env: NodeJS.ProcessEnv;
  /** process.execPath: the installed app's executable (Electron's own binary in a run from source). */
  execPath: string;
  /** app.isPackaged: false in a run from source (npm start). */
  packaged: boolean;
}

export const FROM_SOURCE =
  'This copy runs from source (npm start): at login the system would start Electron without the app. ' +
  'The installed app can start at login.';

/**
 * The program the OS should start at login, or why this copy cannot be started so. An AppImage runs from a mount
 * under /tmp that is gone once it quits: the OS must start the .AppImage file itself, which its runtime names in
 * APPIMAGE.
 */
export function launchExecutable(at: AppLocation):
  | { executable: string; unavailable: null }
  | {
      executable: null;
      unavailable: string;
    } {
  if (!at.packaged) return { executable: null, unavailable: FROM_SOURCE };
  const appImage = at.platform === 'linux' ? at.env.APPIMAGE : undefined;
  return { executable: appImage || at.execPath, unavailable: null };
}

/** The fields of Electron's app.getLoginItemSettings() answer this reads (electron.d.ts LoginItemSettings). */
export interface LoginItemFacts {
  openAtLogin: boolean;
  /** macOS 13 and later: SMAppService's status of the app's login item. */
  status?: 'not-registered' | 'enabled' | 'requires-approval' | 'not-found';
  /** Windows: a Run key value starts this executable (with any arguments) and Task Manager has not turned it off. */
  executableWillLaunchAtLogin?: boolean;
}

export const MACOS_LOGIN_ITEMS = 'System Settings → General → Login Items';
export const WINDOWS_STARTUP_APPS =
  'Task Manager → Startup apps (the value is in HKEY_CURRENT_USER\\Software\\Microsoft\\Windows\\CurrentVersion\\Run)';

/** What a macOS login item or the Windows Run key means for the person: will the app start at their next login? */
export function loginItemState(platform: NodeJS.Platform, facts: LoginItemFacts): Pick<AutostartState, 'on' | 'note'> {
  if (platform === 'win32') {
    const starts = facts.executableWillLaunchAtLogin ?? facts.openAtLogin;
    if (facts.openAtLogin && !starts)
      return {
        on: false,
        note: 'Turned off in Task Manager → Startup apps. Turning it on here turns it on there again.',
      };
    if (starts && !facts.openAtLogin)
      return {
        on: true,
        note: 'An entry made outside this setting starts Agent Studio at login, with its window (see Task Manager → Startup apps).',
      };
    return { on: starts, note: null };
  }
  switch (facts.status) {
    case 'requires-approval':
      return {
        on: false,
        note: `macOS waits for your approval: in ${MACOS_LOGIN_ITEMS}, allow Agent Studio.`,
      };
    case 'not-found':
      return {
        on: false,
        note: 'macOS could not find the app to start at login. Move Agent Studio into Applications and turn this on again.',
      };
    case 'enabled':
      return { on: true, note: null };
    case 'not-registered':
      return { on: false, note: null };
    default:
      // Before macOS 13 there is no status: the login item list is all there is.
      return { on: facts.openAtLogin, note: null };
  }
}
