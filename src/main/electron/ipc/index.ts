// Registers every channel of the shared contract (IPC_CONTRACT) with one generic handler, and pushes
// the contract's events (IPC_EVENTS) to the main window. The sender frame must be the app's own page;
// the rest (argument parsing, the in-process API call, answer parsing) is the core's IPC dispatcher.
// Calls reach whichever core runs now: the host restarts it when settings change.
import { ipcMain, type BrowserWindow } from 'electron';
import type { CoreHost } from '../../core/desktop/core-host.js';
import { forwardCoreEvents, validatedSender } from '../../core/desktop/desktop-events.js';
import { createIpcDispatcher } from '../../core/desktop/ipc-dispatcher.js';
import { PickedFiles } from '../../core/desktop/picked-files.js';
import type { Logger } from '../../core/logger.js';
import type { ThemeStore } from '../../core/desktop/settings-channels.js';
import type { UpdateService } from '../../core/desktop/update-service.js';
import type { IpcResult } from '../../../shared/errors.js';
import { CHANNEL_NAMES } from '../../../shared/ipc-contract.js';
import type { RunningCore } from '../lifecycle.js';
import type { TrustedUrl } from '../security.js';
import { localChannels } from './local-channels.js';

export interface IpcContext {
  /** The running core (the HTTP API in process with the desktop key, its organization, AppInfo). */
  host: CoreHost<RunningCore>;
  theme: ThemeStore;
  /** The app's updates (one service for the app's life). */
  updates: UpdateService;
  isTrusted: TrustedUrl;
  mainWindow(): BrowserWindow | null;
}

const denied: IpcResult<never> = {
  ok: false,
  error: { code: 'forbidden_sender', message: 'This page may not call the app.' },
};

/** Returns the function that stops the event forwarding (the handlers live as long as the app). */
export function registerIpc(ctx: IpcContext): () => void {
  // The log of whichever core runs (a restarted core has a new one; the old one is closed).
  const log = new Proxy({} as Logger, {
    get(_target, prop) {
      const current = ctx.host.current().core.log;
      const value: unknown = Reflect.get(current, prop);
      return typeof value === 'function' ? value.bind(current) : value;
    },
  });
  const emit = validatedSender((event, payload) => {
    const contents = ctx.mainWindow()?.webContents;
    if (contents && !contents.isDestroyed() && ctx.isTrusted(contents.getURL())) contents.send(event, payload);
  }, log);
  const files = new PickedFiles();
  const dispatch = createIpcDispatcher({
    api: ctx.host.api,
    files,
    local: localChannels({
      host: ctx.host,
      files,
      theme: ctx.theme,
      updates: ctx.updates,
      mainWindow: ctx.mainWindow,
    }),
    emit,
    log,
  });
  for (const channel of CHANNEL_NAMES) {
    ipcMain.handle(channel, (event, raw: unknown) =>
      ctx.isTrusted(event.senderFrame?.url ?? '') ? dispatch(channel, raw) : denied,
    );
  }
  // Each core has its own event bus: follow the one that runs.
  const forward = () => forwardCoreEvents(ctx.host.current().core.events, ctx.host.current().desktop.orgId, emit);
  let stopForwarding = forward();
  const stopFollowing = ctx.host.onChange(() => {
    stopForwarding();
    stopForwarding = forward();
  });
  return () => {
    stopFollowing();
    stopForwarding();
  };
}
