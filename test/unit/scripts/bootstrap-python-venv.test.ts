// The bootstrap's test venv for the Python client (scripts/bootstrap/python-venv.mjs): Debian's python3 without its
// venv module asks for python3-venv (other distributions' python3 has it), the venv's paths per OS, the commands that
// make it, and the stamp that remakes it only when clients/python/pyproject.toml (or the recipe) changed.
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { systemPlan, venvCommands, venvPaths, venvStamp, type Facts } from '../../../scripts/bootstrap.mjs';

const DEBIAN = 'PRETTY_NAME="Debian GNU/Linux 12 (bookworm)"\nID=debian\n';
const FEDORA = 'NAME="Fedora Linux"\nID=fedora\n';

/** A test-mode Linux with every part the suite needs but, maybe, python3's venv module. */
function linux(osRelease: string, pythonVenv: boolean | null, commands: string[] = ['apt-get', 'dnf']): Facts {
  const has = new Set([...commands, 'ffmpeg', 'python3', 'make', 'g++', 'xz', 'dbus-run-session', 'dbus-daemon']);
  has.add('gnome-keyring-daemon').add('Xvfb').add('tesseract');
  const files = new Set(['/usr/bin/chromium', '/usr/include/libsecret-1/libsecret/secret.h', '/usr/sbin/dovecot']);
  files.add('/usr/bin/firefox');
  return {
    platform: 'linux',
    mode: 'test',
    osRelease,
    uid: 0,
    env: {},
    home: '/root',
    has: (cmd) => has.has(cmd),
    exists: (file) => files.has(file),
    list: () => [],
    pythonVenv,
  };
}

describe('bootstrap: the Python client test venv', () => {
  it('Debian: python3 that cannot make a venv asks for python3-venv; one that can, or not asked, asks nothing', () => {
    expect(systemPlan(linux(DEBIAN, false))).toMatchObject({ missing: ['python3-venv'], packages: ['python3-venv'] });
    expect(systemPlan(linux(DEBIAN, true)).missing).toEqual([]);
    expect(systemPlan(linux(DEBIAN, null)).missing).toEqual([]);
    // Fedora's python3 has the venv module: nothing to install there, and nothing said as missing.
    expect(systemPlan(linux(FEDORA, false, ['dnf'])).missing).toEqual([]);
    // Runtime mode never asks (the venv is the tests' alone).
    expect(systemPlan({ ...linux(DEBIAN, false), mode: 'runtime' }).missing).toEqual([]);
  });

  it('lives in .python/venv, with the Python where each OS puts it and the stamp written last', () => {
    const root = path.join('/', 'repo');
    expect(venvPaths(root, 'linux')).toEqual({
      dir: path.join(root, '.python', 'venv'),
      python: path.join(root, '.python', 'venv', 'bin', 'python'),
      stamp: path.join(root, '.python', 'venv', '.agent-studio-pyproject.sha256'),
      pyproject: path.join(root, 'clients', 'python', 'pyproject.toml'),
    });
    expect(venvPaths(root, 'win32').python).toBe(path.join(root, '.python', 'venv', 'Scripts', 'python.exe'));
  });

  it('is made with the machine’s Python 3, then an editable install of the client with its test extras', () => {
    const root = path.join('/', 'repo');
    const [venv, pip] = venvCommands(root, 'linux', { PATH: '/usr/bin' });
    expect(venv!.argv).toEqual(['python3', '-m', 'venv', path.join(root, '.python', 'venv')]);
    expect(pip!.argv).toEqual([
      path.join(root, '.python', 'venv', 'bin', 'python'),
      ...['-m', 'pip', 'install', '--quiet', '--editable', `${path.join('clients', 'python')}[test]`],
    ]);
    // pip's settings in its environment, which the package's isolated build inherits; a person's PIP_RETRIES wins.
    expect(pip!.env).toMatchObject({ PATH: '/usr/bin', PIP_RETRIES: '1', PIP_DISABLE_PIP_VERSION_CHECK: '1' });
    expect(venvCommands(root, 'linux', { PIP_RETRIES: '5' })[1]!.env.PIP_RETRIES).toBe('5');
    expect(venvCommands(root, 'win32', {})[0]!.argv.slice(0, 2)).toEqual(['py', '-3']);
  });

  it('is remade only when pyproject.toml changed, or on another OS or CPU', () => {
    const pyproject = '[project]\nname = "agent-studio-client"\n';
    const stamp = venvStamp(pyproject, 'linux', 'x64');
    expect(stamp).toMatch(/^[0-9a-f]{64}$/);
    expect(venvStamp(pyproject, 'linux', 'x64')).toBe(stamp);
    expect(venvStamp(`${pyproject}dependencies = ["httpx"]\n`, 'linux', 'x64')).not.toBe(stamp);
    expect(venvStamp(pyproject, 'darwin', 'x64')).not.toBe(stamp);
    expect(venvStamp(pyproject, 'linux', 'arm64')).not.toBe(stamp);
  });
});
