import { registerDomain, type IpcContext } from './ipc-context.js';

export function registerGenerateIpc(ctx: IpcContext): void {
  registerDomain('generate', ctx.client.generate, ctx);
}
