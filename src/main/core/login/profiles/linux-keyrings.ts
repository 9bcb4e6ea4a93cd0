// Where Chromium on Linux keeps its cookie password, decided as Chromium's OSCrypt decides where to put it: the
// desktop from XDG_CURRENT_DESKTOP / DESKTOP_SESSION / KDE_SESSION_VERSION (base/nix/xdg_util.cc
// GetDesktopEnvironment), then the store for that desktop (components/os_crypt key_storage_util_linux.cc
// SelectBackend): KWallet on KDE (kwalletd, kwalletd5 or kwalletd6 by its version), the Secret Service elsewhere. A
// person may have started the browser with another --password-store, so the other store is asked next, then the
// basic store's fixed "peanuts" (what Chromium uses when no keyring answers); chromium-crypto.ts keeps the first
// password that opens a value.
import { execFile } from 'node:child_process';
import { keychainRefused, secretServicePassword } from './os-keys.js';
import type { ChromiumFamily } from './browser-kinds.js';

export type LinuxDesktop =
  | 'kde3'
  | 'kde4'
  | 'kde5'
  | 'kde6'
  | 'gnome'
  | 'cinnamon'
  | 'deepin'
  | 'pantheon'
  | 'ukui'
  | 'unity'
  | 'xfce'
  | 'lxqt'
  | 'other';

export type LinuxKeyStore = 'kwallet' | 'kwallet5' | 'kwallet6' | 'secret-service' | 'basic';

type Env = Readonly<Record<string, string | undefined>>;

function kdeByVersion(env: Env): LinuxDesktop {
  const version = env.KDE_SESSION_VERSION;
  return version === '5' ? 'kde5' : version === '6' ? 'kde6' : 'kde4';
}

const XDG_DESKTOPS: Record<string, LinuxDesktop> = {
  GNOME: 'gnome',
  'X-Cinnamon': 'cinnamon',
  Deepin: 'deepin',
  Pantheon: 'pantheon',
  UKUI: 'ukui',
  XFCE: 'xfce',
  LXQt: 'lxqt',
};

/** The desktop the browser was most likely started in, as Chromium's GetDesktopEnvironment reads it. */
export function linuxDesktop(env: Env): LinuxDesktop {
  const xdg = env.XDG_CURRENT_DESKTOP;
  const session = env.DESKTOP_SESSION;
  if (xdg) {
    for (const part of xdg.split(':').map((p) => p.trim())) {
      if (part === 'Unity') return session?.includes('gnome-fallback') ? 'gnome' : 'unity';
      if (part === 'KDE') return kdeByVersion(env);
      const desktop = XDG_DESKTOPS[part];
      if (desktop) return desktop;
    }
    return 'other';
  }
  if (session) {
    if (session === 'deepin') return 'deepin';
    if (session === 'mate' || session === 'gnome') return 'gnome';
    if (session === 'kde4' || session === 'kde-plasma') return 'kde4';
    if (session === 'kde') return env.KDE_SESSION_VERSION ? 'kde4' : 'kde3';
    if (session.includes('xfce') || session === 'xubuntu') return 'xfce';
    if (session === 'ukui') return 'ukui';
    return 'other';
  }
  if (env.GNOME_DESKTOP_SESSION_ID) return 'gnome';
  if (env.KDE_FULL_SESSION) return env.KDE_SESSION_VERSION ? 'kde4' : 'kde3';
  return 'other';
}

const KWALLET_OF: Partial<Record<LinuxDesktop, LinuxKeyStore>> = {
  kde4: 'kwallet',
  kde5: 'kwallet5',
  kde6: 'kwallet6',
};

/**
 * The stores asked for the v11 cookie password, most likely first. Chromium puts it in KWallet on KDE 4–6 and in the
 * Secret Service on every other desktop (KDE 3, LXQt and unknown desktops get the basic store in Chromium's table, but
 * a v11 value there means the person chose a keyring, and the Secret Service is the one other desktops offer).
 */
export function linuxKeyStores(env: Env): LinuxKeyStore[] {
  const kwallet = KWALLET_OF[linuxDesktop(env)];
  return kwallet ? [kwallet, 'secret-service', 'basic'] : ['secret-service', 'basic'];
}

const KWALLETD: Record<'kwallet' | 'kwallet5' | 'kwallet6', { service: string; path: string }> = {
  kwallet: { service: 'org.kde.kwalletd', path: '/modules/kwalletd' },
  kwallet5: { service: 'org.kde.kwalletd5', path: '/modules/kwalletd5' },
  kwallet6: { service: 'org.kde.kwalletd6', path: '/modules/kwalletd6' },
};

/** KWallet's "network wallet" (where Chromium keeps its key), asked of kwalletd over D-Bus; "kdewallet" by default. */
async function networkWallet(store: keyof typeof KWALLETD): Promise<string> {
  const { default: dbus } = await import('dbus-next');
  let bus: ReturnType<typeof dbus.sessionBus> | null = null;
  try {
    const session = (bus = dbus.sessionBus());
    // A bus that cannot connect says so as an event, not as a rejected call.
    const unreachable = new Promise<null>((resolve) => {
      session.on('error', () => resolve(null));
      setTimeout(() => resolve(null), 3_000).unref();
    });
    const { service, path } = KWALLETD[store];
    const ask = (async () => {
      const object = await session.getProxyObject(service, path);
      return (await object.getInterface('org.kde.KWallet').networkWallet()) as unknown;
    })();
    const name = await Promise.race([ask.catch(() => null), unreachable]);
    return typeof name === 'string' && name ? name : 'kdewallet';
  } catch {
    return 'kdewallet';
  } finally {
    bus?.disconnect();
  }
}

/**
 * KWallet's "<name> Safe Storage" entry in the folder "<name> Keys", read with KDE's `kwallet-query` (as yt-dlp does):
 * a non-zero exit is a locked or missing wallet. "Failed to read …" on stdout is an entry that is not there, which
 * Chromium's own read took as an empty password.
 */
export async function kwalletPassword(family: ChromiumFamily, store: keyof typeof KWALLETD): Promise<string> {
  const name = family.safeStorage.kwalletName;
  const wallet = await networkWallet(store);
  const args = ['--read-password', `${name} Safe Storage`, '--folder', `${name} Keys`, wallet];
  return new Promise((resolve, reject) => {
    execFile('kwallet-query', args, { timeout: 30_000 }, (err, stdout) => {
      if (err) {
        const missing = (err as NodeJS.ErrnoException).code === 'ENOENT';
        const why = missing
          ? 'KWallet was not asked: kwallet-query is not installed (it comes with KDE’s kwallet package)'
          : `KWallet did not give out "${name} Safe Storage" (wallet "${wallet}" locked, or no such entry)`;
        reject(keychainRefused(family.label, why));
        return;
      }
      resolve(/^failed to read/i.test(stdout) ? '' : stdout.replace(/\n$/, ''));
    });
  });
}

/** The password `store` holds for the browser (the basic store's is fixed). */
export function linuxStorePassword(family: ChromiumFamily, store: LinuxKeyStore): Promise<string> {
  if (store === 'basic') return Promise.resolve('peanuts');
  if (store === 'secret-service') return secretServicePassword(family);
  return kwalletPassword(family, store);
}
