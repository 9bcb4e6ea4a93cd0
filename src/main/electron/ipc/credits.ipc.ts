import { registerDomain, type IpcContext } from './ipc-context.js';

export function registerCreditsIpc(ctx: IpcContext): void {
  registerDomain('credits', ctx.client.credits, ctx);
}
