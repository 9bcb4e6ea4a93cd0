#!/usr/bin/env node
// Idempotent set-up for `npm start` / `npm test`: installs missing system packages (apt-get when
// root on Debian/Ubuntu, otherwise prints the exact command), runs `npm ci` only when the lockfile
// (or the Node ABI) changed. Node built-ins only: this runs before node_modules exists.
import { execFileSync, spawnSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const mode = process.argv.includes('--test') ? 'test' : 'runtime';
const say = (msg) => process.stderr.write(`[bootstrap] ${msg}\n`);

const onPath = (cmd) => (process.env.PATH ?? '').split(path.delimiter).some((dir) => dir && fs.existsSync(path.join(dir, cmd)));
const anyFile = (...files) => files.some((f) => fs.existsSync(f));
const dpkgHas = (pkg) => spawnSync('dpkg-query', ['-W', '-f=${Status}', pkg], { encoding: 'utf8' }).stdout?.includes('install ok installed');

/** [debian package, check, needed for] */
function linuxRequirements() {
  const reqs = [
    ['chromium', () => anyFile('/usr/bin/chromium', '/usr/bin/chromium-browser', '/usr/bin/google-chrome', '/usr/bin/google-chrome-stable') || !!process.env.AGENT_STUDIO_BROWSER_PATH, 'runtime'],
    ['ffmpeg', () => onPath('ffmpeg'), 'runtime'],
    ['libsecret-1-dev', () => dpkgHas('libsecret-1-dev') || anyFile('/usr/include/libsecret-1/libsecret/secret.h'), 'runtime'],
    ['python3', () => onPath('python3'), 'runtime'],
    ['make', () => onPath('make'), 'runtime'],
    ['g++', () => onPath('g++'), 'runtime'],
    ['dbus', () => onPath('dbus-run-session') && onPath('dbus-daemon'), 'test'],
    ['gnome-keyring', () => onPath('gnome-keyring-daemon'), 'test'],
    ['dovecot-imapd', () => anyFile('/usr/sbin/dovecot'), 'test'],
    ['xvfb', () => onPath('Xvfb'), 'test'],
    ['fonts-dejavu-core', () => anyFile('/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf'), 'runtime'],
  ];
  return reqs.filter(([, , need]) => need === 'runtime' || mode === 'test');
}

function ensureSystemPackages() {
  if (process.platform === 'darwin' || process.platform === 'win32') {
    const missing = [];
    if (!onPath(process.platform === 'win32' ? 'ffmpeg.exe' : 'ffmpeg')) missing.push('ffmpeg (https://ffmpeg.org, or `brew install ffmpeg` / `winget install ffmpeg`)');
    if (missing.length) say(`Please install: ${missing.join('; ')}. Google Chrome, Edge or Chromium is used for logins.`);
    return;
  }
  if (process.platform !== 'linux') return;
  const missing = linuxRequirements().filter(([, check]) => !check()).map(([pkg]) => pkg);
  if (!missing.length) return;
  const hasApt = onPath('apt-get');
  const isRoot = process.getuid?.() === 0;
  if (!hasApt) {
    say(`Missing system packages: ${missing.join(' ')}. Install them with your distribution's package manager.`);
    process.exit(1);
  }
  if (!isRoot) {
    say(`Missing system packages. Run:\n  sudo apt-get update && sudo apt-get install -y ${missing.join(' ')}`);
    process.exit(1);
  }
  say(`Installing system packages: ${missing.join(' ')}`);
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  execFileSync('apt-get', ['update', '-qq'], { stdio: ['ignore', 'ignore', 'inherit'], env });
  execFileSync('apt-get', ['install', '-y', '-qq', ...missing], { stdio: ['ignore', 'ignore', 'inherit'], env });
}

function ensureNodeModules() {
  const lock = path.join(root, 'package-lock.json');
  const stamp = path.join(root, 'node_modules', '.agent-studio-lock.sha256');
  const want = crypto
    .createHash('sha256')
    .update(fs.readFileSync(lock))
    .update(`${process.versions.modules}-${process.platform}-${process.arch}`)
    .digest('hex');
  if (fs.existsSync(stamp) && fs.readFileSync(stamp, 'utf8').trim() === want) return;
  say('package-lock.json changed (or first run): npm ci');
  const env = { ...process.env, ELECTRON_SKIP_BINARY_DOWNLOAD: '1', PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD: '1' };
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
  const res = spawnSync(npm, ['ci', '--no-audit', '--no-fund'], { cwd: root, stdio: ['ignore', 'inherit', 'inherit'], env, shell: process.platform === 'win32' });
  if (res.status !== 0) {
    say('npm ci failed');
    process.exit(res.status ?? 1);
  }
  fs.writeFileSync(stamp, `${want}\n`);
}

ensureSystemPackages();
ensureNodeModules();
