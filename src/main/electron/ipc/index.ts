// Registers every channel of the shared contract (IPC_CONTRACT) with one generic handler, and pushes
// the contract's events (IPC_EVENTS) to the main window. The sender frame must be the app's own page;
// the rest (argument parsing, the in-process API call, answer parsing) is the core's IPC dispatcher.
import { ipcMain, type BrowserWindow } from 'electron';
import type { Core } from '../../core/create-core.js';
import { forwardCoreEvents, validatedSender } from '../../core/desktop/desktop-events.js';
import type { CoreApi } from '../../core/desktop/in-process-api.js';
import { createIpcDispatcher } from '../../core/desktop/ipc-dispatcher.js';
import { PickedFiles } from '../../core/desktop/picked-files.js';
import type { IpcResult } from '../../../shared/errors.js';
import { CHANNEL_NAMES, type AppInfo } from '../../../shared/ipc-contract.js';
import type { TrustedUrl } from '../security.js';
import { localChannels } from './local-channels.js';

export interface IpcContext {
  core: Core;
  /** The core's HTTP API in process, with the desktop key, and that key's organization. */
  desktop: { api: CoreApi; orgId: string };
  isTrusted: TrustedUrl;
  appInfo(): AppInfo;
  mainWindow(): BrowserWindow | null;
}

const denied: IpcResult<never> = {
  ok: false,
  error: { code: 'forbidden_sender', message: 'This page may not call the app.' },
};

/** Returns the function that stops the event forwarding (the handlers live as long as the app). */
export function registerIpc(ctx: IpcContext): () => void {
  const emit = validatedSender((event, payload) => {
    const contents = ctx.mainWindow()?.webContents;
    if (contents && !contents.isDestroyed() && ctx.isTrusted(contents.getURL())) contents.send(event, payload);
  }, ctx.core.log);
  const files = new PickedFiles();
  const dispatch = createIpcDispatcher({
    api: ctx.desktop.api,
    files,
    local: localChannels({ appInfo: ctx.appInfo, files, mainWindow: ctx.mainWindow }),
    emit,
    log: ctx.core.log,
  });
  for (const channel of CHANNEL_NAMES) {
    ipcMain.handle(channel, (event, raw: unknown) =>
      ctx.isTrusted(event.senderFrame?.url ?? '') ? dispatch(channel, raw) : denied,
    );
  }
  return forwardCoreEvents(ctx.core.events, ctx.desktop.orgId, emit);
}
