import { existsSync, readdirSync } from 'node:fs';
import { homedir } from 'node:os';
import path from 'node:path';
import { createRequire } from 'node:module';

export type BrowserSource = 'configured' | 'playwright' | 'system';

export interface ResolveBrowserOptions {
  configuredPath?: string;
  env?: NodeJS.ProcessEnv;
  platform?: NodeJS.Platform;
  /** Injectable for tests; defaults to the real file system. */
  fs?: { exists(p: string): boolean; list(dir: string): string[] };
  home?: string;
}

export class BrowserNotFoundError extends Error {
  constructor(
    message: string,
    readonly searched: string[],
  ) {
    super(message);
    this.name = 'BrowserNotFoundError';
  }
}

const realFs = {
  exists: (p: string) => existsSync(p),
  list: (dir: string) => {
    try {
      return readdirSync(dir);
    } catch {
      return [];
    }
  },
};

/**
 * Finds a Chromium-family executable: the configured path, then a Playwright-managed Chromium,
 * then a system Chrome/Chromium/Edge/Brave (snap Chromium included). Throws BrowserNotFoundError with install instructions.
 */
export function resolveBrowserExecutable(opts: ResolveBrowserOptions = {}): {
  path: string;
  source: BrowserSource;
} {
  const env = opts.env ?? process.env;
  const platform = opts.platform ?? process.platform;
  const fs = opts.fs ?? realFs;
  const home = opts.home ?? homedir();
  const p = platform === 'win32' ? path.win32 : path.posix;

  if (opts.configuredPath) {
    if (fs.exists(opts.configuredPath)) return { path: opts.configuredPath, source: 'configured' };
    throw new BrowserNotFoundError(
      `The configured browser executable does not exist: ${opts.configuredPath}. ` +
        'Fix or remove the config option `browser.executablePath`.',
      [opts.configuredPath],
    );
  }

  const searched: string[] = [];
  for (const candidate of playwrightCandidates(env, platform, home, fs, p)) {
    searched.push(candidate);
    if (fs.exists(candidate)) return { path: candidate, source: 'playwright' };
  }
  for (const candidate of systemCandidates(env, platform, home, p)) {
    searched.push(candidate);
    if (fs.exists(candidate)) return { path: candidate, source: 'system' };
  }
  throw new BrowserNotFoundError(installHint(platform), searched);
}

/**
 * The Chrome, Edge or Chromium installed on this computer (browser mode "own-chrome", docs/login-service.md#bot-walls): the system
 * browsers only, in the order resolveBrowserExecutable looks for them, never a Playwright-managed build nor the
 * configured executable (those are what the other modes use). Throws BrowserNotFoundError naming what to install.
 */
export function resolveInstalledBrowser(opts: Omit<ResolveBrowserOptions, 'configuredPath'> = {}): {
  path: string;
  source: 'system';
} {
  const env = opts.env ?? process.env;
  const platform = opts.platform ?? process.platform;
  const fs = opts.fs ?? realFs;
  const p = platform === 'win32' ? path.win32 : path.posix;
  const searched = systemCandidates(env, platform, opts.home ?? homedir(), p);
  const found = searched.find((candidate) => fs.exists(candidate));
  if (found) return { path: found, source: 'system' };
  throw new BrowserNotFoundError(
    'Browser mode "own-chrome" uses the Google Chrome, Microsoft Edge or Chromium installed on this computer, and ' +
      `none was found (looked at ${searched.length} places). Install one, or log in with browser mode "headless" or ` +
      '"headed" (the browser the app found: `browser.executablePath`, or a Playwright-managed Chromium).',
    searched,
  );
}

function playwrightRoots(
  env: NodeJS.ProcessEnv,
  platform: NodeJS.Platform,
  home: string,
  p: path.PlatformPath,
): string[] {
  const configured = env.PLAYWRIGHT_BROWSERS_PATH;
  if (configured === '0') {
    // "0" means browsers live next to the playwright-core package.
    try {
      const require = createRequire(import.meta.url);
      const pkg = require.resolve('playwright-core/package.json');
      return [p.join(p.dirname(pkg), '.local-browsers')];
    } catch {
      return [];
    }
  }
  if (configured) return [configured];
  if (platform === 'darwin') return [p.join(home, 'Library', 'Caches', 'ms-playwright')];
  if (platform === 'win32') {
    const local = env.LOCALAPPDATA || p.join(home, 'AppData', 'Local');
    return [p.join(local, 'ms-playwright')];
  }
  return [p.join(env.XDG_CACHE_HOME || p.join(home, '.cache'), 'ms-playwright')];
}

/** Relative executable paths inside a `chromium-<rev>` dir, newest layouts first. */
function chromiumLayouts(platform: NodeJS.Platform): string[][] {
  if (platform === 'darwin') {
    const cft = ['Google Chrome for Testing.app', 'Contents', 'MacOS', 'Google Chrome for Testing'];
    return [
      ['chrome-mac-arm64', ...cft],
      ['chrome-mac-x64', ...cft],
      ['chrome-mac', 'Chromium.app', 'Contents', 'MacOS', 'Chromium'],
    ];
  }
  if (platform === 'win32')
    return [
      ['chrome-win64', 'chrome.exe'],
      ['chrome-win', 'chrome.exe'],
    ];
  return [
    ['chrome-linux64', 'chrome'],
    ['chrome-linux-arm64', 'chrome'],
    ['chrome-linux', 'chrome'],
  ];
}

function playwrightCandidates(
  env: NodeJS.ProcessEnv,
  platform: NodeJS.Platform,
  home: string,
  fs: NonNullable<ResolveBrowserOptions['fs']>,
  p: path.PlatformPath,
): string[] {
  const out: string[] = [];
  for (const root of playwrightRoots(env, platform, home, p)) {
    const dirs = fs
      .list(root)
      .map((name) => ({ name, rev: /^chromium-(\d+)$/.exec(name)?.[1] }))
      .filter((d): d is { name: string; rev: string } => d.rev !== undefined)
      .sort((a, b) => Number(b.rev) - Number(a.rev));
    for (const dir of dirs) {
      for (const layout of chromiumLayouts(platform)) out.push(p.join(root, dir.name, ...layout));
    }
  }
  return out;
}

// scripts/bootstrap/browsers.mjs keeps a copy of these lists (the bootstrap runs before TypeScript can), and
// test/unit/scripts/bootstrap-platforms.test.ts fails when the two differ: change both.
function systemCandidates(
  env: NodeJS.ProcessEnv,
  platform: NodeJS.Platform,
  home: string,
  p: path.PlatformPath,
): string[] {
  if (platform === 'darwin') {
    const apps = [
      ['Google Chrome.app', 'Google Chrome'],
      ['Chromium.app', 'Chromium'],
      ['Microsoft Edge.app', 'Microsoft Edge'],
      ['Google Chrome Canary.app', 'Google Chrome Canary'],
    ];
    // Brave after all the others, so that adding it changed no one's browser.
    const brave = ['Brave Browser.app', 'Contents', 'MacOS', 'Brave Browser'];
    return [
      ...apps.map(([app, bin]) => p.join('/Applications', app, 'Contents', 'MacOS', bin)),
      ...apps.map(([app, bin]) => p.join(home, 'Applications', app, 'Contents', 'MacOS', bin)),
      p.join('/Applications', ...brave),
      p.join(home, 'Applications', ...brave),
    ];
  }
  if (platform === 'win32') {
    const roots = [
      env.PROGRAMFILES || 'C:\\Program Files',
      env['PROGRAMFILES(X86)'] || 'C:\\Program Files (x86)',
      env.LOCALAPPDATA,
    ].filter((r): r is string => !!r);
    const rel = [
      ['Google', 'Chrome', 'Application', 'chrome.exe'],
      ['Microsoft', 'Edge', 'Application', 'msedge.exe'],
      ['Chromium', 'Application', 'chrome.exe'],
    ];
    const brave = ['BraveSoftware', 'Brave-Browser', 'Application', 'brave.exe'];
    return [
      ...roots.flatMap((root) => rel.map((r) => p.join(root, ...r))),
      ...roots.map((root) => p.join(root, ...brave)),
    ];
  }
  return [
    '/usr/bin/chromium',
    '/usr/bin/chromium-browser',
    '/usr/bin/google-chrome',
    '/usr/bin/google-chrome-stable',
    '/usr/bin/microsoft-edge',
    '/usr/bin/microsoft-edge-stable',
    '/snap/bin/chromium',
    '/var/lib/snapd/snap/bin/chromium',
    '/opt/google/chrome/chrome',
    '/usr/local/bin/chromium',
    '/usr/bin/brave-browser',
    '/usr/bin/brave-browser-stable',
    '/usr/bin/brave',
  ];
}

function installHint(platform: NodeJS.Platform): string {
  const common =
    ' Alternatively run `npx playwright-core install chromium`, or set the config option ' +
    '`browser.executablePath` to the full path of a Chrome, Chromium or Edge executable.';
  if (platform === 'darwin') {
    return (
      'No Chromium-based browser found. Install Google Chrome (https://www.google.com/chrome/) or Chromium (`brew install --cask chromium`).' +
      common
    );
  }
  if (platform === 'win32') {
    return (
      'No Chromium-based browser found. Install Google Chrome (https://www.google.com/chrome/) or Microsoft Edge (https://www.microsoft.com/edge).' +
      common
    );
  }
  return (
    'No Chromium-based browser found. Install Chromium (Debian: `sudo apt-get install chromium`, ' +
    'Ubuntu: `sudo snap install chromium`, ' +
    'Fedora: `sudo dnf install chromium`, Arch: `sudo pacman -S chromium`) or Google Chrome.' +
    common
  );
}
