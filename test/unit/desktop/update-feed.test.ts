// electron-updater's feed as core/desktop/update-feed.ts reads it: the channel file names per platform, semver
// precedence (prereleases included), the installer each installation takes, and a file that is not a feed.
import { describe, expect, it } from 'vitest';
import {
  channelFileName,
  channelFiles,
  compareVersions,
  parseFeed,
  pickFile,
  type FeedInfo,
} from '../../../src/main/core/desktop/update-feed.js';

describe('update feed', () => {
  it("names the channel files as electron-updater does (none on Windows, -mac, -linux and Linux's arch)", () => {
    expect(channelFileName('latest', { platform: 'win32', arch: 'x64' })).toBe('latest.yml');
    expect(channelFileName('beta', { platform: 'darwin', arch: 'arm64' })).toBe('beta-mac.yml');
    expect(channelFileName('latest', { platform: 'linux', arch: 'x64' })).toBe('latest-linux.yml');
    expect(channelFileName('latest', { platform: 'linux', arch: 'arm64' })).toBe('latest-linux-arm64.yml');
    expect(channelFiles('stable', { platform: 'win32', arch: 'x64' })).toEqual(['latest.yml']);
    expect(channelFiles('beta', { platform: 'win32', arch: 'x64' })).toEqual(['beta.yml', 'latest.yml']);
  });

  it('orders versions by semver precedence', () => {
    const ordered = [
      '1.0.0-alpha',
      '1.0.0-alpha.1',
      '1.0.0-alpha.beta',
      '1.0.0-beta',
      '1.0.0-beta.2',
      '1.0.0-beta.11',
      '1.0.0-rc.1',
      '1.0.0',
      '1.0.1',
      '1.10.0',
      'v2.0.0',
    ];
    for (let i = 1; i < ordered.length; i++) {
      expect(compareVersions(ordered[i - 1], ordered[i]), `${ordered[i - 1]} < ${ordered[i]}`).toBeLessThan(0);
      expect(compareVersions(ordered[i], ordered[i - 1])).toBeGreaterThan(0);
    }
    expect(compareVersions('1.2.3+build.5', '1.2.3')).toBe(0);
    expect(() => compareVersions('1.2', '1.2.0')).toThrow(/not a semver version: "1.2"/);
  });

  it('picks the installer of this installation', () => {
    const info: FeedInfo = {
      version: '1.2.0',
      files: [
        'agent-studio-setup-1.2.0.exe',
        'agent-studio-1.2.0-x64-mac.zip',
        'agent-studio-1.2.0-arm64-mac.zip',
        'agent-studio-1.2.0-x86_64.AppImage',
        'agent-studio-1.2.0-amd64.deb',
      ].map((url) => ({ url, sha512: 'x', size: 1 })),
    };
    expect(pickFile(info, { platform: 'win32', arch: 'x64' })?.url).toBe('agent-studio-setup-1.2.0.exe');
    expect(pickFile(info, { platform: 'darwin', arch: 'arm64' })?.url).toBe('agent-studio-1.2.0-arm64-mac.zip');
    expect(pickFile(info, { platform: 'darwin', arch: 'x64' })?.url).toBe('agent-studio-1.2.0-x64-mac.zip');
    expect(pickFile(info, { platform: 'linux', arch: 'x64', linuxPackage: 'AppImage' })?.url).toBe(
      'agent-studio-1.2.0-x86_64.AppImage',
    );
    expect(pickFile(info, { platform: 'linux', arch: 'x64', linuxPackage: 'deb' })?.url).toBe(
      'agent-studio-1.2.0-amd64.deb',
    );
  });

  it('refuses a file that is not a feed, with the reason', () => {
    expect(() => parseFeed('<html>Not here</html>', 'latest.yml')).toThrow(/^latest.yml is not an update feed/);
    expect(() => parseFeed('version: soon\nfiles:\n  - {url: a.exe, sha512: x, size: 1}\n', 'latest.yml')).toThrow(
      'latest.yml names no semver version ("soon")',
    );
  });
});
