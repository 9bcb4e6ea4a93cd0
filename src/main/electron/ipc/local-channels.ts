// The contract's `local` channels: what only the Electron side can answer (app facts, the OS file
// picker, opening a link in the OS browser, the clipboard, the data folder) plus the desktop-only
// administration and settings, whose logic lives in the core (desktop/admin-channels.ts,
// desktop/settings-channels.ts). Everything else goes to the core's HTTP API.
import path from 'node:path';
import { app, clipboard, dialog, shell, type BrowserWindow, type OpenDialogOptions } from 'electron';
import { autostartChannels } from '../../core/desktop/autostart-channels.js';
import { backupChannels, type BackupOs } from '../../core/desktop/backup-channels.js';
import { crashReportsChannels } from '../../core/desktop/crash-reports.js';
import { adminChannels } from '../../core/desktop/admin-channels.js';
import { apiReferenceChannel } from '../../core/desktop/api-reference-channel.js';
import type { CoreHost } from '../../core/desktop/core-host.js';
import type { LocalHandlers } from '../../core/desktop/ipc-dispatcher.js';
import { uploadExtensions, type PickedFiles } from '../../core/desktop/picked-files.js';
import { profilesChannels } from '../../core/desktop/profiles-channels.js';
import { browserProfiles } from '../../core/login/profiles/index.js';
import { resultsChannels, type DesktopFileOs } from '../../core/desktop/results-channels.js';
import { settingsChannels, type ThemeStore } from '../../core/desktop/settings-channels.js';
import { studioChannels } from '../../core/desktop/studio-channels.js';
import { updatesChannels } from '../../core/desktop/update-channels.js';
import type { UpdateService } from '../../core/desktop/update-service.js';
import { vaultChannels } from '../../core/desktop/vault-channels.js';
import { secretCopier } from '../../core/desktop/secret-clipboard.js';
import type { UploadKind } from '../../../shared/ipc-contract.js';
import { autostartOs } from '../autostart-os.js';
import type { RunningCore } from '../lifecycle.js';
import { openExternalLink, openLocalApiPage } from '../security.js';

/** Copies a secret and takes it off the clipboard after 30 s unless something else was copied since. */
const copySecret = secretCopier(clipboard);

const REFUSED_LINK =
  'Only https:// links to public host names (no IP address, port or credentials) open in the browser.';

/** The folder of the last file picked or saved (this run): the next open or save dialog starts there. */
class LastFolder {
  private folder: string | undefined;
  get(): string | undefined {
    return this.folder;
  }
  remember(file: string | null | undefined): void {
    if (file) this.folder = path.dirname(file);
  }
}

async function chooseFile(kind: UploadKind, win: BrowserWindow | null, last: LastFolder): Promise<string | null> {
  const name = kind === 'any' ? 'Images, videos and audio' : `${kind[0].toUpperCase()}${kind.slice(1)} files`;
  const options: OpenDialogOptions = {
    title: 'Choose a file to upload',
    defaultPath: last.get(),
    properties: ['openFile'],
    filters: [{ name, extensions: uploadExtensions(kind) }],
  };
  const res = win ? await dialog.showOpenDialog(win, options) : await dialog.showOpenDialog(options);
  const file = res.canceled ? null : (res.filePaths[0] ?? null);
  last.remember(file);
  return file;
}

/** The save dialog (over the window) and the file manager, for core/desktop/results-channels.ts. */
function fileOs(mainWindow: () => BrowserWindow | null, last: LastFolder): DesktopFileOs {
  return {
    async chooseSavePath({ title, defaultName, extensions }) {
      const folder = last.get();
      const defaultPath = folder ? path.join(folder, defaultName) : defaultName;
      const options = { title, defaultPath, filters: [{ name: extensions.join(', '), extensions }] };
      const win = mainWindow();
      const res = win ? await dialog.showSaveDialog(win, options) : await dialog.showSaveDialog(options);
      if (res.canceled || !res.filePath) return null;
      last.remember(res.filePath);
      return res.filePath;
    },
    showItemInFolder: (file) => shell.showItemInFolder(file),
  };
}

/** The dialogs Settings → Backup needs, and the relaunch on a restored data folder. */
function backupOs(mainWindow: () => BrowserWindow | null, os: DesktopFileOs, last: LastFolder): BackupOs {
  const open = async (options: OpenDialogOptions) => {
    const win = mainWindow();
    const res = win ? await dialog.showOpenDialog(win, options) : await dialog.showOpenDialog(options);
    const chosen = res.canceled ? null : (res.filePaths[0] ?? null);
    last.remember(chosen);
    return chosen;
  };
  return {
    chooseSavePath: os.chooseSavePath,
    chooseOpenPath: ({ title, extensions }) =>
      open({ title, defaultPath: last.get(), properties: ['openFile'], filters: [{ name: 'Backups', extensions }] }),
    chooseFolder: ({ title }) =>
      open({ title, defaultPath: last.get(), properties: ['openDirectory', 'createDirectory'] }),
    // The new process reads its data folder from the environment it inherits (desktop-shell.ts useDataDirFromEnv).
    async relaunchWith(dataDir) {
      process.env.AGENT_STUDIO_DATA_DIR = dataDir;
      app.relaunch();
      app.quit();
    },
  };
}

export function localChannels(opts: {
  host: CoreHost<RunningCore>;
  files: PickedFiles;
  theme: ThemeStore;
  updates: UpdateService;
  mainWindow(): BrowserWindow | null;
}): LocalHandlers {
  const last = new LastFolder();
  const os = fileOs(opts.mainWindow, last);
  return {
    'app:getInfo': async () => ({ ok: true, value: opts.host.current().info }),
    'app:openExternal': async ({ url }) =>
      (await openExternalLink(url))
        ? { ok: true, value: { opened: true } }
        : { ok: false, error: { code: 'validation_error', message: REFUSED_LINK } },
    'uploads:pickFile': async (args) => opts.files.pick(await chooseFile(args?.kind ?? 'any', opts.mainWindow(), last)),
    'app:copyText': async ({ text }) => {
      try {
        await clipboard.writeText(text);
      } catch (err) {
        return { ok: false, error: { code: 'copy_failed', message: `Could not copy: ${(err as Error).message}` } };
      }
      return { ok: true, value: { copied: true } };
    },
    ...apiReferenceChannel({ host: opts.host, open: openLocalApiPage }),
    // A folder path the app itself chose, never one from the page.
    'app:openDataFolder': async () => {
      const problem = await shell.openPath(opts.host.current().core.config.dataDir);
      return problem
        ? { ok: false, error: { code: 'open_failed', message: `The folder could not be opened: ${problem}` } }
        : { ok: true, value: { opened: true } };
    },
    ...adminChannels(opts.host),
    ...vaultChannels({ host: opts.host, copySecret, chooseSavePath: os.chooseSavePath }),
    ...profilesChannels({ host: opts.host, profiles: browserProfiles }),
    ...settingsChannels({ host: opts.host, theme: opts.theme }),
    ...studioChannels(opts.host),
    ...backupChannels({ host: opts.host, os: backupOs(opts.mainWindow, os, last) }),
    ...autostartChannels({ os: autostartOs(), log: () => opts.host.current().core.log }),
    ...updatesChannels({ updates: opts.updates, dataDir: () => opts.host.current().core.config.dataDir }),
    ...crashReportsChannels({
      dataDir: () => opts.host.current().core.config.dataDir,
      openFolder: (folder) => shell.openPath(folder),
    }),
    ...resultsChannels({
      api: opts.host.api,
      files: opts.files,
      os,
      blobs: () => opts.host.current().core.video.blobs,
    }),
  };
}
