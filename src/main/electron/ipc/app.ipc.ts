import { openExternalLink } from '../security.js';
import { registerDomain, type IpcContext } from './ipc-context.js';

const REFUSED_LINK =
  'Only https:// links to public host names (no IP address, port or credentials) open in the browser.';

export function registerAppIpc(ctx: IpcContext): void {
  registerDomain(
    'app',
    {
      getInfo: async () => ({ ok: true, value: ctx.appInfo() }),
      openExternal: async ({ url }) => {
        if (await openExternalLink(url)) return { ok: true, value: { opened: true } };
        return { ok: false, error: { code: 'validation_error', message: REFUSED_LINK } };
      },
    },
    ctx,
  );
}
