import { registerDomain, type IpcContext } from './ipc-context.js';

export function registerGenerationsIpc(ctx: IpcContext): void {
  registerDomain('generations', ctx.client.generations, ctx);
}
