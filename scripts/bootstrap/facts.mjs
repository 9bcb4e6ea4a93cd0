// The real machine, read once, in the shape the pure decisions (platform.mjs, toolchain.mjs) take, so that those
// can be tested with any other machine's facts.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const isFile = (file) => {
  try {
    return fs.statSync(file).isFile();
  } catch {
    return false;
  }
};

/** Whether `cmd` is a file in a PATH folder; on Windows also with each PATHEXT extension (ffmpeg -> ffmpeg.exe). */
export function onPath(cmd, env = process.env, platform = process.platform) {
  const exts = platform === 'win32' ? ['', ...(env.PATHEXT || '.COM;.EXE;.BAT;.CMD').split(';').filter(Boolean)] : [''];
  return (env.PATH || '')
    .split(path.delimiter)
    .some((dir) => dir && exts.some((ext) => isFile(path.join(dir, cmd + ext))));
}

const readOrNull = (file) => {
  try {
    return fs.readFileSync(file, 'utf8');
  } catch {
    return null;
  }
};

/** ffmpeg's encoder list (to see libx264), or null when it cannot be asked. */
function ffmpegEncoders() {
  const res = spawnSync('ffmpeg', ['-hide_banner', '-encoders'], { encoding: 'utf8', timeout: 15_000 });
  return res.status === 0 ? res.stdout : null;
}

/**
 * Whether python3 can make a venv: Debian and Ubuntu split the venv module's ensurepip into python3-venv, without
 * which `python3 -m venv` fails. null: not asked (no python3, not in test mode, or not Linux).
 */
function pythonVenv() {
  return spawnSync('python3', ['-c', 'import ensurepip, venv'], { stdio: 'ignore', timeout: 15_000 }).status === 0;
}

/** The facts the system plan needs (`mode`: 'runtime' or 'test'). */
export function readFacts(mode) {
  const platform = process.platform;
  const env = process.env;
  const has = (cmd) => onPath(cmd, env, platform);
  return {
    platform,
    mode,
    env,
    home: os.homedir(),
    // os-release(5): /etc/os-release, else /usr/lib/os-release.
    osRelease: platform === 'linux' ? (readOrNull('/etc/os-release') ?? readOrNull('/usr/lib/os-release')) : null,
    uid: typeof process.getuid === 'function' ? process.getuid() : undefined,
    has,
    exists: (file) => fs.existsSync(file),
    list: (dir) => {
      try {
        return fs.readdirSync(dir);
      } catch {
        return [];
      }
    },
    ffmpegEncoders: has('ffmpeg') ? ffmpegEncoders() : null,
    pythonVenv: platform === 'linux' && mode === 'test' && has('python3') ? pythonVenv() : null,
  };
}

/** Adds what the toolchain check needs on macOS and Windows (processes to run, so only before `npm ci`). */
export function withToolchainFacts(facts) {
  if (facts.platform === 'darwin')
    return { ...facts, xcodeTools: spawnSync('xcode-select', ['-p'], { stdio: 'ignore' }).status === 0 };
  if (facts.platform === 'win32') {
    const programs = facts.env['ProgramFiles(x86)'] || facts.env['PROGRAMFILES(X86)'] || 'C:\\Program Files (x86)';
    const vswhere = path.join(programs, 'Microsoft Visual Studio', 'Installer', 'vswhere.exe');
    const res = isFile(vswhere)
      ? spawnSync(
          vswhere,
          [
            '-products',
            '*',
            '-requires',
            'Microsoft.VisualStudio.Component.VC.Tools.x86.x64',
            '-property',
            'installationPath',
          ],
          { encoding: 'utf8' },
        )
      : null;
    return { ...facts, vcTools: !!res && res.status === 0 && res.stdout.trim() !== '' };
  }
  return facts;
}
