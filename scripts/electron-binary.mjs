// The Electron binary for `npm start` (scripts/start.mjs): where it is, whether this machine has a display for it,
// and fetching it when it is missing. The bootstrap installs node_modules with ELECTRON_SKIP_BINARY_DOWNLOAD=1 and,
// since Electron 45, the binary is not fetched at install anyway but on first `require('electron')`, which would do
// it without a time bound and throw an error that hides the installer's own. So start.mjs never requires electron:
// it finds the binary through path.txt, and fetches a missing one by running Electron's own installer
// (node_modules/electron/install.js: @electron/get, its cache, ELECTRON_MIRROR and the other mirror settings, the
// checksum check against the package's checksums.json) as a child, bounded in time.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { launcherSignals } from './launcher-signals.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** How long Electron's installer may take (about 100 MB) before it is stopped and the headless server starts. */
export const FETCH_TIMEOUT_MS = 5 * 60 * 1000;

/** FETCH_TIMEOUT_MS, or AGENT_STUDIO_ELECTRON_FETCH_TIMEOUT_MS (for tests, which stop a stand-in mirror that hangs). */
export function fetchTimeoutMs(env = process.env) {
  const ms = Number(env.AGENT_STUDIO_ELECTRON_FETCH_TIMEOUT_MS);
  return Number.isFinite(ms) && ms > 0 ? ms : FETCH_TIMEOUT_MS;
}

/**
 * The electron package's folder. AGENT_STUDIO_ELECTRON_DIR overrides node_modules/electron: for tests (a copy of the
 * package that the installer may write into, as node_modules is shared between checkouts) and for packagers who keep
 * Electron elsewhere.
 */
export function electronDir(env = process.env) {
  return env.AGENT_STUDIO_ELECTRON_DIR || path.join(root, 'node_modules', 'electron');
}

/** Why Electron has no display to open its window on, or null: macOS and Windows always have one; Linux and BSD need X or Wayland. */
export function displayMissing(platform = process.platform, env = process.env) {
  if (platform === 'darwin' || platform === 'win32') return null;
  if (env.DISPLAY || env.WAYLAND_DISPLAY) return null;
  return 'there is no display (DISPLAY/WAYLAND_DISPLAY unset)';
}

/**
 * The binary as the installer left it: { path } when there, { missing } (the path.txt or the executable it names is
 * absent), or { reason } when the electron package itself is not installed. Found without require('electron'), which
 * would start a download.
 */
export function electronBinary(dir = electronDir()) {
  if (!fs.existsSync(path.join(dir, 'package.json'))) return { reason: `electron is not installed (no ${dir})` };
  const pathFile = path.join(dir, 'path.txt');
  const rel = fs.existsSync(pathFile) ? fs.readFileSync(pathFile, 'utf8').trim() : '';
  const bin = rel && path.join(process.env.ELECTRON_OVERRIDE_DIST_PATH ?? path.join(dir, 'dist'), rel);
  if (bin && fs.existsSync(bin)) return { path: bin };
  return { missing: true };
}

function readTrimmed(file) {
  try {
    return fs.readFileSync(file, 'utf8').trim();
  } catch {
    return null;
  }
}

/**
 * What decides how the dev Electron at `bin` can sandbox itself: the user, Ubuntu's AppArmor switch (23.10+, on by
 * default in 24.04) that refuses unprivileged user namespaces to programs without a profile, and the setuid helper
 * `chrome-sandbox` next to the binary, which Chromium uses instead of user namespaces when it is root's and setuid.
 * npm unpacks it as the installing user's, without the bit.
 */
export function electronSandboxFacts(bin, platform = process.platform) {
  const helper = path.join(path.dirname(bin), 'chrome-sandbox');
  let st = null;
  try {
    st = fs.statSync(helper);
  } catch {
    // no helper (macOS, Windows, or a trimmed dist/)
  }
  return {
    platform,
    uid: typeof process.getuid === 'function' ? process.getuid() : undefined,
    apparmorRestrictsUserns:
      platform === 'linux' ? readTrimmed('/proc/sys/kernel/apparmor_restrict_unprivileged_userns') : null,
    helper,
    helperExists: st !== null,
    helperSetuidRoot: st !== null && st.uid === 0 && (st.mode & 0o4000) !== 0,
  };
}

/**
 * How `npm start` runs the dev Electron: { fixHelper, noSandbox, why }. Chromium refuses its sandbox to root, so root
 * runs it with --no-sandbox (and, where AppArmor blocks user namespaces, first makes the helper root's and setuid, as
 * Electron's docs say, so the next run as a user is sandboxed). A user under that AppArmor switch with a helper that
 * is not setuid cannot fix it: Electron would abort at start, so it runs with --no-sandbox and the console says why
 * and how to fix it (the window loads only the app's own files; the sites it logs in to open in a separate Chromium
 * with its own sandbox decision, src/main/core/login/browser/chromium-sandbox.ts).
 */
export function electronSandboxPlan(f) {
  const none = { fixHelper: false, noSandbox: false };
  if (f.platform !== 'linux') return { ...none, why: `the ${f.platform} sandbox needs no setup` };
  const blocked = f.apparmorRestrictsUserns === '1' && !f.helperSetuidRoot;
  if (f.uid === 0) {
    return {
      fixHelper: blocked && f.helperExists,
      noSandbox: true,
      why: 'running as root: Chromium refuses its sandbox for root',
    };
  }
  if (!blocked) return { ...none, why: 'the sandbox can start' };
  const fix = f.helperExists
    ? `; to keep it on, run once: sudo chown root:root ${f.helper} && sudo chmod 4755 ${f.helper}`
    : '';
  return {
    ...none,
    noSandbox: true,
    why:
      'AppArmor refuses unprivileged user namespaces (kernel.apparmor_restrict_unprivileged_userns=1) and ' +
      `${f.helperExists ? 'chrome-sandbox is not setuid root' : 'there is no chrome-sandbox'}${fix}`,
  };
}

/**
 * Carries out the plan: fixes the helper when it says so (a failure only costs the sandbox, said on the console) and
 * returns the switches Electron gets.
 */
export function applyElectronSandboxPlan(plan, facts, { log = (line) => process.stderr.write(`${line}\n`) } = {}) {
  if (plan.fixHelper) {
    try {
      fs.chownSync(facts.helper, 0, 0);
      fs.chmodSync(facts.helper, 0o4755);
      log(`Made ${facts.helper} root's and setuid (chmod 4755), so Electron's sandbox works for other users here.`);
    } catch (err) {
      log(`Could not make ${facts.helper} setuid root: ${err.message}.`);
    }
  }
  if (!plan.noSandbox) return [];
  log(`Electron starts with --no-sandbox: ${plan.why}. Its window loads only Agent Studio's own files.`);
  return ['--no-sandbox'];
}

/** The installer's error as the person should read it: its message lines, without the stack trace under them. */
export function installerError(stderr) {
  const lines = stderr.split(/\r?\n/).filter((line) => line.trim() !== '');
  const start = lines.findIndex((line) => /^\w*Error\b/.test(line));
  const fromError = start === -1 ? lines : lines.slice(start);
  const end = fromError.findIndex((line) => /^\s+at /.test(line));
  // Without its last full stop: the launcher's sentence goes on after it.
  const text = (end === -1 ? fromError : fromError.slice(0, end)).join(' ').replace(/\s+/g, ' ').trim();
  return text.length > 600 ? `${text.slice(0, 600)}…` : text.replace(/\.$/, '');
}

function duration(ms) {
  return ms >= 60_000 && ms % 60_000 === 0 ? `${ms / 60_000} minutes` : `${ms / 1000} s`;
}

/**
 * Runs Electron's installer for the package in `dir`, stopped (SIGKILL) after `timeoutMs`. Resolves { ok: true }, or
 * { reason } saying why it failed in the installer's words, or { signal } when this launcher got a signal meanwhile
 * (relayed to the installer as launcher-signals.mjs says; the caller then starts nothing).
 */
export function fetchElectron(dir = electronDir(), { env = process.env, timeoutMs = fetchTimeoutMs(env) } = {}) {
  // Node's fetch keeps the network reason (ENOTFOUND, ECONNREFUSED, a certificate error) in err.cause, which the
  // installer's console.error(err.stack) drops; the preload puts it into the message.
  const preload = path.join(root, 'scripts', 'electron-fetch-cause.cjs');
  process.stderr.write(
    `Electron's binary is not here yet: fetching it with Electron's installer (once; about 100 MB, ` +
      `stopped after ${duration(timeoutMs)})...\n`,
  );
  const child = spawn(process.execPath, ['--require', preload, path.join(dir, 'install.js')], {
    cwd: root,
    env,
    // stdout is the launcher's own (the headless server's `listening` line goes there): the installer's goes to stderr.
    stdio: ['ignore', 2, 'pipe'],
  });
  let stderr = '';
  child.stderr.setEncoding('utf8');
  child.stderr.on('data', (chunk) => (stderr += chunk));
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    child.kill('SIGKILL');
  }, timeoutMs);
  let interrupted = null;
  const { relay, leaveToChild } = launcherSignals(process.platform);
  const handlers = [
    ...relay.map((signal) => [signal, () => ((interrupted = signal), child.kill(signal))]),
    ...leaveToChild.map((signal) => [signal, () => (interrupted = signal)]),
  ];
  for (const [signal, handler] of handlers) process.on(signal, handler);
  return new Promise((resolve) => {
    let settled = false;
    const done = (result) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      for (const [signal, handler] of handlers) process.off(signal, handler);
      resolve(interrupted ? { signal: interrupted } : result);
    };
    child.on('error', (err) => done({ reason: `Electron's installer could not be run: ${err.message}` }));
    child.on('close', (code, signal) => {
      if (timedOut) done({ reason: `Electron's installer did not finish within ${duration(timeoutMs)} (stopped)` });
      else if (code === 0) done({ ok: true });
      else {
        const said = installerError(stderr);
        const how = signal ? `was killed by ${signal}` : `failed (exit code ${code})`;
        done({ reason: `Electron's installer ${how}${said ? `: ${said}` : ''}` });
      }
    });
  });
}
