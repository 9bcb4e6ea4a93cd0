import { ipcMain, type BrowserWindow } from 'electron';
import { dispatchIpc, type DesktopClient } from '../../core/desktop/desktop-client.js';
import type { IpcResult } from '../../../shared/errors.js';
import { ipcContract, type AppInfo, type Domain, type IpcHandlers } from '../../../shared/ipc-contract.js';
import type { TrustedUrl } from '../security.js';

export interface IpcContext {
  client: DesktopClient;
  isTrusted: TrustedUrl;
  appInfo(): AppInfo;
  mainWindow(): BrowserWindow | null;
}

const denied: IpcResult<never> = {
  ok: false,
  error: { code: 'forbidden_sender', message: 'This page may not call the app.' },
};

/**
 * Registers every channel of a domain: the sender frame must be the app's own page, the argument is
 * parsed with the contract's zod schema, then the handler runs. Handlers never throw across IPC.
 */
export function registerDomain<D extends Domain>(domain: D, handlers: IpcHandlers<D>, ctx: IpcContext): void {
  const table = { [domain]: handlers } as unknown as Parameters<typeof dispatchIpc>[0];
  for (const method of Object.keys(ipcContract[domain])) {
    const name = `${domain}:${method}`;
    ipcMain.handle(name, (event, raw: unknown) => {
      if (!ctx.isTrusted(event.senderFrame?.url ?? '')) return denied;
      return dispatchIpc(table, name, raw);
    });
  }
}
