// Settings → Crash reports in plain Node: where the crash dumps are kept (`<data dir>/crashes`, the path the Electron
// layer gives crashReporter: electron/crash-reporting.ts), how many there are, and opening that folder. Crashpad files
// each dump as `<uuid>.dmp` under `new/`, `pending/` or `completed/` of its database folder; they never leave it, as
// uploadToServer is off.
import fs from 'node:fs';
import path from 'node:path';
import type { CrashReports } from '../../../shared/ipc-crash-reports-channels.js';
import { fail } from './http-channel.js';
import type { LocalHandlers } from './ipc-dispatcher.js';

export type CrashReportsChannelName = 'crashes:get' | 'crashes:openFolder';

/** The crash dumps folder of a data folder: one place, for the Electron layer and Settings. */
export const crashDumpsDir = (dataDir: string): string => path.join(dataDir, 'crashes');

/** The dumps under the folder (two levels: Crashpad's database and its report folders). */
export function readCrashReports(folder: string): CrashReports {
  let count = 0;
  let newestAt: number | null = null;
  const visit = (dir: string, depth: number) => {
    let entries: fs.Dirent[];
    try {
      entries = fs.readdirSync(dir, { withFileTypes: true });
    } catch {
      return; // no crash yet: the folder may not exist
    }
    for (const entry of entries) {
      const file = path.join(dir, entry.name);
      if (entry.isDirectory() && depth < 2) visit(file, depth + 1);
      else if (entry.isFile() && entry.name.endsWith('.dmp')) {
        count += 1;
        const at = fs.statSync(file).mtimeMs;
        newestAt = newestAt === null ? at : Math.max(newestAt, at);
      }
    }
  };
  visit(folder, 0);
  return { folder, count, newestAt };
}

export function crashReportsChannels(deps: {
  /** The running core's data folder (a restore may start the app on another). */
  dataDir(): string;
  /** The OS file manager (Electron's shell.openPath): '' when it opened, else why not. */
  openFolder(folder: string): Promise<string>;
}): Pick<LocalHandlers, CrashReportsChannelName> {
  return {
    'crashes:get': async () => ({ ok: true, value: readCrashReports(crashDumpsDir(deps.dataDir())) }),
    // Only this folder, never one the page names.
    'crashes:openFolder': async () => {
      const folder = crashDumpsDir(deps.dataDir());
      fs.mkdirSync(folder, { recursive: true });
      const problem = await deps.openFolder(folder);
      return problem
        ? fail('open_failed', `The folder could not be opened: ${problem}`)
        : { ok: true, value: { opened: true } };
    },
  };
}
