import { registerDomain, type IpcContext } from './ipc-context.js';

export function registerTemplatesIpc(ctx: IpcContext): void {
  registerDomain('templates', ctx.client.templates, ctx);
}
