// scripts/bootstrap.mjs on every platform it speaks to, played on this Linux machine by injecting the facts
// (os-release, PATH, files, uid, env): the package manager, the exact install lines, when it may run them, the
// browsers it accepts (checked against the app's own resolver), the Node package per platform, the toolchain
// advice. And one real run here, where everything is present.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  browserCandidates,
  describePlan,
  detectPackageManager,
  findBrowser,
  linuxFamily,
  NEEDS,
  parseArgs,
  parseOsRelease,
  systemPlan,
  type Facts,
  type Mode,
} from '../../../scripts/bootstrap.mjs';
import {
  BrowserNotFoundError,
  resolveBrowserExecutable,
} from '../../../src/main/core/login/browser/browser-resolver.js';
import { CAPTION_FONTS } from '../../../src/main/core/video/pipeline/renderers/ffmpeg/captions.js';
import { REPO_ROOT } from '../../helpers/repo-root.js';

const OS_RELEASE = {
  debian: 'PRETTY_NAME="Debian GNU/Linux 12 (bookworm)"\nNAME="Debian GNU/Linux"\nVERSION_ID="12"\nID=debian\n',
  ubuntu:
    'PRETTY_NAME="Ubuntu 24.04.1 LTS"\nNAME="Ubuntu"\nVERSION_ID="24.04"\nVERSION_CODENAME=noble\nID=ubuntu\nID_LIKE=debian\n',
  mint: 'NAME="Linux Mint"\nVERSION="21.3 (Virginia)"\nID=linuxmint\nID_LIKE="ubuntu debian"\n',
  fedora: 'NAME="Fedora Linux"\nVERSION="40 (Workstation Edition)"\nID=fedora\nVERSION_ID=40\n',
  rocky: 'NAME="Rocky Linux"\nVERSION="9.4 (Blue Onyx)"\nID="rocky"\nID_LIKE="rhel centos fedora"\n',
  arch: 'NAME="Arch Linux"\nPRETTY_NAME="Arch Linux"\nID=arch\nBUILD_ID=rolling\n',
  manjaro: 'NAME="Manjaro Linux"\nID=manjaro\nID_LIKE=arch\n',
  opensuse: 'NAME="openSUSE Tumbleweed"\nID="opensuse-tumbleweed"\nID_LIKE="opensuse suse"\n',
};

/** The commands and files of a Linux machine with everything `npm test` needs (the browser at /usr/bin/chromium). */
const LINUX_COMMANDS = ['ffmpeg', 'python3', 'make', 'g++', 'xz', 'dbus-run-session', 'dbus-daemon'];
const LINUX_ALL = {
  commands: [...LINUX_COMMANDS, 'gnome-keyring-daemon', 'Xvfb', 'tesseract'],
  files: ['/usr/bin/chromium', '/usr/include/libsecret-1/libsecret/secret.h', '/usr/sbin/dovecot', '/usr/bin/firefox'],
};

interface Machine {
  platform?: NodeJS.Platform;
  osRelease?: keyof typeof OS_RELEASE;
  uid?: number;
  commands?: readonly string[];
  files?: readonly string[];
  dirs?: Record<string, string[]>;
  env?: NodeJS.ProcessEnv;
  home?: string;
  mode?: Mode;
  ffmpegEncoders?: string | null;
}

function machine(m: Machine): Facts {
  const platform = m.platform ?? 'linux';
  const commands = new Set(m.commands ?? []);
  const files = new Set(m.files ?? []);
  return {
    platform,
    mode: m.mode ?? 'runtime',
    osRelease: m.osRelease ? OS_RELEASE[m.osRelease] : null,
    uid: platform === 'win32' ? undefined : (m.uid ?? 1000),
    env: m.env ?? {},
    home: m.home ?? (platform === 'win32' ? 'C:\\Users\\Jo Doe' : platform === 'darwin' ? '/Users/jo' : '/home/jo'),
    has: (cmd) => commands.has(cmd),
    exists: (file) => files.has(file),
    list: (dir) => m.dirs?.[dir] ?? [],
    ffmpegEncoders: m.ffmpegEncoders,
  };
}

const lines = (facts: Facts) => systemPlan(facts).steps.flatMap((s) => s.lines);

describe('bootstrap: which package manager', () => {
  it('reads os-release ID and ID_LIKE, quoted or not, and maps the family to its manager', () => {
    expect(parseOsRelease(OS_RELEASE.opensuse)).toEqual({
      id: 'opensuse-tumbleweed',
      idLike: ['opensuse', 'suse'],
      name: 'openSUSE Tumbleweed',
    });
    const family = (k: keyof typeof OS_RELEASE) => linuxFamily(parseOsRelease(OS_RELEASE[k]));
    expect(Object.keys(OS_RELEASE).map((k) => [k, family(k as keyof typeof OS_RELEASE)])).toEqual([
      ['debian', 'debian'],
      ['ubuntu', 'ubuntu'],
      ['mint', 'ubuntu'],
      ['fedora', 'fedora'],
      ['rocky', 'rhel'],
      ['arch', 'arch'],
      ['manjaro', 'arch'],
      ['opensuse', 'suse'],
    ]);
    expect(linuxFamily(parseOsRelease(null))).toBeNull();
  });

  it('uses the family’s manager when it is on PATH, else whichever is; Homebrew on macOS, winget on Windows', () => {
    const detect = (m: Machine) => detectPackageManager(machine(m));
    expect(detect({ osRelease: 'debian', commands: ['apt-get'] })).toEqual({ manager: 'apt', family: 'debian' });
    expect(detect({ osRelease: 'fedora', commands: ['dnf'] })).toEqual({ manager: 'dnf', family: 'fedora' });
    expect(detect({ osRelease: 'manjaro', commands: ['pacman'] })).toEqual({ manager: 'pacman', family: 'arch' });
    expect(detect({ osRelease: 'opensuse', commands: ['zypper'] })).toEqual({ manager: 'zypper', family: 'suse' });
    // An os-release we do not know, or none: what is on PATH decides.
    expect(detect({ commands: ['zypper'] })).toEqual({ manager: 'zypper', family: null });
    expect(detect({ osRelease: 'arch' })).toEqual({ manager: null, family: 'arch' });
    expect(detect({ platform: 'darwin' })).toEqual({ manager: 'brew', family: 'macos' });
    expect(detect({ platform: 'win32' })).toEqual({ manager: 'winget', family: 'windows' });
  });
});

describe('bootstrap: the install line per system', () => {
  it('Debian: apt-get, run as root, printed with sudo otherwise; test mode adds the test parts and firefox-esr', () => {
    const bare = { osRelease: 'debian', commands: ['apt-get'] } as const;
    const asRoot = systemPlan(machine({ ...bare, uid: 0 }));
    expect(asRoot.steps).toEqual([
      {
        run: [
          ['apt-get', 'update', '-qq'],
          [
            'apt-get',
            'install',
            '-y',
            '-qq',
            'chromium',
            'ffmpeg',
            'libsecret-1-dev',
            'python3',
            'make',
            'g++',
            'xz-utils',
          ],
        ],
        lines: ['apt-get update && apt-get install -y chromium ffmpeg libsecret-1-dev python3 make g++ xz-utils'],
        mayRun: true,
      },
    ]);
    expect(lines(machine({ ...bare, uid: 1000 }))).toEqual([
      'sudo apt-get update && sudo apt-get install -y chromium ffmpeg libsecret-1-dev python3 make g++ xz-utils',
    ]);
    expect(systemPlan(machine({ ...bare, uid: 1000 })).steps[0]!.mayRun).toBe(false);
    expect(systemPlan(machine({ ...bare, uid: 0, mode: 'test' })).packages.slice(7)).toEqual([
      'dbus',
      'gnome-keyring',
      'dovecot-imapd',
      'xvfb',
      'tesseract-ocr',
      'firefox-esr',
      'python3-venv',
    ]);
  });

  it('Ubuntu 24.04: no browser package in the apt line; Chromium is offered as the snap it is', () => {
    const bare = { osRelease: 'ubuntu', commands: ['apt-get'], uid: 1000, mode: 'test' } as const;
    const plan = systemPlan(machine(bare));
    expect(plan.missing).toContain('browser');
    expect(plan.missing).not.toContain('firefox');
    expect(lines(machine(bare))).toEqual([
      'sudo apt-get update && sudo apt-get install -y ffmpeg libsecret-1-dev python3 make g++ xz-utils dbus gnome-keyring dovecot-imapd xvfb tesseract-ocr python3-venv',
      'sudo snap install chromium',
    ]);
    expect(plan.notes.join(' ')).toMatch(/Chromium only as a snap.*chromium-browser deb just installs that snap/);
    // As root the snap runs only where snap itself is there.
    expect(systemPlan(machine({ ...bare, uid: 0 })).steps.map((s) => s.mayRun)).toEqual([true, false]);
    expect(systemPlan(machine({ ...bare, uid: 0, commands: ['apt-get', 'snap'] })).steps[1]!.mayRun).toBe(true);
  });

  it('Ubuntu with the snap Chromium (or Chrome, Edge, Brave) present: nothing about browsers at all', () => {
    for (const browser of [
      '/snap/bin/chromium',
      '/usr/bin/google-chrome-stable',
      '/usr/bin/microsoft-edge',
      '/usr/bin/brave-browser',
    ]) {
      const facts = machine({ osRelease: 'ubuntu', ...LINUX_ALL, files: [...LINUX_ALL.files.slice(1), browser] });
      expect(findBrowser(facts)).toBe(browser);
      expect(systemPlan(facts)).toMatchObject({ missing: [], steps: [] });
    }
    const onlyPartlySet = machine({
      osRelease: 'ubuntu',
      commands: ['apt-get', 'python3', 'make', 'g++', 'xz'],
      files: ['/snap/bin/chromium', '/usr/include/libsecret-1/libsecret/secret.h'],
    });
    expect(lines(onlyPartlySet)).toEqual(['sudo apt-get update && sudo apt-get install -y ffmpeg']);
  });

  it('Fedora: dnf, with RPM Fusion named for the ffmpeg that has libx264', () => {
    const plan = systemPlan(machine({ osRelease: 'fedora', commands: ['dnf'], mode: 'test' }));
    expect(plan.steps.flatMap((s) => s.lines)).toEqual([
      'sudo dnf install -y --allowerasing chromium ffmpeg libsecret-devel python3 make gcc-c++ xz dbus-daemon ' +
        'gnome-keyring dovecot xorg-x11-server-Xvfb tesseract tesseract-langpack-eng firefox',
    ]);
    expect(plan.notes.join(' ')).toMatch(/RPM Fusion/);
    // Without ffmpeg to install, no --allowerasing (it lets dnf remove packages).
    const rest = machine({ osRelease: 'fedora', commands: ['dnf', 'ffmpeg'], uid: 0 });
    expect(systemPlan(rest).steps[0]!.run).toEqual([
      ['dnf', 'install', '-y', 'chromium', 'libsecret-devel', 'python3', 'make', 'gcc-c++', 'xz'],
    ]);
    // Rocky & co.: the same names, and EPEL for Chromium.
    expect(systemPlan(machine({ osRelease: 'rocky', commands: ['dnf'] })).notes.join(' ')).toMatch(/EPEL/);
  });

  it('Arch: pacman with its own names (python, gcc, xorg-server-xvfb)', () => {
    const facts = machine({ osRelease: 'arch', commands: ['pacman'], uid: 0, mode: 'test' });
    expect(systemPlan(facts).steps).toEqual([
      {
        run: [
          [
            'pacman',
            '-S',
            '--needed',
            '--noconfirm',
            ...['chromium', 'ffmpeg', 'libsecret', 'python', 'make', 'gcc', 'xz'],
            ...['dbus', 'gnome-keyring', 'dovecot', 'xorg-server-xvfb', 'tesseract', 'tesseract-data-eng', 'firefox'],
          ],
        ],
        lines: [
          'pacman -S --needed chromium ffmpeg libsecret python make gcc xz dbus gnome-keyring dovecot xorg-server-xvfb ' +
            'tesseract tesseract-data-eng firefox',
        ],
        mayRun: true,
      },
    ]);
  });

  it('openSUSE: zypper, with Packman named for the ffmpeg that has libx264', () => {
    const plan = systemPlan(machine({ osRelease: 'opensuse', commands: ['zypper'], mode: 'test' }));
    expect(plan.steps.flatMap((s) => s.lines)).toEqual([
      'sudo zypper install chromium ffmpeg libsecret-devel python3 make gcc-c++ xz dbus-1 gnome-keyring dovecot ' +
        'xorg-x11-server-Xvfb tesseract-ocr tesseract-ocr-traineddata-english MozillaFirefox',
    ]);
    expect(plan.steps[0]!.run[0]!.slice(0, 3)).toEqual(['zypper', '--non-interactive', 'install']);
    expect(plan.notes.join(' ')).toMatch(/Packman/);
  });

  it('macOS: Homebrew lines, printed and never run (even as root); no Linux-only parts', () => {
    const plan = systemPlan(machine({ platform: 'darwin', uid: 0, mode: 'test' }));
    expect(plan.missing).toEqual(['browser', 'ffmpeg']);
    expect(plan.steps).toEqual([
      {
        run: [
          ['brew', 'install', 'ffmpeg'],
          ['brew', 'install', '--cask', 'google-chrome'],
        ],
        lines: ['brew install ffmpeg', 'brew install --cask google-chrome'],
        mayRun: false,
      },
    ]);
    expect(plan.notes.join(' ')).toMatch(/Homebrew is not installed: https:\/\/brew\.sh/);
    const withChrome = machine({
      platform: 'darwin',
      commands: ['brew', 'ffmpeg'],
      files: ['/Users/jo/Applications/Google Chrome.app/Contents/MacOS/Google Chrome'],
    });
    expect(systemPlan(withChrome)).toMatchObject({ missing: [], steps: [] });
  });

  it('Windows: winget lines, one package each, printed and never run; Edge where Windows puts it counts', () => {
    const plan = systemPlan(machine({ platform: 'win32', commands: ['winget'] }));
    expect(plan.steps).toEqual([
      {
        run: [
          ['winget', 'install', '--id', 'Google.Chrome', '-e'],
          ['winget', 'install', '--id', 'Gyan.FFmpeg', '-e'],
        ],
        lines: ['winget install --id Google.Chrome -e', 'winget install --id Gyan.FFmpeg -e'],
        mayRun: false,
      },
    ]);
    const edge = 'C:\\Program Files (x86)\\Microsoft\\Edge\\Application\\msedge.exe';
    expect(systemPlan(machine({ platform: 'win32', commands: ['ffmpeg'], files: [edge] })).missing).toEqual([]);
  });

  it('a Linux with no known package manager: names what is missing instead of guessing packages', () => {
    const plan = systemPlan(machine({ osRelease: 'arch', commands: LINUX_COMMANDS, uid: 0 }));
    expect(plan).toMatchObject({ manager: null, steps: [], unavailable: ['browser', 'libsecret'] });
    expect(describePlan(plan).join('\n')).toMatch(
      /Install with your system's package manager.*Chromium-family browser.*libsecret development headers/,
    );
  });
});

describe('bootstrap: what counts as present', () => {
  it('no font is required: the caption fonts ship in resources/fonts, where the renderer reads them', () => {
    expect(NEEDS.map((n) => n.id).filter((id) => /font/i.test(id))).toEqual([]);
    for (const font of Object.values(CAPTION_FONTS))
      expect(fs.existsSync(path.join(REPO_ROOT, 'resources', 'fonts', font))).toBe(true);
    // A Fedora or Arch with everything but Debian's font path needs nothing.
    for (const osRelease of ['fedora', 'arch'] as const)
      expect(systemPlan(machine({ osRelease, mode: 'test', ...LINUX_ALL })).missing).toEqual([]);
  });

  it('ffmpeg without libx264 (Fedora’s ffmpeg-free) is missing, and the plan says why', () => {
    const facts = machine({ osRelease: 'fedora', ...LINUX_ALL, commands: [...LINUX_ALL.commands, 'dnf'] });
    expect(systemPlan({ ...facts, ffmpegEncoders: ' V....D libx264   libx264 H.264 / AVC' }).missing).toEqual([]);
    const plan = systemPlan({ ...facts, ffmpegEncoders: ' V....D libopenh264  OpenH264 H.264 / AVC' });
    expect(plan.missing).toEqual(['ffmpeg']);
    expect(plan.notes[0]).toMatch(/ffmpeg on PATH has no libx264/);
  });

  it('a Flatpak browser is named but not taken; AGENT_STUDIO_BROWSER_PATH counts when the file exists', () => {
    const flatpak = '/var/lib/flatpak/exports/bin/org.chromium.Chromium';
    const plan = systemPlan(machine({ osRelease: 'fedora', commands: ['dnf'], files: [flatpak] }));
    expect(plan.missing).toContain('browser');
    expect(plan.notes.join(' ')).toContain(`${flatpak} is a Flatpak browser`);
    const configured = (env: NodeJS.ProcessEnv) => findBrowser(machine({ env, files: ['/opt/b/chrome'] }));
    expect(configured({ AGENT_STUDIO_BROWSER_PATH: '/opt/b/chrome' })).toBe('/opt/b/chrome');
    expect(configured({ AGENT_STUDIO_BROWSER_PATH: '/opt/b/missing' })).toBeNull();
  });

  it('its browser list is the app resolver’s, on every OS, Playwright downloads included', () => {
    const cases: { platform: NodeJS.Platform; home: string; env: NodeJS.ProcessEnv; cache: string }[] = [
      { platform: 'linux', home: '/home/jo', env: {}, cache: '/home/jo/.cache/ms-playwright' },
      { platform: 'linux', home: '/home/jo', env: { PLAYWRIGHT_BROWSERS_PATH: '/pw' }, cache: '/pw' },
      { platform: 'darwin', home: '/Users/jo', env: {}, cache: '/Users/jo/Library/Caches/ms-playwright' },
      {
        platform: 'win32',
        home: 'C:\\Users\\Jo Doe',
        env: { LOCALAPPDATA: 'C:\\Users\\Jo Doe\\AppData\\Local', PROGRAMFILES: 'D:\\Apps' },
        cache: 'C:\\Users\\Jo Doe\\AppData\\Local\\ms-playwright',
      },
    ];
    for (const { platform, home, env, cache } of cases) {
      const list = (dir: string) => (dir === cache ? ['chromium-1100', 'chromium-1200', 'firefox-1'] : []);
      let searched: string[] = [];
      try {
        resolveBrowserExecutable({ platform, env, home, fs: { exists: () => false, list } });
      } catch (err) {
        searched = (err as BrowserNotFoundError).searched;
      }
      expect(searched.length).toBeGreaterThan(8);
      expect(browserCandidates({ platform, env, home, list })).toEqual(searched);
    }
  });
});

describe('bootstrap: arguments and a real run here', () => {
  it('takes --runtime/--test, --check, and the Node arguments after --then', () => {
    expect(parseArgs(['--test', '--then', 'scripts/run-tests.mjs', '--check'])).toEqual({
      mode: 'test',
      check: false,
      thenArgs: ['scripts/run-tests.mjs', '--check'],
    });
    expect(parseArgs(['--runtime', '--check'])).toEqual({ mode: 'runtime', check: true, thenArgs: null });
  });

  it('node scripts/bootstrap.mjs --runtime finds everything present here and exits 0', () => {
    const run = (args: string[]) =>
      spawnSync(process.execPath, ['scripts/bootstrap.mjs', ...args], { cwd: REPO_ROOT, encoding: 'utf8' });
    // On Linux --check first: were anything missing, the real run would install it (as root) in the middle of the
    // tests. (macOS and Windows only print what is missing and go on.)
    if (process.platform === 'linux') {
      const check = run(['--runtime', '--check']);
      expect(check.stderr).toContain('Nothing to do.');
      expect(check.status).toBe(0);
    }
    const real = run(['--runtime', '--then', '-e', 'process.stdout.write("ran " + process.version)']);
    if (process.platform === 'linux') expect(real.stderr).toBe('');
    expect(real.stdout).toBe(`ran ${process.version}`);
    expect(real.status).toBe(0);
  });
});
