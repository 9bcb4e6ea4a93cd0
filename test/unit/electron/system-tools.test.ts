// src/main/electron/system-tools.ts: which programs the packaged app would miss, looked up in real folders.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import {
  findMissingTools,
  findOnPath,
  isNewNotice,
  withPackageManagerPath,
} from '../../../src/main/electron/system-tools.js';
import { tempDir } from '../../helpers/temp-dir.js';

const dirs: string[] = [];
afterAll(() => dirs.forEach((dir) => fs.rmSync(dir, { recursive: true, force: true })));

/** A folder holding the given files; `exec` ones are executable. */
function folder(files: { name: string; exec: boolean }[]): string {
  const dir = tempDir('agent-studio-tools-');
  dirs.push(dir);
  for (const { name, exec } of files)
    fs.writeFileSync(path.join(dir, name), '#!/bin/sh\n', { mode: exec ? 0o755 : 0o644 });
  return dir;
}

describe('findOnPath', () => {
  it('finds an executable in the PATH folders, in order, and skips files that are not executable', () => {
    const first = folder([{ name: 'ffprobe', exec: false }]);
    const second = folder([
      { name: 'ffmpeg', exec: true },
      { name: 'ffprobe', exec: true },
    ]);
    const env = { PATH: `${first}:/nonexistent:${second}` };
    expect(findOnPath('ffmpeg', env, 'linux')).toBe(path.join(second, 'ffmpeg'));
    expect(findOnPath('ffprobe', env, 'linux')).toBe(path.join(second, 'ffprobe'));
    expect(findOnPath('ffmpeg', { PATH: first }, 'linux')).toBeNull();
    expect(findOnPath('ffmpeg', {}, 'linux')).toBeNull();
  });

  it('a folder of that name is not the program', () => {
    const dir = folder([]);
    fs.mkdirSync(path.join(dir, 'ffmpeg'));
    expect(findOnPath('ffmpeg', { PATH: dir }, 'linux')).toBeNull();
  });
});

describe('withPackageManagerPath', () => {
  it("adds Homebrew's and MacPorts' folders on macOS once, after the existing ones", () => {
    expect(withPackageManagerPath('/usr/bin:/bin:/usr/local/bin', 'darwin')).toBe(
      '/usr/bin:/bin:/usr/local/bin:/opt/homebrew/bin:/opt/local/bin',
    );
    expect(withPackageManagerPath(undefined, 'darwin')).toBe('/opt/homebrew/bin:/usr/local/bin:/opt/local/bin');
  });

  it('leaves PATH alone elsewhere', () => {
    expect(withPackageManagerPath('/usr/bin:/bin', 'linux')).toBe('/usr/bin:/bin');
    expect(withPackageManagerPath('C:\\Windows;C:\\ffmpeg\\bin', 'win32')).toBe('C:\\Windows;C:\\ffmpeg\\bin');
  });
});

describe('findMissingTools', () => {
  const tools = folder([
    { name: 'ffmpeg', exec: true },
    { name: 'ffprobe', exec: true },
    { name: 'chrome', exec: true },
  ]);
  const browser = { executablePath: path.join(tools, 'chrome') };

  it('nothing is missing with a browser and both ffmpeg programs', () => {
    expect(findMissingTools({ browser, env: { PATH: tools }, platform: 'linux' })).toEqual([]);
  });

  it('names ffmpeg, which of its programs is absent, and how to install it on this platform', () => {
    const onlyFfmpeg = folder([{ name: 'ffmpeg', exec: true }]);
    const linux = findMissingTools({ browser, env: { PATH: onlyFfmpeg }, platform: 'linux' });
    expect(linux).toEqual([
      {
        id: 'ffmpeg',
        what: expect.stringContaining('ffprobe not found on the PATH'),
        install: expect.stringContaining('sudo apt-get install ffmpeg'),
      },
    ]);
    const mac = findMissingTools({ browser, env: { PATH: folder([]) }, platform: 'darwin' });
    expect(mac[0]!.what).toContain('ffmpeg and ffprobe not found');
    expect(mac[0]!.install).toBe('Install it with Homebrew: brew install ffmpeg');
  });

  it("names the browser with the resolver's own instructions when the configured one does not exist", () => {
    const missing = findMissingTools({
      browser: { executablePath: path.join(tools, 'no-such-chrome') },
      env: { PATH: tools },
      platform: 'linux',
    });
    expect(missing.map((t) => t.id)).toEqual(['chromium']);
    expect(missing[0]!.install).toMatch(/configured browser executable does not exist: .*browser\.executablePath/);
  });

  it('a remote browser (browser.connectEndpoint) needs no local one', () => {
    const remote = { executablePath: path.join(tools, 'no-such-chrome'), connectEndpoint: 'ws://127.0.0.1:3000/' };
    expect(findMissingTools({ browser: remote, env: { PATH: tools }, platform: 'linux' })).toEqual([]);
  });
});

describe('isNewNotice', () => {
  const ffmpeg = { id: 'ffmpeg', what: 'ffmpeg', install: 'install it' };
  const chromium = { id: 'chromium', what: 'Chromium', install: 'install it' };
  it('shows a notice once per missing tool', () => {
    expect(isNewNotice([ffmpeg], [])).toBe(true);
    expect(isNewNotice([ffmpeg], ['ffmpeg'])).toBe(false);
    expect(isNewNotice([ffmpeg, chromium], ['ffmpeg'])).toBe(true);
    expect(isNewNotice([], ['ffmpeg'])).toBe(false);
  });
});
