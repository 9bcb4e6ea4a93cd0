#!/usr/bin/env node
// Idempotent set-up for `npm start` / `npm test` / `npm run serve|cli|bench`, then runs the command.
//   node scripts/bootstrap.mjs --runtime|--test [--check] [--then NODE_ARGS...]
// 1. System packages, named for the system's package manager (apt, dnf, pacman, zypper, Homebrew, winget): on
//    Linux as root they are installed, otherwise the exact command is printed (Linux: and the bootstrap stops;
//    macOS and Windows: it goes on, the app runs without them until a feature needs them).
// 2. A supported Node: the machine's when it is >= 22.12, else the .nvmrc line from the npm registry's official
//    builds (node-<os>-<arch>) in .node/, as a version manager would; where the registry has no build for this
//    machine it says what to install instead.
// 3. `npm ci` only when the lockfile or the Node ABI changed, after checking for the native-build toolchain;
//    native modules build against the headers of the Node that runs them (npm_config_nodedir) where it has them.
// 4. --test only: the Python client's test venv (.python/venv) when clients/python/pyproject.toml changed
//    (scripts/bootstrap/python-venv.mjs); a failure is said and the run goes on (its test skips, or fails under CI).
// 5. With --then: runs `node NODE_ARGS...` with that Node (its bin dir first on PATH); signals: launcher-signals.mjs.
// --check: says what it would do and changes nothing; exits 0 only when there is nothing to do.
// The decisions are pure functions in scripts/bootstrap/ (re-exported here for the tests); this file does the I/O.
// Node built-ins only, and runnable on old Node: this runs before node_modules exists.
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { readFacts, withToolchainFacts } from './bootstrap/facts.mjs';
import {
  MIN_NODE,
  nodeFetchFailed,
  nodePackage,
  nodePrefix,
  npmInvocation,
  provisionedNodePath,
  versionOk,
} from './bootstrap/node-dist.mjs';
import { describePlan, systemPlan } from './bootstrap/platform.mjs';
import { venvCommands, venvPaths, venvStamp } from './bootstrap/python-venv.mjs';
import { toolchainCheck } from './bootstrap/toolchain.mjs';
import { handleSignalsFor } from './launcher-signals.mjs';

export {
  browserCandidates,
  findBrowser,
  flatpakBrowserExports,
  systemBrowserCandidates,
} from './bootstrap/browsers.mjs';
export { onPath } from './bootstrap/facts.mjs';
export {
  MIN_NODE,
  nodeFetchFailed,
  nodePackage,
  nodePrefix,
  npmInvocation,
  provisionedNodePath,
  versionOk,
} from './bootstrap/node-dist.mjs';
export { NEEDS, PACKAGES, needsFor, packageFor } from './bootstrap/packages.mjs';
export {
  describePlan,
  detectPackageManager,
  installCommands,
  linuxFamily,
  parseOsRelease,
  systemPlan,
} from './bootstrap/platform.mjs';
export { venvCommands, venvPaths, venvStamp } from './bootstrap/python-venv.mjs';
export { toolchainCheck, WINDOWS_BUILD_TOOLS, WINDOWS_PYTHON } from './bootstrap/toolchain.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const say = (msg) => process.stderr.write(`[bootstrap] ${msg}\n`);
const isWin = process.platform === 'win32';

/** The Node line provisioned when the machine's is too old (keep in step with .nvmrc). */
const NODE_LINE = fs.readFileSync(path.join(root, '.nvmrc'), 'utf8').trim();

/** The bootstrap's own flags, and the Node arguments after --then (null without it). */
export function parseArgs(argv) {
  const thenAt = argv.indexOf('--then');
  const own = thenAt === -1 ? argv : argv.slice(0, thenAt);
  return {
    mode: own.includes('--test') ? 'test' : 'runtime',
    check: own.includes('--check'),
    thenArgs: thenAt === -1 ? null : argv.slice(thenAt + 1),
  };
}

/** Installs what the plan may install, or prints it. Returns whether the run can go on. */
function ensureSystemPackages(plan, facts, check) {
  if (!plan.missing.length) return true;
  const text = describePlan(plan).join('\n');
  if (facts.platform !== 'linux') {
    say(`${text}\n(The bootstrap does not run installers on macOS or Windows; going on without these.)`);
    return !check;
  }
  const runnable = !plan.unavailable.length && plan.steps.every((s) => s.mayRun);
  if (check || !runnable) {
    say(text);
    if (!check) process.exit(1);
    return false;
  }
  for (const line of plan.notes) say(line);
  say(`Installing what is missing: ${plan.steps.flatMap((s) => s.lines).join('; ')}`);
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  for (const argv of plan.steps.flatMap((s) => s.run)) {
    try {
      // Their output goes to stderr: stdout belongs to the script run after (`npm run -s mcp` speaks MCP on it).
      execFileSync(argv[0], argv.slice(1), { stdio: ['ignore', 2, 'inherit'], env });
    } catch {
      say(`\`${argv.join(' ')}\` failed; see its output above.`);
      process.exit(1);
    }
  }
  return true;
}

function nodeVersionOf(bin) {
  const res = spawnSync(bin, ['-p', 'process.version + " " + process.versions.modules'], { encoding: 'utf8' });
  if (res.status !== 0) return null;
  const [version, modules] = res.stdout.trim().split(' ');
  return { version, modules };
}

/** Unpacks the registry package `spec` (the official Node build) into `dir`. */
function provisionNode(spec, dir) {
  const nodeRoot = path.dirname(dir);
  fs.mkdirSync(nodeRoot, { recursive: true });
  // Downloaded beside its final place, so the last step is a rename within one filesystem: a temp dir elsewhere
  // (another mount, as /tmp often is) makes renameSync fail with EXDEV.
  const tmp = fs.mkdtempSync(path.join(nodeRoot, 'download-'));
  try {
    // npm writes into its cwd: no path on the command line, which on Windows goes through cmd.exe (npm.cmd) and
    // would be split at a space in the user's folder name.
    const npm = npmInvocation(['pack', spec, '--silent'], process.platform);
    const out = execFileSync(npm.file, npm.args, {
      cwd: tmp,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'inherit'],
      shell: npm.shell,
    });
    const tarball = out.trim().split('\n').pop().trim();
    const unpacked = path.join(tmp, 'unpacked');
    fs.mkdirSync(unpacked);
    // A relative name: a GNU tar on PATH (Git for Windows') would read "C:\..." as a remote host.
    execFileSync('tar', ['-xzf', path.join('..', tarball)], { cwd: unpacked, stdio: ['ignore', 2, 'inherit'] });
    fs.rmSync(dir, { recursive: true, force: true });
    fs.renameSync(path.join(unpacked, 'package'), dir);
    if (!isWin) fs.chmodSync(provisionedNodePath(dir, process.platform), 0o755);
  } finally {
    fs.rmSync(tmp, { recursive: true, force: true });
  }
}

/** The Node that runs the project: the machine's when supported, else the provisioned one (null: --check). */
function ensureNode(check) {
  if (versionOk(process.version) && !process.env.AGENT_STUDIO_FORCE_LOCAL_NODE) {
    return { bin: process.execPath, version: process.version, modules: process.versions.modules };
  }
  const dir = path.join(root, '.node', `${process.platform}-${process.arch}`);
  const bin = provisionedNodePath(dir, process.platform);
  const have = fs.existsSync(bin) ? nodeVersionOf(bin) : null;
  if (have && versionOk(have.version)) return { bin, ...have };
  const why = versionOk(process.version)
    ? 'AGENT_STUDIO_FORCE_LOCAL_NODE is set'
    : `Node ${process.version} is older than ${MIN_NODE.join('.')}`;
  const pkg = nodePackage(process.platform, process.arch, NODE_LINE);
  if (!pkg.spec) {
    say(`${why}. ${pkg.message}`);
    process.exit(1);
  }
  if (check) {
    say(`${why}: would install ${pkg.spec} into .node/`);
    return null;
  }
  say(`${why}: installing ${pkg.spec} from the npm registry`);
  try {
    provisionNode(pkg.spec, dir);
  } catch (err) {
    say(nodeFetchFailed(process.platform, NODE_LINE, pkg.spec, err.message.split('\n')[0]));
    process.exit(1);
  }
  const got = nodeVersionOf(bin);
  if (!got) {
    say(
      `The Node build in ${dir} does not run on this machine. ${nodeFetchFailed(process.platform, NODE_LINE, pkg.spec, 'it does not start')}`,
    );
    process.exit(1);
  }
  say(`Node ${got.version} is ready in ${path.relative(root, dir)}`);
  return { bin, ...got };
}

/** The Node install prefix whose include/node has the headers native modules build against, or null. */
function headersDir(nodeBin) {
  const prefix = nodePrefix(nodeBin, process.platform);
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

/** `npm ci` when the lockfile or the Node ABI changed. Returns whether node_modules was already current. */
function ensureNodeModules(node, facts, installLines, check) {
  const lock = path.join(root, 'package-lock.json');
  const stamp = path.join(root, 'node_modules', '.agent-studio-lock.sha256');
  const want = crypto
    .createHash('sha256')
    .update(fs.readFileSync(lock))
    .update(`${node.modules}-${process.platform}-${process.arch}`)
    .digest('hex');
  if (fs.existsSync(stamp) && fs.readFileSync(stamp, 'utf8').trim() === want) return true;
  if (check) {
    say('package-lock.json changed (or first run): would run npm ci');
    return false;
  }
  const toolchain = toolchainCheck(withToolchainFacts(facts), installLines);
  if (toolchain.advice) {
    say(toolchain.advice);
    if (toolchain.required) process.exit(1);
  }
  const env = envFor(node);
  if (!env.npm_config_nodedir) {
    say(
      `The Node at ${node.bin} has no headers (include/node; the registry's Windows build has none), so if keytar ` +
        'must be built from source, node-gyp downloads them from nodejs.org.',
    );
  }
  say(`package-lock.json changed (or first run): npm ci with Node ${node.version}`);
  const npm = npmInvocation(['ci', '--no-audit', '--no-fund'], process.platform);
  const res = spawnSync(npm.file, npm.args, {
    cwd: root,
    // npm's output goes to stderr: stdout belongs to the script run after (`npm run -s mcp` speaks MCP on it).
    stdio: ['ignore', 2, 'inherit'],
    env,
    shell: npm.shell,
  });
  if (res.status !== 0) {
    say(`npm ci failed${toolchain.advice ? `; the likely cause: ${toolchain.advice}` : ''}`);
    process.exit(res.status ?? 1);
  }
  fs.writeFileSync(stamp, `${want}\n`);
  return true;
}

/** The Python client's test venv, made anew when pyproject.toml changed. Returns whether it is ready. */
function ensurePythonVenv(check) {
  const venv = venvPaths(root, process.platform);
  const want = venvStamp(fs.readFileSync(venv.pyproject), process.platform, process.arch);
  let have = null;
  try {
    have = fs.readFileSync(venv.stamp, 'utf8').trim();
  } catch {
    // no stamp: first run, or a venv whose install did not finish
  }
  // existsSync follows the venv's python symlink: a venv whose base Python was removed or upgraded is remade.
  if (have === want && fs.existsSync(venv.python)) return true;
  const why = 'clients/python/pyproject.toml changed (or first run)';
  if (check) {
    say(`${why}: would make .python/venv for the Python client's tests`);
    return false;
  }
  say(`${why}: making .python/venv for the Python client's tests (pip install -e clients/python[test])`);
  // A new venv each time: one made by another Python, or holding packages the pyproject no longer names, is not kept.
  fs.rmSync(venv.dir, { recursive: true, force: true });
  for (const { argv, env } of venvCommands(root, process.platform, process.env)) {
    const res = spawnSync(argv[0], argv.slice(1), { cwd: root, env, stdio: ['ignore', 2, 'inherit'] });
    if (res.status !== 0) {
      say(
        `\`${argv.join(' ')}\` failed (${res.error?.message ?? `exit ${res.status}`}): the Python client's tests ` +
          'skip (under CI they fail). Python 3.9 or newer with its venv module is what they need.',
      );
      return false;
    }
  }
  fs.writeFileSync(venv.stamp, `${want}\n`);
  return true;
}

function runThen(node, args) {
  const child = spawn(node.bin, args, { cwd: process.cwd(), stdio: 'inherit', env: envFor(node) });
  handleSignalsFor(child);
  child.on('exit', (code, signal) => {
    if (signal) {
      process.removeAllListeners(signal);
      process.kill(process.pid, signal);
    }
    process.exit(code ?? 1);
  });
}

export function main(argv) {
  const args = parseArgs(argv);
  const facts = readFacts(args.mode);
  const plan = systemPlan(facts);
  const systemReady = ensureSystemPackages(plan, facts, args.check);
  const node = ensureNode(args.check);
  const installLines = plan.steps.flatMap((s) => s.lines);
  const modulesReady = node ? ensureNodeModules(node, facts, installLines, args.check) : false;
  const venvReady = args.mode === 'test' ? ensurePythonVenv(args.check) : true;
  if (args.check) {
    const ready = systemReady && node && modulesReady && venvReady;
    if (ready) say('Nothing to do.');
    process.exit(ready ? 0 : 1);
  }
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
