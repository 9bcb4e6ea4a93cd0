// What each browser mode launches (browser-modes.ts), where own-chrome looks (resolveInstalledBrowser), the display a
// headed browser gets (virtual-display.ts) and the language and time zone every context presents (machine-locale.ts).
import { describe, expect, it } from 'vitest';
import { AppError } from '../../../../src/main/core/errors.js';
import { modeLaunch, OFF_SCREEN_WINDOW } from '../../../../src/main/core/login/browser/browser-modes.js';
import {
  BrowserNotFoundError,
  resolveBrowserExecutable,
  resolveInstalledBrowser,
} from '../../../../src/main/core/login/browser/browser-resolver.js';
import { machineLocale, machineTimeZone } from '../../../../src/main/core/login/browser/machine-locale.js';
import { VirtualDisplay } from '../../../../src/main/core/login/browser/virtual-display.js';
import { tempDir } from '../../../helpers/temp-dir.js';

/** A file system that holds exactly these files (and lists the folders above them). */
function fsWith(...files: string[]) {
  return {
    exists: (p: string) => files.includes(p),
    list: (dir: string) =>
      files.filter((f) => f.startsWith(`${dir}/`)).map((f) => f.slice(dir.length + 1).split('/')[0]!),
  };
}

const HOME = '/home/ada';
const MANAGED = `${HOME}/.cache/ms-playwright/chromium-1200/chrome-linux64/chrome`;
const linux = { platform: 'linux' as const, env: {}, home: HOME };
const display = { browserEnv: async () => ({ DISPLAY: ':7' }) };

describe('own-chrome: the browser installed on this computer', () => {
  it('is a system browser, never the Playwright-managed build or the configured executable the other modes use', () => {
    const fs = fsWith(MANAGED, '/usr/bin/google-chrome', '/opt/mine/chrome');
    expect(resolveBrowserExecutable({ ...linux, fs }).path).toBe(MANAGED);
    expect(resolveBrowserExecutable({ ...linux, fs, configuredPath: '/opt/mine/chrome' }).path).toBe(
      '/opt/mine/chrome',
    );
    expect(resolveInstalledBrowser({ ...linux, fs })).toEqual({ path: '/usr/bin/google-chrome', source: 'system' });
  });

  it('is a typed 503 BROWSER_NOT_FOUND naming the mode when none is installed', async () => {
    const fs = fsWith(MANAGED);
    expect(() => resolveInstalledBrowser({ ...linux, fs })).toThrow(BrowserNotFoundError);
    const launch = modeLaunch('own-chrome', {
      browser: {},
      display,
      findInstalled: () => resolveInstalledBrowser({ ...linux, fs }).path,
    });
    const err = await launch.catch((e: unknown) => e);
    expect(err).toBeInstanceOf(AppError);
    expect(err).toMatchObject({
      status: 503,
      code: 'browser_not_found',
      details: { mode: 'own-chrome', reason: 'no_installed_browser' },
    });
    expect((err as AppError).message).toMatch(/own-chrome.*Google Chrome, Microsoft Edge or Chromium/);
  });
});

describe('modeLaunch', () => {
  it('headed and own-chrome run with a window, off-screen, on the display; headless without one', async () => {
    const deps = { browser: {}, display, platform: 'linux' as const, findInstalled: () => '/usr/bin/google-chrome' };
    const headless = await modeLaunch('headless', deps);
    expect(headless.headless).toBeUndefined(); // the pool's default: headless
    expect(headless.extraArgs).toBeUndefined();
    const headed = await modeLaunch('headed', deps);
    expect(headed).toMatchObject({ headless: false, env: { DISPLAY: ':7' } });
    expect(headed.executablePath).toBe(headless.executablePath);
    expect(headed.extraArgs).toEqual([OFF_SCREEN_WINDOW, '--ozone-platform=x11']);
    expect(await modeLaunch('own-chrome', deps)).toMatchObject({
      executablePath: '/usr/bin/google-chrome',
      headless: false,
      extraArgs: [OFF_SCREEN_WINDOW, '--ozone-platform=x11'],
    });
    expect((await modeLaunch('headed', { ...deps, platform: 'win32' })).extraArgs).toEqual([OFF_SCREEN_WINDOW]);
  });

  it('a remote browser serves headless only; another mode is a 422 saying why', async () => {
    const deps = { browser: { connectEndpoint: 'ws://127.0.0.1:9/pw' }, display };
    expect(await modeLaunch('headless', deps)).toEqual({ connectEndpoint: 'ws://127.0.0.1:9/pw' });
    await expect(modeLaunch('headed', deps)).rejects.toMatchObject({
      status: 422,
      code: 'browser_mode_unavailable',
      details: { mode: 'headed', reason: 'remote_browser' },
    });
  });
});

describe('VirtualDisplay', () => {
  it('uses the desktop session where there is one, and starts nothing', async () => {
    const env = { DISPLAY: ':0', PATH: '' };
    expect(await new VirtualDisplay({ env, platform: 'linux' }).browserEnv('headed')).toBe(env);
    expect(await new VirtualDisplay({ env: {}, platform: 'darwin' }).browserEnv('headed')).toEqual({});
  });

  it('without a display and without Xvfb: 503 DISPLAY_UNAVAILABLE saying what to install', async () => {
    const display = new VirtualDisplay({ env: { PATH: tempDir('no-xvfb-') }, platform: 'linux' });
    try {
      const err = await display.browserEnv('own-chrome').catch((e: unknown) => e);
      expect(err).toMatchObject({
        status: 503,
        code: 'display_unavailable',
        details: { mode: 'own-chrome', reason: 'xvfb_missing' },
      });
      expect((err as AppError).message).toMatch(/Xvfb is not installed.*apt-get install xvfb/);
    } finally {
      await display.dispose();
    }
  });
});

describe("the machine's language and time zone", () => {
  it.each([
    [{ LANG: 'de_DE.UTF-8' }, 'de-DE'],
    [{ LANG: 'fr_FR@euro' }, 'fr-FR'],
    [{ LANG: 'pt_BR' }, 'pt-BR'],
    [{ LANG: 'en_GB.UTF-8', LC_MESSAGES: 'ja_JP.UTF-8' }, 'ja-JP'],
    [{ LANG: 'de_DE.UTF-8', LC_ALL: 'es_ES.UTF-8' }, 'es-ES'],
    [{ LANG: 'C.UTF-8' }, 'en-US'],
    [{ LANG: 'POSIX' }, 'en-US'],
    [{}, 'en-US'],
  ])('locale of %o is %s (Intl knowing none)', (env, expected) => {
    expect(machineLocale(env, 'und')).toBe(expected);
  });

  it("falls back to Intl's locale where the POSIX variables say nothing (a desktop app on macOS or Windows)", () => {
    expect(machineLocale({}, 'nl-NL')).toBe('nl-NL');
    expect(machineLocale({ LANG: 'C' }, 'sv-SE')).toBe('sv-SE');
  });

  it('time zone: TZ when it names one, else the system’s, else UTC', () => {
    expect(machineTimeZone({ TZ: 'Asia/Tokyo' }, 'Europe/Berlin')).toBe('Asia/Tokyo');
    expect(machineTimeZone({ TZ: ':America/New_York' }, 'UTC')).toBe('America/New_York');
    expect(machineTimeZone({ TZ: 'UTC+3' }, 'Europe/Berlin')).toBe('Europe/Berlin');
    expect(machineTimeZone({}, undefined as unknown as string)).toBe('UTC');
  });
});
