// What the app needs from the system, how to see whether it is there, and each package manager's name for it.
// Pure: every check reads the injected facts (`has(cmd)`: on PATH, `exists(file)`), so tests can play any system.
import { findBrowser } from './browsers.mjs';

/**
 * The parts of the system, in the order their packages are listed. `mode`: needed by `npm start` (runtime) or only
 * by `npm test` (test). `platforms`: where the bootstrap looks for it at all.
 * - The fonts the captions use ship in resources/fonts (the local renderer reads them there), so none is required.
 * - libsecret's headers and the toolchain are for keytar, which builds from source where its prebuilt binary (from
 *   GitHub, not the npm registry) cannot be downloaded; better-sqlite3 ships its binaries in the npm package.
 * - The test-only parts are where test/helpers look for them: with-keyring.sh (dbus, gnome-keyring), Dovecot at
 *   /usr/sbin/dovecot, Xvfb, Firefox at /usr/bin/firefox(-esr). Those helpers only know Linux paths, so on macOS
 *   and Windows those suites skip and nothing is asked for. python3-venv: for the Python client's test venv.
 */
export const NEEDS = [
  {
    id: 'browser',
    what: 'a Chromium-family browser (Chromium, Chrome, Edge or Brave)',
    mode: 'runtime',
    platforms: ['linux', 'darwin', 'win32'],
    present: (f) => !!findBrowser(f),
  },
  {
    id: 'ffmpeg',
    what: 'ffmpeg with libx264',
    mode: 'runtime',
    platforms: ['linux', 'darwin', 'win32'],
    present: ffmpegPresent,
  },
  {
    id: 'libsecret',
    what: 'the libsecret development headers',
    mode: 'runtime',
    platforms: ['linux'],
    present: (f) => f.exists('/usr/include/libsecret-1/libsecret/secret.h'),
  },
  { id: 'python3', what: 'python3', mode: 'runtime', platforms: ['linux'], present: (f) => f.has('python3') },
  { id: 'make', what: 'make', mode: 'runtime', platforms: ['linux'], present: (f) => f.has('make') },
  // node-gyp's Makefiles call $(CXX), which is g++ unless CXX says otherwise.
  {
    id: 'cxx',
    what: 'a C++ compiler',
    mode: 'runtime',
    platforms: ['linux'],
    present: (f) => f.has((f.env.CXX || 'g++').trim().split(/\s+/)[0]),
  },
  { id: 'xz', what: 'xz', mode: 'runtime', platforms: ['linux'], present: (f) => f.has('xz') },
  {
    id: 'dbus',
    what: 'D-Bus (dbus-daemon, dbus-run-session)',
    mode: 'test',
    platforms: ['linux'],
    present: (f) => f.has('dbus-run-session') && f.has('dbus-daemon'),
  },
  {
    id: 'gnome-keyring',
    what: 'gnome-keyring',
    mode: 'test',
    platforms: ['linux'],
    present: (f) => f.has('gnome-keyring-daemon'),
  },
  {
    id: 'dovecot',
    what: 'the Dovecot IMAP server',
    mode: 'test',
    platforms: ['linux'],
    present: (f) => f.exists('/usr/sbin/dovecot'),
  },
  { id: 'xvfb', what: 'Xvfb', mode: 'test', platforms: ['linux'], present: (f) => f.has('Xvfb') },
  // The local renderer's layout tests read the headline back from rendered frames with OCR.
  { id: 'tesseract', what: 'Tesseract OCR', mode: 'test', platforms: ['linux'], present: (f) => f.has('tesseract') },
  // Only where the distribution packages it (see packageFor); elsewhere that suite skips, as before.
  {
    id: 'firefox',
    what: 'Firefox',
    mode: 'test',
    platforms: ['linux'],
    onlyWherePackaged: true,
    present: (f) => f.exists('/usr/bin/firefox-esr') || f.exists('/usr/bin/firefox'),
  },
  // The Python client's tests run in a venv (scripts/bootstrap/python-venv.mjs). Debian and Ubuntu package the
  // venv module's ensurepip apart from python3; the other distributions' python3 has it.
  {
    id: 'python3-venv',
    what: "Python's venv module (python3-venv)",
    mode: 'test',
    platforms: ['linux'],
    onlyWherePackaged: true,
    present: (f) => f.has('python3') && f.pythonVenv !== false,
  },
];

/**
 * ffmpeg on PATH, and when its encoder list is known, with libx264: the renderer encodes H.264 with it, and
 * Fedora's ffmpeg-free (and openSUSE's own ffmpeg) leave it out.
 */
function ffmpegPresent(f) {
  if (!f.has('ffmpeg')) return false;
  return f.ffmpegEncoders == null || /\blibx264\b/.test(f.ffmpegEncoders);
}

/**
 * Package names per manager and need. null: the manager has no package for it (the plan says what to do instead);
 * a need absent from a manager's table is not asked for there. Homebrew casks are written `--cask NAME`. A list: the
 * need is several packages (Tesseract's English data is a package of its own on Fedora, Arch and openSUSE; without it
 * the OCR of the local renderer's layout tests cannot read a word).
 */
export const PACKAGES = {
  apt: {
    browser: 'chromium',
    ffmpeg: 'ffmpeg',
    libsecret: 'libsecret-1-dev',
    python3: 'python3',
    make: 'make',
    cxx: 'g++',
    xz: 'xz-utils',
    dbus: 'dbus',
    'gnome-keyring': 'gnome-keyring',
    dovecot: 'dovecot-imapd',
    xvfb: 'xvfb',
    tesseract: 'tesseract-ocr',
    firefox: 'firefox-esr',
    'python3-venv': 'python3-venv',
  },
  dnf: {
    browser: 'chromium',
    ffmpeg: 'ffmpeg',
    libsecret: 'libsecret-devel',
    python3: 'python3',
    make: 'make',
    cxx: 'gcc-c++',
    xz: 'xz',
    dbus: 'dbus-daemon',
    'gnome-keyring': 'gnome-keyring',
    dovecot: 'dovecot',
    xvfb: 'xorg-x11-server-Xvfb',
    tesseract: ['tesseract', 'tesseract-langpack-eng'],
    firefox: 'firefox',
  },
  pacman: {
    browser: 'chromium',
    ffmpeg: 'ffmpeg',
    libsecret: 'libsecret',
    python3: 'python',
    make: 'make',
    cxx: 'gcc',
    xz: 'xz',
    dbus: 'dbus',
    'gnome-keyring': 'gnome-keyring',
    dovecot: 'dovecot',
    xvfb: 'xorg-server-xvfb',
    tesseract: ['tesseract', 'tesseract-data-eng'],
    firefox: 'firefox',
  },
  zypper: {
    browser: 'chromium',
    ffmpeg: 'ffmpeg',
    libsecret: 'libsecret-devel',
    python3: 'python3',
    make: 'make',
    cxx: 'gcc-c++',
    xz: 'xz',
    dbus: 'dbus-1',
    'gnome-keyring': 'gnome-keyring',
    dovecot: 'dovecot',
    xvfb: 'xorg-x11-server-Xvfb',
    tesseract: ['tesseract-ocr', 'tesseract-ocr-traineddata-english'],
    firefox: 'MozillaFirefox',
  },
  brew: { browser: '--cask google-chrome', ffmpeg: 'ffmpeg' },
  winget: { browser: 'Google.Chrome', ffmpeg: 'Gyan.FFmpeg' },
};

/**
 * The package name for a need on this manager and distribution family, or null when there is none. Ubuntu (and its
 * derivatives) has no Chromium deb: `chromium-browser` only installs the snap, and fails where snapd does not run,
 * so apt never gets a browser there (the plan offers the snap). Its Firefox is a snap too, and Debian's firefox-esr
 * exists on Debian alone, so Firefox is only asked for on Debian and the non-apt families.
 */
export function packageFor(manager, family, id) {
  if (manager === 'apt' && family === 'ubuntu' && (id === 'browser' || id === 'firefox')) return null;
  if (manager === 'apt' && family !== 'debian' && id === 'firefox') return null;
  return PACKAGES[manager]?.[id] ?? null;
}

/** The needs this run looks at: for the platform, and the test-only ones in test mode. */
export function needsFor(platform, mode) {
  return NEEDS.filter((n) => n.platforms.includes(platform) && (n.mode === 'runtime' || mode === 'test'));
}
