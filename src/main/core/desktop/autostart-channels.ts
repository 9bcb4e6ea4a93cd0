// Settings → Start-up's main-only channels: whether the OS starts the app in the background at login, read from the
// OS each time (the login item, the Run key, the autostart file; the app keeps no copy of the choice, so what the
// person changes in System Settings, Task Manager or the file is what the window shows), and turning it on or off.
// Plain Node: the Electron layer supplies where the app runs from and Electron's login-item calls.
import type { AutostartState } from '../../../shared/ipc-autostart-channels.js';
import type { Logger } from '../logger.js';
import {
  autostartMechanism,
  BACKGROUND_ARG,
  launchExecutable,
  loginItemState,
  MACOS_LOGIN_ITEMS,
  WINDOWS_STARTUP_APPS,
  type AppLocation,
  type LoginItemFacts,
} from './autostart.js';
import { readAutostartFile, removeAutostartFile, writeAutostartFile } from './autostart-file.js';
import { autostartDesktopEntry, autostartEntryState, autostartFilePath, execLine } from './desktop-entry.js';
import { fail } from './http-channel.js';
import type { LocalHandlers } from './ipc-dispatcher.js';

export type AutostartChannelName = 'autostart:get' | 'autostart:set';

/**
 * Electron's app.getLoginItemSettings / setLoginItemSettings (macOS, Windows). Windows compares the executable and
 * the arguments of its Run key value with the ones asked about, so both calls name the same.
 */
export interface LoginItems {
  get(query: { path: string; args: string[] }): LoginItemFacts;
  set(settings: { openAtLogin: boolean; path: string; args: string[] }): void;
}

export interface AutostartOs extends AppLocation {
  /** os.homedir(): the XDG config folder's default parent. */
  home: string;
  /** Null where Electron has none (Linux: the autostart file is written here instead). */
  loginItems: LoginItems | null;
}

const ARGS = [BACKGROUND_ARG];

/** What the OS says now. */
export function readAutostart(os: AutostartOs): AutostartState {
  const mechanism = autostartMechanism(os.platform);
  const { executable, unavailable } = launchExecutable(os);
  if (mechanism === 'xdg-autostart') {
    const file = autostartFilePath(os);
    const state = autostartEntryState(readAutostartFile(file), executable === null ? null : execLine(executable));
    return { ...state, mechanism, where: file, unavailable };
  }
  const items = loginItemsOf(os);
  const state = loginItemState(os.platform, items.get({ path: executable ?? os.execPath, args: ARGS }));
  return {
    ...state,
    mechanism,
    where: mechanism === 'login-item' ? MACOS_LOGIN_ITEMS : WINDOWS_STARTUP_APPS,
    unavailable,
  };
}

/** Turns the start at login on or off; throws what the OS or the file system refused. */
export function applyAutostart(os: AutostartOs, on: boolean): void {
  const { executable, unavailable } = launchExecutable(os);
  if (executable === null) throw new Error(unavailable);
  if (autostartMechanism(os.platform) === 'xdg-autostart') {
    const file = autostartFilePath(os);
    if (on) writeAutostartFile(file, autostartDesktopEntry(executable));
    else removeAutostartFile(file);
    return;
  }
  // macOS ignores the path and arguments (a login item is the app bundle; isBackgroundStart asks macOS instead).
  loginItemsOf(os).set({ openAtLogin: on, path: executable, args: ARGS });
}

function loginItemsOf(os: AutostartOs): LoginItems {
  if (!os.loginItems) throw new Error(`No login items on ${os.platform}.`);
  return os.loginItems;
}

export function autostartChannels(deps: {
  os: AutostartOs;
  log: () => Logger;
}): Pick<LocalHandlers, AutostartChannelName> {
  return {
    'autostart:get': async () => ({ ok: true, value: readAutostart(deps.os) }),
    'autostart:set': async ({ on }) => {
      const before = readAutostart(deps.os);
      if (before.unavailable) return fail('autostart_unavailable', before.unavailable);
      try {
        applyAutostart(deps.os, on);
      } catch (err) {
        const message = (err as Error).message;
        deps.log().warn({ err: message, on }, 'desktop: start at login not changed');
        return fail('autostart_failed', `The start at login could not be changed: ${message}`);
      }
      const after = readAutostart(deps.os);
      deps.log().info({ asked: on, on: after.on, mechanism: after.mechanism }, 'desktop: start at login changed');
      return { ok: true, value: after };
    },
  };
}
