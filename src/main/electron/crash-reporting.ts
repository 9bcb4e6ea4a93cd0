// Crashes kept on this computer: Electron's crash reporter writes a minidump of a crashed process (main, a window,
// a utility process) into `<data dir>/crashes` and never uploads it. The app holds a vault: a dump is a copy of the
// crashed process's memory and may hold a secret that was in use, so it stays where the person's data is
// (docs/desktop-app.md#crash-reports). Must run before the app is ready, once the data folder is known
// (desktop-shell.ts useDataDirFromEnv), so a crash during start-up is kept too.
import type { CrashReporterStartOptions } from 'electron';
import { crashDumpsDir } from '../core/desktop/crash-reports.js';

/** The two Electron calls this needs (app.setPath, crashReporter.start), passed in so a unit test can read them. */
export interface CrashReportingElectron {
  setPath(name: 'crashDumps', value: string): void;
  start(options: CrashReporterStartOptions): void;
}

/** Points crashDumps into the data folder, then starts the reporter without uploads; returns the folder. */
export function startCrashReporting(electron: CrashReportingElectron, dataDir: string): string {
  const folder = crashDumpsDir(dataDir);
  // Before start(): Crashpad opens its database where crashDumps points when it starts.
  electron.setPath('crashDumps', folder);
  // No submitURL: with uploadToServer false Electron needs none, and nothing could be sent anywhere.
  electron.start({ productName: 'Agent Studio', uploadToServer: false });
  return folder;
}
