// The contract's `local` channels: what only the Electron side can answer (app facts, the OS file
// picker, opening a link in the OS browser). Everything else goes to the core's HTTP API.
import { dialog, type BrowserWindow, type OpenDialogOptions } from 'electron';
import type { LocalHandlers } from '../../core/desktop/ipc-dispatcher.js';
import { uploadExtensions, type PickedFiles } from '../../core/desktop/picked-files.js';
import type { AppInfo, UploadKind } from '../../../shared/ipc-contract.js';
import { openExternalLink } from '../security.js';

const REFUSED_LINK =
  'Only https:// links to public host names (no IP address, port or credentials) open in the browser.';

async function chooseFile(kind: UploadKind, win: BrowserWindow | null): Promise<string | null> {
  const name = kind === 'any' ? 'Images, videos and audio' : `${kind[0].toUpperCase()}${kind.slice(1)} files`;
  const options: OpenDialogOptions = {
    title: 'Choose a file to upload',
    properties: ['openFile'],
    filters: [{ name, extensions: uploadExtensions(kind) }],
  };
  const res = win ? await dialog.showOpenDialog(win, options) : await dialog.showOpenDialog(options);
  return res.canceled ? null : (res.filePaths[0] ?? null);
}

export function localChannels(opts: {
  appInfo(): AppInfo;
  files: PickedFiles;
  mainWindow(): BrowserWindow | null;
}): LocalHandlers {
  return {
    'app:getInfo': async () => ({ ok: true, value: opts.appInfo() }),
    'app:openExternal': async ({ url }) =>
      (await openExternalLink(url))
        ? { ok: true, value: { opened: true } }
        : { ok: false, error: { code: 'validation_error', message: REFUSED_LINK } },
    'uploads:pickFile': async (args) => opts.files.pick(await chooseFile(args?.kind ?? 'any', opts.mainWindow())),
  };
}
