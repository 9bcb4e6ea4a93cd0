// The bootstrap's platform decisions, pure: which package manager, which packages, which commands, and whether
// the bootstrap may run them. Everything about the machine comes in as `facts` (scripts/bootstrap/facts.mjs reads
// the real ones), so the unit tests play Debian, Ubuntu, Fedora, Arch, openSUSE, macOS and Windows on one Linux box.
import { flatpakBrowserExports } from './browsers.mjs';
import { NEEDS, needsFor, packageFor } from './packages.mjs';

/** /etc/os-release's ID, ID_LIKE (a list) and name; empty when there is no such file. */
export function parseOsRelease(text) {
  const fields = {};
  for (const line of (text || '').split('\n')) {
    const m = /^([A-Z0-9_]+)=(.*)$/.exec(line.trim());
    if (m) fields[m[1]] = m[2].replace(/^(["'])(.*)\1$/, '$2');
  }
  return {
    id: (fields.ID || '').toLowerCase(),
    idLike: (fields.ID_LIKE || '').toLowerCase().split(/\s+/).filter(Boolean),
    name: fields.PRETTY_NAME || fields.NAME || '',
  };
}

/**
 * The distribution family whose package names apply: debian, ubuntu, fedora, rhel, arch, suse, or null.
 * Ubuntu comes before Debian because Ubuntu and its derivatives (Mint, Pop!_OS) say ID_LIKE=debian too, and
 * their package set differs where it matters here (no Chromium or Firefox debs).
 */
export function linuxFamily(release) {
  const ids = [release.id, ...release.idLike];
  if (ids.includes('ubuntu')) return 'ubuntu';
  if (ids.includes('debian')) return 'debian';
  if (release.id === 'fedora') return 'fedora';
  if (ids.some((i) => ['rhel', 'centos', 'fedora'].includes(i))) return 'rhel';
  if (ids.includes('arch')) return 'arch';
  if (ids.some((i) => i === 'suse' || i === 'sles' || i.startsWith('opensuse'))) return 'suse';
  return null;
}

export const MANAGER_COMMAND = {
  apt: 'apt-get',
  dnf: 'dnf',
  pacman: 'pacman',
  zypper: 'zypper',
  brew: 'brew',
  winget: 'winget',
};
const MANAGER_OF_FAMILY = { debian: 'apt', ubuntu: 'apt', fedora: 'dnf', rhel: 'dnf', arch: 'pacman', suse: 'zypper' };

/**
 * The package manager to name: Homebrew on macOS, winget on Windows; on Linux the family's own when it is on PATH,
 * else whichever of apt-get, dnf, pacman and zypper is (an os-release we do not know), else none.
 */
export function detectPackageManager({ platform, osRelease, has }) {
  if (platform === 'darwin') return { manager: 'brew', family: 'macos' };
  if (platform === 'win32') return { manager: 'winget', family: 'windows' };
  const family = linuxFamily(parseOsRelease(osRelease));
  const own = family && MANAGER_OF_FAMILY[family];
  if (own && has(MANAGER_COMMAND[own])) return { manager: own, family };
  const found = ['apt', 'dnf', 'pacman', 'zypper'].find((m) => has(MANAGER_COMMAND[m]));
  return { manager: found ?? null, family };
}

/**
 * The commands that install `packages`: `run` (argv lists, for when the bootstrap may run them) and `lines` (what a
 * person types; with sudo unless they are root). Never sudo in `run`: the bootstrap runs them only as root.
 */
export function installCommands(manager, packages, { root }) {
  const sudo = root ? '' : 'sudo ';
  const list = packages.join(' ');
  if (manager === 'apt') {
    return {
      run: [
        ['apt-get', 'update', '-qq'],
        ['apt-get', 'install', '-y', '-qq', ...packages],
      ],
      lines: [`${sudo}apt-get update && ${sudo}apt-get install -y ${list}`],
    };
  }
  if (manager === 'dnf') {
    // RPM Fusion's ffmpeg replaces Fedora's ffmpeg-free, which dnf only does when allowed to erase.
    const erase = packages.includes('ffmpeg') ? ['--allowerasing'] : [];
    return {
      run: [['dnf', 'install', '-y', ...erase, ...packages]],
      lines: [`${sudo}dnf install -y ${[...erase, ...packages].join(' ')}`],
    };
  }
  if (manager === 'pacman') {
    return {
      run: [['pacman', '-S', '--needed', '--noconfirm', ...packages]],
      lines: [`${sudo}pacman -S --needed ${list}`],
    };
  }
  if (manager === 'zypper') {
    return {
      run: [['zypper', '--non-interactive', 'install', ...packages]],
      lines: [`${sudo}zypper install ${list}`],
    };
  }
  if (manager === 'brew') {
    const formulae = packages.filter((p) => !p.startsWith('--cask '));
    const casks = packages.filter((p) => p.startsWith('--cask ')).map((p) => p.slice('--cask '.length));
    const run = [];
    if (formulae.length) run.push(['brew', 'install', ...formulae]);
    if (casks.length) run.push(['brew', 'install', '--cask', ...casks]);
    return { run, lines: run.map((argv) => argv.join(' ')) };
  }
  if (manager === 'winget') {
    // One id per command: older winget (App Installer before 1.8) takes one package at a time.
    const run = packages.map((id) => ['winget', 'install', '--id', id, '-e']);
    return { run, lines: run.map((argv) => argv.join(' ')) };
  }
  throw new Error(`unknown package manager ${manager}`);
}

/** Why a family's packages may not be enough on their own: printed above the install line. */
function repositoryNotes(family, packages) {
  const notes = [];
  if ((family === 'fedora' || family === 'rhel') && packages.includes('ffmpeg'))
    notes.push(
      'ffmpeg with libx264 (the H.264 encoder the videos use) comes from RPM Fusion; Fedora’s own ffmpeg-free has ' +
        'none. Enable RPM Fusion first: https://rpmfusion.org/Configuration',
    );
  if (family === 'rhel' && packages.includes('chromium'))
    notes.push('Chromium comes from EPEL: enable it first (dnf install epel-release, or your distribution’s way).');
  if (family === 'suse' && packages.includes('ffmpeg'))
    notes.push(
      'ffmpeg with libx264 (the H.264 encoder the videos use) comes from the Packman repository; openSUSE’s own ' +
        'ffmpeg has none: https://en.opensuse.org/Additional_package_repositories#Packman',
    );
  return notes;
}

/**
 * What the system lacks and what to do about it. facts: { platform, mode ('runtime'|'test'), osRelease, uid, env,
 * home, has(cmd), exists(file), list(dir), ffmpegEncoders? }. Returns { manager, family, missing (need ids),
 * packages, steps: [{ lines, run, mayRun }], notes, unavailable (needs nothing here can install) }.
 * A step may run only on Linux, as root, with its command on PATH: the bootstrap never calls sudo itself, and on
 * macOS and Windows it prints the commands and leaves installing to the person.
 */
export function systemPlan(facts) {
  const { platform } = facts;
  const { manager, family } = detectPackageManager(facts);
  const root = platform === 'linux' && facts.uid === 0;
  const mayRun = (cmd) => root && facts.has(cmd);
  const packages = [];
  const asked = [];
  const unavailable = [];
  const steps = [];
  const notes = [];
  let ubuntuBrowser = false;
  for (const need of needsFor(platform, facts.mode).filter((n) => !n.present(facts))) {
    const pkg = manager && packageFor(manager, family, need.id);
    if (!pkg && need.onlyWherePackaged) continue;
    asked.push(need);
    // A need may be several packages (Tesseract and its English data, split apart outside Debian).
    if (pkg) packages.push(...[pkg].flat());
    else if (need.id === 'browser' && family === 'ubuntu') ubuntuBrowser = true;
    else unavailable.push(need);
  }

  if (asked.some((n) => n.id === 'ffmpeg') && facts.has('ffmpeg'))
    notes.push('The ffmpeg on PATH has no libx264 encoder (H.264), which the videos use.');
  if (asked.some((n) => n.id === 'browser')) {
    const flatpak = flatpakBrowserExports(facts.home).find((f) => facts.exists(f));
    if (flatpak)
      notes.push(
        `${flatpak} is a Flatpak browser, which the app does not use by itself (its sandbox hides the profile ` +
          'folder a login prepares). Install a native one as below, or set AGENT_STUDIO_BROWSER_PATH to try it.',
      );
  }
  if (packages.length) {
    notes.push(...repositoryNotes(family, packages));
    const cmds = installCommands(manager, packages, { root });
    steps.push({ ...cmds, mayRun: mayRun(MANAGER_COMMAND[manager]) });
  }
  if (ubuntuBrowser) {
    notes.push(
      'Ubuntu has Chromium only as a snap (its chromium-browser deb just installs that snap, and fails where snapd ' +
        'does not run); Google Chrome’s .deb (https://www.google.com/chrome/) works too.',
    );
    const lines = [`${root ? '' : 'sudo '}snap install chromium`];
    steps.push({ run: [['snap', 'install', 'chromium']], lines, mayRun: mayRun('snap') });
  }
  if (manager === 'brew' && steps.length && !facts.has('brew'))
    notes.push('Homebrew is not installed: https://brew.sh (or install the same software another way).');
  if (manager === 'winget' && steps.length && !facts.has('winget'))
    notes.push('winget comes with Microsoft’s App Installer (Microsoft Store); or install the same software by hand.');
  return {
    manager,
    family,
    missing: asked.map((n) => n.id),
    packages,
    steps,
    notes,
    unavailable: unavailable.map((n) => n.id),
  };
}

/** The plan as the lines the bootstrap prints (without its prefix). */
export function describePlan(plan) {
  if (!plan.missing.length) return [];
  const out = [];
  const what = (id) => NEEDS.find((n) => n.id === id)?.what ?? id;
  out.push(`Missing: ${plan.missing.map(what).join('; ')}.`);
  out.push(...plan.notes);
  if (plan.unavailable.length)
    out.push(
      `Install with your system's package manager (no package is known here for it): ` +
        plan.unavailable.map(what).join('; '),
    );
  const lines = plan.steps.flatMap((s) => s.lines);
  if (lines.length) out.push(`Run:\n  ${lines.join('\n  ')}`);
  return out;
}
