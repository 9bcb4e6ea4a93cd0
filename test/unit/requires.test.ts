// test/helpers/requires.ts: a missing system part skips a suite on a developer's machine and fails it under CI;
// the Electron binary is only ever reported as skipped.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { inCi, keyringAvailable, reportSkipped, requireSystemPart, titleWithSkip } from '../helpers/requires.js';

afterEach(() => vi.restoreAllMocks());

describe('requireSystemPart', () => {
  it('CI is CI=true or CI=1', () => {
    expect(inCi({ CI: 'true' })).toBe(true);
    expect(inCi({ CI: '1' })).toBe(true);
    expect(inCi({ CI: 'TRUE' })).toBe(true);
    expect(inCi({})).toBe(false);
    expect(inCi({ CI: 'false' })).toBe(false);
    expect(inCi({ CI: '0' })).toBe(false);
  });

  it('present: runs, with or without CI, and says nothing', () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    expect(requireSystemPart('Xvfb', true, 'apt-get install xvfb', { CI: 'true' })).toBe(true);
    expect(requireSystemPart('Xvfb', true, 'apt-get install xvfb', {})).toBe(true);
    expect(warn).not.toHaveBeenCalled();
  });

  it('missing outside CI: skipped, with a line saying what is missing', () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    expect(requireSystemPart('firefox-esr', false, 'apt-get install firefox-esr', {})).toBe(false);
    expect(warn).toHaveBeenCalledWith(expect.stringMatching(/skipped: firefox-esr is missing \(apt-get install/));
  });

  it('missing under CI: throws, so the file fails instead of passing green', () => {
    for (const CI of ['true', '1']) {
      expect(() => requireSystemPart('firefox-esr', false, 'apt-get install firefox-esr', { CI })).toThrow(
        /firefox-esr is missing \(apt-get install firefox-esr\)\. Under CI/,
      );
    }
  });

  it('the keyring: required on Linux, as before elsewhere', () => {
    vi.spyOn(console, 'warn').mockImplementation(() => {});
    expect(keyringAvailable({ DBUS_SESSION_BUS_ADDRESS: 'unix:path=/x' }, 'linux')).toBe(true);
    expect(keyringAvailable({}, 'linux')).toBe(false);
    expect(() => keyringAvailable({ CI: 'true' }, 'linux')).toThrow(/Secret Service keyring/);
    expect(keyringAvailable({ CI: 'true' }, 'darwin')).toBe(false);
  });

  it('the Electron binary is reported as skipped, under CI too, and the title says why', () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    expect(reportSkipped('electron-app', 'no Electron binary')).toBe(false);
    expect(warn).toHaveBeenCalledWith('skipped: electron-app (no Electron binary)');
    expect(reportSkipped('electron-app', null)).toBe(true);
    expect(titleWithSkip('Electron app', false, 'no Electron binary')).toBe(
      'Electron app (skipped: no Electron binary)',
    );
    expect(titleWithSkip('Electron app', true, 'no Electron binary')).toBe('Electron app');
  });
});
