// What each browser mode launches (docs/login-service.md#bot-walls): which executable, with a window or not, where the window goes.
import type { BrowserMode } from '../../../../shared/login-browser.schema.js';
import type { AppConfig } from '../../config/config.schema.js';
import { AppError } from '../../errors.js';
import type { BrowserPoolOptions } from './browser-pool.js';
import { BrowserNotFoundError, resolveBrowserExecutable, resolveInstalledBrowser } from './browser-resolver.js';
import type { VirtualDisplay } from './virtual-display.js';

/**
 * Far off every screen, so a headed login does not show itself to the person at the computer: further out than a row
 * of monitors left of the main one reaches, and not -32000, which Windows reserves for minimised windows.
 */
export const OFF_SCREEN_WINDOW = '--window-position=-10000,-10000';

export interface ModeLaunchDeps {
  browser: Pick<AppConfig['browser'], 'executablePath' | 'connectEndpoint'>;
  display: Pick<VirtualDisplay, 'browserEnv'>;
  platform?: NodeJS.Platform;
  /** The installed browser of own-chrome (default: resolveInstalledBrowser, the system's browsers). */
  findInstalled?: () => string;
}

/** The part of a BrowserPool's options a mode decides. */
export type ModeLaunch = Pick<
  BrowserPoolOptions,
  'executablePath' | 'headless' | 'extraArgs' | 'env' | 'connectEndpoint'
>;

/**
 * headless: the browser the app found (config `browser.executablePath`, a Playwright-managed Chromium, else the
 * system's), no window. headed: that same browser with a real window, which is what a site that refuses headless
 * builds sees from a person (the window frame, a window size larger than the page). own-chrome: the Chrome, Edge or
 * Chromium installed on this computer, with a window as headed: its own brand and codecs (a build for testing
 * names itself), closest to the person's own browser. Each launch uses a fresh profile, as today.
 * A remote browser (`browser.connectEndpoint`) is what it is: only headless is served through it.
 */
export async function modeLaunch(mode: BrowserMode, deps: ModeLaunchDeps): Promise<ModeLaunch> {
  const { connectEndpoint, executablePath } = deps.browser;
  if (connectEndpoint) {
    if (mode === 'headless') return { connectEndpoint };
    throw new AppError(
      422,
      'browser_mode_unavailable',
      `Browser mode "${mode}" launches a browser on this computer, and this server logs in through a remote browser ` +
        '(browser.connectEndpoint). Log in with browser mode "headless", or remove browser.connectEndpoint.',
      { mode, reason: 'remote_browser' },
    );
  }
  if (mode === 'headless') return { executablePath: resolveBrowserExecutable({ configuredPath: executablePath }).path };
  const found =
    mode === 'own-chrome' ? installed(deps) : resolveBrowserExecutable({ configuredPath: executablePath }).path;
  return {
    executablePath: found,
    headless: false,
    extraArgs: windowArgs(deps),
    env: await deps.display.browserEnv(mode),
  };
}

function installed(deps: ModeLaunchDeps): string {
  try {
    return (deps.findInstalled ?? (() => resolveInstalledBrowser().path))();
  } catch (err) {
    if (!(err instanceof BrowserNotFoundError)) throw err;
    throw new AppError(503, 'browser_not_found', err.message, { mode: 'own-chrome', reason: 'no_installed_browser' });
  }
}

/**
 * The window off-screen. On Linux Chromium is told to use X11 (XWayland in a Wayland session, or the app's Xvfb):
 * Wayland lets no program place its own windows, so there the window would open in front of the person.
 */
function windowArgs(deps: ModeLaunchDeps): string[] {
  return [OFF_SCREEN_WINDOW, ...((deps.platform ?? process.platform) === 'linux' ? ['--ozone-platform=x11'] : [])];
}
