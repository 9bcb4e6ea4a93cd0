import { shell } from 'electron';
import { isSafeExternalUrl } from '../security.js';
import { registerDomain, type IpcContext } from './ipc-context.js';

export function registerAppIpc(ctx: IpcContext): void {
  registerDomain(
    'app',
    {
      getInfo: async () => ({ ok: true, value: ctx.appInfo() }),
      openExternal: async ({ url }) => {
        if (!isSafeExternalUrl(url))
          return {
            ok: false,
            error: { code: 'validation_error', message: 'Only https:// links open in the browser.' },
          };
        await shell.openExternal(url);
        return { ok: true, value: { opened: true } };
      },
    },
    ctx,
  );
}
