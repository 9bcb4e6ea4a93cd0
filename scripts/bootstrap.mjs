#!/usr/bin/env node
// Idempotent set-up for `npm start` / `npm test` / `npm run serve|cli|bench`, then runs the command.
//   node scripts/bootstrap.mjs --runtime|--test [--then NODE_ARGS...]
// 1. System packages: apt-get when root on Debian/Ubuntu, otherwise the exact command to run.
// 2. A supported Node: the machine's when it is >= 22.12, else Node 24 LTS from the npm registry's
//    official builds (node-<os>-<arch>, headers included) in .node/, as a version manager would.
// 3. `npm ci` only when the lockfile or the Node ABI changed; native modules build against the
//    headers of the Node that runs them (npm_config_nodedir), never downloading anything else.
// 4. With --then: runs `node NODE_ARGS...` with that Node (its bin dir first on PATH), relaying signals.
// Node built-ins only, and runnable on old Node: this runs before node_modules exists.
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
let mode = 'runtime';
const say = (msg) => process.stderr.write(`[bootstrap] ${msg}\n`);
const isWin = process.platform === 'win32';

const MIN_NODE = [22, 12, 0];
/** The Node line provisioned when the machine's is too old (keep in step with .nvmrc). */
const NODE_LINE = fs.readFileSync(path.join(root, '.nvmrc'), 'utf8').trim();

const onPath = (cmd) =>
  (process.env.PATH ?? '').split(path.delimiter).some((dir) => dir && fs.existsSync(path.join(dir, cmd)));
const anyFile = (...files) => files.some((f) => fs.existsSync(f));
const dpkgHas = (pkg) =>
  spawnSync('dpkg-query', ['-W', '-f=${Status}', pkg], { encoding: 'utf8' }).stdout?.includes('install ok installed');

/** Debian itself: its firefox-esr package exists there (Ubuntu has none; its firefox is a snap). */
function isDebian() {
  try {
    return /^ID="?debian"?$/m.test(fs.readFileSync('/etc/os-release', 'utf8'));
  } catch {
    return false;
  }
}

/** [debian package, check, needed for] */
function linuxRequirements() {
  const reqs = [
    [
      'chromium',
      () =>
        anyFile(
          '/usr/bin/chromium',
          '/usr/bin/chromium-browser',
          '/usr/bin/google-chrome',
          '/usr/bin/google-chrome-stable',
        ) || !!process.env.AGENT_STUDIO_BROWSER_PATH,
      'runtime',
    ],
    ['ffmpeg', () => onPath('ffmpeg'), 'runtime'],
    [
      'libsecret-1-dev',
      () => dpkgHas('libsecret-1-dev') || anyFile('/usr/include/libsecret-1/libsecret/secret.h'),
      'runtime',
    ],
    ['python3', () => onPath('python3'), 'runtime'],
    ['make', () => onPath('make'), 'runtime'],
    ['g++', () => onPath('g++'), 'runtime'],
    ['xz-utils', () => onPath('xz'), 'runtime'],
    ['dbus', () => onPath('dbus-run-session') && onPath('dbus-daemon'), 'test'],
    ['gnome-keyring', () => onPath('gnome-keyring-daemon'), 'test'],
    ['dovecot-imapd', () => anyFile('/usr/sbin/dovecot'), 'test'],
    ['xvfb', () => onPath('Xvfb'), 'test'],
    ['fonts-dejavu-core', () => anyFile('/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf'), 'runtime'],
  ];
  // The Firefox profile import tests need a real Firefox; under CI they fail without one (test/helpers/requires.ts).
  if (isDebian()) reqs.push(['firefox-esr', () => anyFile('/usr/bin/firefox-esr', '/usr/bin/firefox'), 'test']);
  return reqs.filter(([, , need]) => need === 'runtime' || mode === 'test');
}

function ensureSystemPackages() {
  if (process.platform === 'darwin' || isWin) {
    if (!onPath(isWin ? 'ffmpeg.exe' : 'ffmpeg')) {
      say(
        'Please install ffmpeg (`brew install ffmpeg` / `winget install ffmpeg`). Google Chrome, Edge or Chromium is used for logins.',
      );
    }
    return;
  }
  if (process.platform !== 'linux') return;
  const missing = linuxRequirements()
    .filter(([, check]) => !check())
    .map(([pkg]) => pkg);
  if (!missing.length) return;
  if (!onPath('apt-get')) {
    say(`Missing system packages: ${missing.join(' ')}. Install them with your distribution's package manager.`);
    process.exit(1);
  }
  if (process.getuid?.() !== 0) {
    say(`Missing system packages. Run:\n  sudo apt-get update && sudo apt-get install -y ${missing.join(' ')}`);
    process.exit(1);
  }
  say(`Installing system packages: ${missing.join(' ')}`);
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  execFileSync('apt-get', ['update', '-qq'], { stdio: ['ignore', 'ignore', 'inherit'], env });
  execFileSync('apt-get', ['install', '-y', '-qq', ...missing], { stdio: ['ignore', 'ignore', 'inherit'], env });
}

const versionOk = (v) => {
  const [a, b, c] = v.replace(/^v/, '').split('.').map(Number);
  return a !== MIN_NODE[0] ? a > MIN_NODE[0] : b !== MIN_NODE[1] ? b > MIN_NODE[1] : c >= MIN_NODE[2];
};

/** Where a provisioned Node lives: .node/<os>-<arch>/ with bin/node (node.exe at the top on Windows). */
const provisionDir = path.join(root, '.node', `${process.platform}-${process.arch}`);
const provisionedNode = path.join(provisionDir, isWin ? 'node.exe' : path.join('bin', 'node'));

function nodeVersionOf(bin) {
  const res = spawnSync(bin, ['-p', 'process.version + " " + process.versions.modules'], { encoding: 'utf8' });
  if (res.status !== 0) return null;
  const [version, modules] = res.stdout.trim().split(' ');
  return { version, modules };
}

/** Downloads the official Node build from the npm registry (what the `node` package installs). */
function provisionNode() {
  const pkg = `node-${isWin ? 'win' : process.platform}-${process.arch}@${NODE_LINE}`;
  say(
    `Node ${process.version} is older than ${MIN_NODE.join('.')}: installing ${pkg} from the npm registry into .node/`,
  );
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'agent-studio-node-'));
  try {
    const npm = isWin ? 'npm.cmd' : 'npm';
    const out = execFileSync(npm, ['pack', pkg, '--pack-destination', tmp, '--silent'], {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'inherit'],
      shell: isWin,
    });
    const tarball = path.join(tmp, out.trim().split('\n').pop());
    const unpacked = path.join(tmp, 'unpacked');
    fs.mkdirSync(unpacked);
    execFileSync('tar', ['-xzf', tarball, '-C', unpacked], { stdio: 'inherit' });
    fs.rmSync(provisionDir, { recursive: true, force: true });
    fs.mkdirSync(path.dirname(provisionDir), { recursive: true });
    fs.renameSync(path.join(unpacked, 'package'), provisionDir);
    if (!isWin) fs.chmodSync(provisionedNode, 0o755);
  } finally {
    fs.rmSync(tmp, { recursive: true, force: true });
  }
  const got = nodeVersionOf(provisionedNode);
  if (!got) {
    say(
      `The Node build in ${provisionDir} does not run on this machine. Install Node ${NODE_LINE} yourself (nvm, fnm, nodesource).`,
    );
    process.exit(1);
  }
  say(`Node ${got.version} is ready in ${path.relative(root, provisionDir)}`);
}

/** The Node that runs the project: the machine's when supported, else the provisioned one. */
function ensureNode() {
  if (versionOk(process.version) && !process.env.AGENT_STUDIO_FORCE_LOCAL_NODE) {
    return { bin: process.execPath, version: process.version, modules: process.versions.modules };
  }
  let got = fs.existsSync(provisionedNode) ? nodeVersionOf(provisionedNode) : null;
  if (!got || !versionOk(got.version)) {
    try {
      provisionNode();
    } catch (err) {
      say(
        `Could not install Node ${NODE_LINE} from the npm registry (${err.message.split('\n')[0]}). ` +
          `Install Node ${NODE_LINE} yourself (nvm install ${NODE_LINE}, nodesource, Homebrew or nodejs.org) and run this again.`,
      );
      process.exit(1);
    }
    got = nodeVersionOf(provisionedNode);
  }
  return { bin: provisionedNode, ...got };
}

/** The Node install prefix whose include/node has the headers native modules build against. */
function headersDir(nodeBin) {
  const prefix = isWin ? path.dirname(nodeBin) : path.dirname(path.dirname(nodeBin));
  return fs.existsSync(path.join(prefix, 'include', 'node', 'node.h')) ? prefix : null;
}

function envFor(node) {
  const env = {
    ...process.env,
    PATH: `${path.dirname(node.bin)}${path.delimiter}${process.env.PATH ?? ''}`,
    ELECTRON_SKIP_BINARY_DOWNLOAD: process.env.ELECTRON_SKIP_BINARY_DOWNLOAD ?? '1',
    PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD: '1',
  };
  const headers = headersDir(node.bin);
  // node-gyp would otherwise download headers from the internet, which is often unreachable.
  if (headers) env.npm_config_nodedir = headers;
  return env;
}

function ensureNodeModules(node) {
  const lock = path.join(root, 'package-lock.json');
  const stamp = path.join(root, 'node_modules', '.agent-studio-lock.sha256');
  const want = crypto
    .createHash('sha256')
    .update(fs.readFileSync(lock))
    .update(`${node.modules}-${process.platform}-${process.arch}`)
    .digest('hex');
  if (fs.existsSync(stamp) && fs.readFileSync(stamp, 'utf8').trim() === want) return;
  const env = envFor(node);
  if (!env.npm_config_nodedir) {
    say(
      `The Node at ${node.bin} has no headers (include/node), so native modules (better-sqlite3, keytar) cannot be ` +
        `built offline. Use an official Node build (nodejs.org, nvm, nodesource, Homebrew) or delete .node/ and retry.`,
    );
  }
  say(`package-lock.json changed (or first run): npm ci with Node ${node.version}`);
  const npm = isWin ? 'npm.cmd' : 'npm';
  const res = spawnSync(npm, ['ci', '--no-audit', '--no-fund'], {
    cwd: root,
    // npm's output goes to stderr: stdout belongs to the script run after (`npm run -s mcp` speaks MCP on it).
    stdio: ['ignore', 2, 'inherit'],
    env,
    shell: isWin,
  });
  if (res.status !== 0) {
    say('npm ci failed');
    process.exit(res.status ?? 1);
  }
  fs.writeFileSync(stamp, `${want}\n`);
}

function runThen(node, args) {
  const child = spawn(node.bin, args, { cwd: process.cwd(), stdio: 'inherit', env: envFor(node) });
  // One Ctrl-C reaches the whole foreground process group; a kill of this process alone is relayed.
  for (const sig of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.on(sig, () => child.kill(sig));
  child.on('exit', (code, signal) => {
    if (signal) {
      process.removeAllListeners(signal);
      process.kill(process.pid, signal);
    }
    process.exit(code ?? 1);
  });
}

/** The bootstrap's own flags, and the Node arguments after --then (null without it). */
export function parseArgs(argv) {
  const thenAt = argv.indexOf('--then');
  const own = thenAt === -1 ? argv : argv.slice(0, thenAt);
  return { mode: own.includes('--test') ? 'test' : 'runtime', thenArgs: thenAt === -1 ? null : argv.slice(thenAt + 1) };
}

export function main(argv) {
  const args = parseArgs(argv);
  mode = args.mode;
  ensureSystemPackages();
  const node = ensureNode();
  ensureNodeModules(node);
  if (args.thenArgs) runThen(node, args.thenArgs);
}

/** Whether this file is the script Node was asked to run (through symlinks too: macOS's /tmp is /private/tmp). */
function isMainScript() {
  try {
    return !!process.argv[1] && fs.realpathSync(process.argv[1]) === fs.realpathSync(fileURLToPath(import.meta.url));
  } catch {
    return false;
  }
}

// Only when run as a script: the unit tests import this file for its decisions.
if (isMainScript()) main(process.argv.slice(2));
