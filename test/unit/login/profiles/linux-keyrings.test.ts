// Which keyring the importer asks first for a Linux Chromium's cookie password, per desktop session: the table
// Chromium's OSCrypt uses to choose where to keep it (KWallet on KDE 4–6, the Secret Service elsewhere).
import { describe, expect, it } from 'vitest';
import { linuxDesktop, linuxKeyStores } from '../../../../src/main/core/login/profiles/linux-keyrings.js';

describe('the desktop and the keyring asked first', () => {
  it.each([
    [{ XDG_CURRENT_DESKTOP: 'KDE', KDE_SESSION_VERSION: '6' }, 'kde6', 'kwallet6'],
    [{ XDG_CURRENT_DESKTOP: 'KDE', KDE_SESSION_VERSION: '5' }, 'kde5', 'kwallet5'],
    [{ XDG_CURRENT_DESKTOP: 'KDE' }, 'kde4', 'kwallet'],
    [{ DESKTOP_SESSION: 'kde-plasma' }, 'kde4', 'kwallet'],
    [{ KDE_FULL_SESSION: 'true', KDE_SESSION_VERSION: '5' }, 'kde4', 'kwallet'],
    [{ XDG_CURRENT_DESKTOP: 'ubuntu:GNOME' }, 'gnome', 'secret-service'],
    [{ XDG_CURRENT_DESKTOP: 'Unity', DESKTOP_SESSION: 'gnome-fallback' }, 'gnome', 'secret-service'],
    [{ XDG_CURRENT_DESKTOP: 'Unity' }, 'unity', 'secret-service'],
    [{ XDG_CURRENT_DESKTOP: 'X-Cinnamon' }, 'cinnamon', 'secret-service'],
    [{ XDG_CURRENT_DESKTOP: 'XFCE' }, 'xfce', 'secret-service'],
    [{ XDG_CURRENT_DESKTOP: 'LXQt' }, 'lxqt', 'secret-service'],
    [{ XDG_CURRENT_DESKTOP: 'sway' }, 'other', 'secret-service'],
    [{ DESKTOP_SESSION: 'mate' }, 'gnome', 'secret-service'],
    [{ DESKTOP_SESSION: 'xubuntu' }, 'xfce', 'secret-service'],
    [{ DESKTOP_SESSION: 'kde' }, 'kde3', 'secret-service'],
    [{ GNOME_DESKTOP_SESSION_ID: 'this-is-deprecated' }, 'gnome', 'secret-service'],
    [{}, 'other', 'secret-service'],
  ])('%j: %s, asks %s first', (env, desktop, first) => {
    expect(linuxDesktop(env)).toBe(desktop);
    expect(linuxKeyStores(env)[0]).toBe(first);
  });

  it('KDE asks KWallet, then the Secret Service, then the basic store; other desktops never ask KWallet', () => {
    expect(linuxKeyStores({ XDG_CURRENT_DESKTOP: 'KDE', KDE_SESSION_VERSION: '6' })).toEqual([
      'kwallet6',
      'secret-service',
      'basic',
    ]);
    expect(linuxKeyStores({ XDG_CURRENT_DESKTOP: 'GNOME' })).toEqual(['secret-service', 'basic']);
  });
});
