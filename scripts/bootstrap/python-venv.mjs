// The Python client's test venv (.python/venv, git-ignored): the bootstrap's test mode makes it with the machine's
// python3 and `pip install -e ./clients/python[test]`, again only when clients/python/pyproject.toml changed (a
// stamp, as for `npm ci`); test/integration/clients/python-client.test.ts runs the client's pytest suite in it.
// Pure: paths, the stamp and the commands; scripts/bootstrap.mjs runs them.
import crypto from 'node:crypto';
import path from 'node:path';

/** Where the venv, its Python, its stamp and the pyproject.toml it is made from are, under the repository `root`. */
export function venvPaths(root, platform) {
  const dir = path.join(root, '.python', 'venv');
  return {
    dir,
    python: platform === 'win32' ? path.join(dir, 'Scripts', 'python.exe') : path.join(dir, 'bin', 'python'),
    // Written last, once everything is installed: a venv without it is a half-made one (the test treats it so).
    stamp: path.join(dir, '.agent-studio-pyproject.sha256'),
    pyproject: path.join(root, 'clients', 'python', 'pyproject.toml'),
  };
}

/** The recipe below, in the stamp: changing how the venv is made remakes it, as a changed pyproject.toml does. */
const RECIPE = 'venv+pip-install-e-test/1';

/** The stamp of a venv made from `pyprojectText` on this platform. */
export function venvStamp(pyprojectText, platform, arch) {
  return crypto.createHash('sha256').update(pyprojectText).update(`${RECIPE}-${platform}-${arch}`).digest('hex');
}

/**
 * The commands that make the venv, run from `root`: the machine's Python 3, then pip in the venv. Each is
 * `{ argv, env }`; pip's settings go in its environment, which the build of the package (hatchling, installed by a
 * pip of its own) inherits, where a command-line flag would not reach.
 */
export function venvCommands(root, platform, env) {
  const { dir, python } = venvPaths(root, platform);
  // Windows' launcher names Python 3 `py -3`; elsewhere python3 is the name every distribution uses.
  const base = platform === 'win32' ? ['py', '-3'] : ['python3'];
  const pipEnv = {
    ...env,
    PIP_DISABLE_PIP_VERSION_CHECK: '1',
    // pip retries an index it cannot reach 5 times with growing pauses, about 8 s per package: where one of the
    // configured indexes is unreachable (a machine that installs from a local mirror) that is minutes for
    // nothing. One retry still rides out a dropped connection; PIP_RETRIES, when set, decides instead.
    PIP_RETRIES: env.PIP_RETRIES || '1',
  };
  return [
    { argv: [...base, '-m', 'venv', dir], env },
    {
      argv: [python, '-m', 'pip', 'install', '--quiet', '--editable', `${path.join('clients', 'python')}[test]`],
      env: pipEnv,
    },
  ];
}
