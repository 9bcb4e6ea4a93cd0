import { describe, expect, it } from 'vitest';
import {
  BrowserNotFoundError,
  resolveBrowserExecutable,
} from '../../../../src/main/core/login/browser/browser-resolver.js';

function fakeFs(files: string[], dirs: Record<string, string[]> = {}) {
  const set = new Set(files);
  return { exists: (p: string) => set.has(p), list: (d: string) => dirs[d] ?? [] };
}

describe('resolveBrowserExecutable', () => {
  it('returns an existing configured path', () => {
    const r = resolveBrowserExecutable({
      configuredPath: '/opt/x/chrome',
      fs: fakeFs(['/opt/x/chrome']),
      platform: 'linux',
      env: {},
    });
    expect(r).toEqual({ path: '/opt/x/chrome', source: 'configured' });
  });

  it('fails clearly when the configured path does not exist (no silent fallback)', () => {
    expect(() =>
      resolveBrowserExecutable({
        configuredPath: '/nope',
        fs: fakeFs(['/usr/bin/chromium']),
        platform: 'linux',
        env: {},
      }),
    ).toThrow(/does not exist: \/nope.*browser\.executablePath/);
  });

  it('prefers the newest Playwright-managed Chromium in PLAYWRIGHT_BROWSERS_PATH', () => {
    const fs = fakeFs(
      ['/pw/chromium-1100/chrome-linux/chrome', '/pw/chromium-1200/chrome-linux64/chrome', '/usr/bin/chromium'],
      { '/pw': ['chromium-1100', 'chromium-1200', 'firefox-1400', 'chromium_headless_shell-1200'] },
    );
    const r = resolveBrowserExecutable({
      fs,
      platform: 'linux',
      env: { PLAYWRIGHT_BROWSERS_PATH: '/pw' },
      home: '/home/u',
    });
    expect(r).toEqual({ path: '/pw/chromium-1200/chrome-linux64/chrome', source: 'playwright' });
  });

  it('looks in the per-OS default ms-playwright cache', () => {
    const linux = fakeFs(['/home/u/.cache/ms-playwright/chromium-1/chrome-linux/chrome'], {
      '/home/u/.cache/ms-playwright': ['chromium-1'],
    });
    expect(resolveBrowserExecutable({ fs: linux, platform: 'linux', env: {}, home: '/home/u' }).source).toBe(
      'playwright',
    );
    const macPath =
      '/Users/u/Library/Caches/ms-playwright/chromium-9/chrome-mac-arm64/Google Chrome for Testing.app/Contents/MacOS/Google Chrome for Testing';
    const mac = fakeFs([macPath], { '/Users/u/Library/Caches/ms-playwright': ['chromium-9'] });
    expect(resolveBrowserExecutable({ fs: mac, platform: 'darwin', env: {}, home: '/Users/u' }).path).toBe(macPath);
    const winPath = 'C:\\Users\\u\\AppData\\Local\\ms-playwright\\chromium-9\\chrome-win64\\chrome.exe';
    const win = fakeFs([winPath], { 'C:\\Users\\u\\AppData\\Local\\ms-playwright': ['chromium-9'] });
    expect(
      resolveBrowserExecutable({
        fs: win,
        platform: 'win32',
        env: { LOCALAPPDATA: 'C:\\Users\\u\\AppData\\Local' },
        home: 'C:\\Users\\u',
      }).path,
    ).toBe(winPath);
  });

  it('falls back to system browsers per OS', () => {
    expect(
      resolveBrowserExecutable({
        fs: fakeFs(['/usr/bin/google-chrome-stable']),
        platform: 'linux',
        env: {},
        home: '/h',
      }),
    ).toEqual({
      path: '/usr/bin/google-chrome-stable',
      source: 'system',
    });
    expect(
      resolveBrowserExecutable({ fs: fakeFs(['/snap/bin/chromium']), platform: 'linux', env: {}, home: '/h' }).path,
    ).toBe('/snap/bin/chromium');
    const edge = '/Applications/Microsoft Edge.app/Contents/MacOS/Microsoft Edge';
    expect(resolveBrowserExecutable({ fs: fakeFs([edge]), platform: 'darwin', env: {}, home: '/Users/u' }).path).toBe(
      edge,
    );
    const chromeWin = 'C:\\Program Files\\Google\\Chrome\\Application\\chrome.exe';
    expect(
      resolveBrowserExecutable({ fs: fakeFs([chromeWin]), platform: 'win32', env: {}, home: 'C:\\Users\\u' }).path,
    ).toBe(chromeWin);
  });

  it('accepts Brave where it installs itself on each OS (Chromium-based, driven like Chrome)', () => {
    const linux = '/usr/bin/brave-browser';
    expect(resolveBrowserExecutable({ fs: fakeFs([linux]), platform: 'linux', env: {}, home: '/h' }).path).toBe(linux);
    const mac = '/Applications/Brave Browser.app/Contents/MacOS/Brave Browser';
    expect(resolveBrowserExecutable({ fs: fakeFs([mac]), platform: 'darwin', env: {}, home: '/Users/u' }).path).toBe(
      mac,
    );
    const win = 'C:\\Users\\u\\AppData\\Local\\BraveSoftware\\Brave-Browser\\Application\\brave.exe';
    expect(
      resolveBrowserExecutable({
        fs: fakeFs([win]),
        platform: 'win32',
        env: { LOCALAPPDATA: 'C:\\Users\\u\\AppData\\Local' },
        home: 'C:\\Users\\u',
      }).path,
    ).toBe(win);
    // A Brave beside Chromium does not change which one is used.
    expect(
      resolveBrowserExecutable({ fs: fakeFs([linux, '/usr/bin/chromium']), platform: 'linux', env: {}, home: '/h' })
        .path,
    ).toBe('/usr/bin/chromium');
    const edgeX86 = 'C:\\Program Files (x86)\\Microsoft\\Edge\\Application\\msedge.exe';
    const braveSystem = 'C:\\Program Files\\BraveSoftware\\Brave-Browser\\Application\\brave.exe';
    expect(
      resolveBrowserExecutable({ fs: fakeFs([braveSystem, edgeX86]), platform: 'win32', env: {}, home: 'C:\\Users\\u' })
        .path,
    ).toBe(edgeX86);
  });

  it('throws BrowserNotFoundError with install instructions per OS', () => {
    for (const [platform, hint] of [
      ['linux', /Debian: `sudo apt-get install chromium`.*Ubuntu: `sudo snap install chromium`/],
      ['darwin', /brew install --cask chromium/],
      ['win32', /Microsoft Edge/],
    ] as const) {
      let err: unknown;
      try {
        resolveBrowserExecutable({ fs: fakeFs([]), platform, env: {}, home: '/h' });
      } catch (e) {
        err = e;
      }
      expect(err).toBeInstanceOf(BrowserNotFoundError);
      const e = err as BrowserNotFoundError;
      expect(e.message).toMatch(hint);
      expect(e.message).toMatch(/browser\.executablePath/);
      expect(e.message).toMatch(/playwright-core install chromium/);
      expect(e.searched.length).toBeGreaterThan(2);
    }
  });

  it('finds the real browser on this machine', () => {
    const r = resolveBrowserExecutable({});
    expect(r.path).toBeTruthy();
  });
});
