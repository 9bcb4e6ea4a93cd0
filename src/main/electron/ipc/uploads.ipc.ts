import { dialog, type OpenDialogOptions } from 'electron';
import { createUploadsHandlers, UPLOAD_EXTENSIONS } from '../../core/desktop/desktop-client.js';
import { UPLOAD_PROGRESS_EVENT } from '../../../shared/ipc-channels.js';
import { registerDomain, type IpcContext } from './ipc-context.js';

export function registerUploadsIpc(ctx: IpcContext): void {
  const handlers = createUploadsHandlers({
    client: ctx.client,
    async chooseFile(kind) {
      const extensions =
        kind === 'any'
          ? [...UPLOAD_EXTENSIONS.image, ...UPLOAD_EXTENSIONS.video, ...UPLOAD_EXTENSIONS.audio]
          : [...UPLOAD_EXTENSIONS[kind]];
      const name = kind === 'any' ? 'Images, videos and audio' : `${kind[0].toUpperCase()}${kind.slice(1)} files`;
      const options: OpenDialogOptions = {
        title: 'Choose a file to upload',
        properties: ['openFile'],
        filters: [{ name, extensions }],
      };
      const win = ctx.mainWindow();
      const res = win ? await dialog.showOpenDialog(win, options) : await dialog.showOpenDialog(options);
      return res.canceled ? null : (res.filePaths[0] ?? null);
    },
    sendProgress(progress) {
      const contents = ctx.mainWindow()?.webContents;
      if (contents && !contents.isDestroyed()) contents.send(UPLOAD_PROGRESS_EVENT, progress);
    },
  });
  registerDomain('uploads', handlers, ctx);
}
