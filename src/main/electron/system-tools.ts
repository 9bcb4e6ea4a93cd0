// The programs the packaged app does not ship and finds on the machine: a Chromium-family browser for
// logins (browser-resolver.ts) and ffmpeg/ffprobe for renders and upload checks (run by name from PATH).
// Pure (no electron import), so test/unit/electron/system-tools.test.ts runs it against real directories.
import fs from 'node:fs';
import path from 'node:path';
import { BrowserNotFoundError, resolveBrowserExecutable } from '../core/login/browser/browser-resolver.js';

export interface MissingTool {
  /** Stable id, remembered so the same notice is shown once: 'chromium' | 'ffmpeg'. */
  id: string;
  /** One line for the person: what is missing and what it is needed for. */
  what: string;
  /** How to install it on this platform. */
  install: string;
}

/**
 * Folders a macOS app started from Finder or the Dock does not have on its PATH (launchd gives it
 * /usr/bin:/bin:/usr/sbin:/sbin only) but where Homebrew and MacPorts put ffmpeg.
 */
const MAC_EXTRA_PATH = ['/opt/homebrew/bin', '/usr/local/bin', '/opt/local/bin'];

/** PATH with the macOS package-manager folders appended when absent; other platforms keep theirs. */
export function withPackageManagerPath(pathValue: string | undefined, platform: NodeJS.Platform): string {
  if (platform !== 'darwin') return pathValue ?? '';
  const dirs = (pathValue ?? '').split(':').filter(Boolean);
  return [...dirs, ...MAC_EXTRA_PATH.filter((d) => !dirs.includes(d))].join(':');
}

function isExecutableFile(file: string): boolean {
  try {
    if (!fs.statSync(file).isFile()) return false;
    if (process.platform !== 'win32') fs.accessSync(file, fs.constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** The full path `name` runs as from PATH (with PATHEXT on Windows), or null. */
export function findOnPath(name: string, env: NodeJS.ProcessEnv, platform: NodeJS.Platform): string | null {
  const p = platform === 'win32' ? path.win32 : path.posix;
  const dirs = (env.PATH ?? env.Path ?? '').split(platform === 'win32' ? ';' : ':').filter(Boolean);
  const exts = platform === 'win32' ? (env.PATHEXT ?? '.COM;.EXE;.BAT;.CMD').split(';').filter(Boolean) : [''];
  for (const dir of dirs) {
    for (const ext of exts) {
      const candidate = p.join(dir, name + ext);
      if (isExecutableFile(candidate)) return candidate;
    }
  }
  return null;
}

function ffmpegInstall(platform: NodeJS.Platform): string {
  if (platform === 'darwin') return 'Install it with Homebrew: brew install ffmpeg';
  if (platform === 'win32')
    return 'Install it with winget install Gyan.FFmpeg (or from https://ffmpeg.org/download.html) and make sure it is on the PATH.';
  return 'Install it with your package manager, e.g. sudo apt-get install ffmpeg (Debian/Ubuntu) or sudo dnf install ffmpeg (Fedora).';
}

/**
 * What the login and video services would miss on this machine. A remote browser
 * (`browser.connectEndpoint`) needs no local Chromium.
 */
export function findMissingTools(opts: {
  browser: { executablePath?: string; connectEndpoint?: string };
  env: NodeJS.ProcessEnv;
  platform: NodeJS.Platform;
}): MissingTool[] {
  const missing: MissingTool[] = [];
  if (!opts.browser.connectEndpoint) {
    try {
      resolveBrowserExecutable({ configuredPath: opts.browser.executablePath, env: opts.env, platform: opts.platform });
    } catch (err) {
      if (!(err instanceof BrowserNotFoundError)) throw err;
      missing.push({
        id: 'chromium',
        what: 'Chromium, Google Chrome or Microsoft Edge: the login service needs one to log in to sites.',
        install: err.message,
      });
    }
  }
  const absent = ['ffmpeg', 'ffprobe'].filter((tool) => !findOnPath(tool, opts.env, opts.platform));
  if (absent.length > 0)
    missing.push({
      id: 'ffmpeg',
      what: `ffmpeg (${absent.join(' and ')} not found on the PATH): the video service needs it to render videos and check uploads.`,
      install: ffmpegInstall(opts.platform),
    });
  return missing;
}

/** Whether the notice should show: something is missing that the last notice did not already name. */
export function isNewNotice(missing: readonly MissingTool[], noticed: readonly string[]): boolean {
  return missing.some((tool) => !noticed.includes(tool.id));
}
