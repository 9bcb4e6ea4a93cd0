// The browsers whose profiles can be imported, and where each keeps its user data on each OS (relative to a home
// directory, so tests and the `browserProfiles.roots` setting can point at another home).
import path from 'node:path';
import type { BrowserKind } from '../../../../shared/browser-profiles.schema.js';

export type Platform = 'linux' | 'darwin' | 'win32';

export interface ChromiumFamily {
  kind: Exclude<BrowserKind, 'firefox'>;
  label: string;
  /** User-data-dir per OS, relative to the home directory. */
  dirs: Record<Platform, string>;
  /**
   * Linux: the user-data-dirs of the Snap and Flatpak builds, relative to the home directory. A Flatpak app's
   * XDG_CONFIG_HOME is ~/.var/app/<app id>/config; the Chromium snap sets its own under ~/snap/chromium/common, the
   * Brave snap keeps ~/.config under the snap's home (~/snap/brave/current).
   */
  linuxPackaged: readonly string[];
  /**
   * The keychain item with the cookie password: macOS service/account, Linux Secret Service `application`, and
   * KWallet's name: Chromium keeps "<name> Safe Storage" in the folder "<name> Keys" (Chrome-branded builds "Chrome",
   * other Chromium builds "Chromium", Brave "Brave").
   */
  safeStorage: { service: string; account: string; linuxApplications: string[]; kwalletName: string };
}

const local = (...p: string[]) => path.join('AppData', 'Local', ...p, 'User Data');
const macSupport = (...p: string[]) => path.join('Library', 'Application Support', ...p);

export const CHROMIUM_FAMILY: readonly ChromiumFamily[] = [
  {
    kind: 'chrome',
    label: 'Google Chrome',
    dirs: { linux: '.config/google-chrome', darwin: macSupport('Google', 'Chrome'), win32: local('Google', 'Chrome') },
    linuxPackaged: ['.var/app/com.google.Chrome/config/google-chrome'],
    safeStorage: {
      service: 'Chrome Safe Storage',
      account: 'Chrome',
      linuxApplications: ['chrome'],
      kwalletName: 'Chrome',
    },
  },
  {
    kind: 'chromium',
    label: 'Chromium',
    dirs: { linux: '.config/chromium', darwin: macSupport('Chromium'), win32: local('Chromium') },
    linuxPackaged: ['snap/chromium/common/chromium', '.var/app/org.chromium.Chromium/config/chromium'],
    safeStorage: {
      service: 'Chromium Safe Storage',
      account: 'Chromium',
      linuxApplications: ['chromium'],
      kwalletName: 'Chromium',
    },
  },
  {
    kind: 'edge',
    label: 'Microsoft Edge',
    dirs: {
      linux: '.config/microsoft-edge',
      darwin: macSupport('Microsoft Edge'),
      win32: local('Microsoft', 'Edge'),
    },
    linuxPackaged: ['.var/app/com.microsoft.Edge/config/microsoft-edge'],
    safeStorage: {
      service: 'Microsoft Edge Safe Storage',
      account: 'Microsoft Edge',
      linuxApplications: ['microsoft-edge', 'msedge'],
      kwalletName: 'Chromium',
    },
  },
  {
    kind: 'brave',
    label: 'Brave',
    dirs: {
      linux: '.config/BraveSoftware/Brave-Browser',
      darwin: macSupport('BraveSoftware', 'Brave-Browser'),
      win32: local('BraveSoftware', 'Brave-Browser'),
    },
    linuxPackaged: [
      'snap/brave/current/.config/BraveSoftware/Brave-Browser',
      '.var/app/com.brave.Browser/config/BraveSoftware/Brave-Browser',
    ],
    safeStorage: {
      service: 'Brave Safe Storage',
      account: 'Brave',
      linuxApplications: ['brave'],
      kwalletName: 'Brave',
    },
  },
];

/**
 * Firefox's directories holding profiles.ini, per OS, relative to the home directory. Linux: the classic ~/.mozilla,
 * the XDG ~/.config/mozilla that Firefox ≥ 147 uses when ~/.mozilla does not exist, and the Snap and Flatpak homes.
 */
export const FIREFOX_DIRS: Record<Platform, readonly string[]> = {
  linux: [
    '.mozilla/firefox',
    '.config/mozilla/firefox',
    'snap/firefox/common/.mozilla/firefox',
    '.var/app/org.mozilla.firefox/.mozilla/firefox',
  ],
  darwin: [macSupport('Firefox')],
  win32: [path.join('AppData', 'Roaming', 'Mozilla', 'Firefox')],
};

export function currentPlatform(): Platform {
  return process.platform === 'darwin' || process.platform === 'win32' ? process.platform : 'linux';
}
