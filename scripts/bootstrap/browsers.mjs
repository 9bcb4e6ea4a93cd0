// Which browsers the app can drive, as the bootstrap sees them. The app's own list is in
// src/main/core/login/browser/browser-resolver.ts; this script runs before node_modules exists and cannot import
// TypeScript, so it keeps a copy, and test/unit/scripts/bootstrap-platforms.test.ts fails when the two differ.
import path from 'node:path';

/** Where Playwright keeps browsers it downloaded (`npx playwright-core install chromium`), per OS. */
function playwrightRoots(platform, env, home) {
  const p = platform === 'win32' ? path.win32 : path.posix;
  // "0" (browsers next to playwright-core in node_modules) is left out: before `npm ci` there is no such folder.
  if (env.PLAYWRIGHT_BROWSERS_PATH && env.PLAYWRIGHT_BROWSERS_PATH !== '0') return [env.PLAYWRIGHT_BROWSERS_PATH];
  if (platform === 'darwin') return [p.join(home, 'Library', 'Caches', 'ms-playwright')];
  if (platform === 'win32') return [p.join(env.LOCALAPPDATA || p.join(home, 'AppData', 'Local'), 'ms-playwright')];
  return [p.join(env.XDG_CACHE_HOME || p.join(home, '.cache'), 'ms-playwright')];
}

function chromiumLayouts(platform) {
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

/** The system browsers the resolver accepts, in its order (snap Chromium included; Flatpak is not: see below). */
export function systemBrowserCandidates(platform, env, home) {
  const p = platform === 'win32' ? path.win32 : path.posix;
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
    ].filter(Boolean);
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

/**
 * Every executable the resolver would try when no browser is configured, in its order: Playwright's downloaded
 * Chromium builds (newest first), then the system browsers. `list(dir)` lists a folder ([] when missing).
 */
export function browserCandidates({ platform, env, home, list }) {
  const p = platform === 'win32' ? path.win32 : path.posix;
  const downloaded = [];
  for (const root of playwrightRoots(platform, env, home)) {
    const dirs = list(root)
      .map((name) => ({ name, rev: /^chromium-(\d+)$/.exec(name)?.[1] }))
      .filter((d) => d.rev !== undefined)
      .sort((a, b) => Number(b.rev) - Number(a.rev));
    for (const dir of dirs) {
      for (const layout of chromiumLayouts(platform)) downloaded.push(p.join(root, dir.name, ...layout));
    }
  }
  return [...downloaded, ...systemBrowserCandidates(platform, env, home)];
}

/**
 * Flatpak exports of Chromium-family browsers. The app does not pick these by itself: Flatpak runs the browser in
 * its own sandbox with a private /tmp, where the profile folder the app prepares for a login is not visible, and
 * this has not been shown to work. The bootstrap names one when it finds it, so the person knows why it is not used.
 */
export function flatpakBrowserExports(home) {
  const ids = ['org.chromium.Chromium', 'com.google.Chrome', 'com.brave.Browser', 'com.microsoft.Edge'];
  const dirs = ['/var/lib/flatpak/exports/bin', path.posix.join(home, '.local', 'share', 'flatpak', 'exports', 'bin')];
  return dirs.flatMap((dir) => ids.map((id) => path.posix.join(dir, id)));
}

/**
 * The browser the app would use, or null. AGENT_STUDIO_BROWSER_PATH (the config option's environment form)
 * counts only when the file is there, as the resolver throws for a configured path that does not exist.
 */
export function findBrowser(facts) {
  const configured = facts.env.AGENT_STUDIO_BROWSER_PATH;
  if (configured) return facts.exists(configured) ? configured : null;
  return browserCandidates(facts).find((c) => facts.exists(c)) ?? null;
}
