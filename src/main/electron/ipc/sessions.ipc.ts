import { registerDomain, type IpcContext } from './ipc-context.js';

export function registerSessionsIpc(ctx: IpcContext): void {
  registerDomain('sessions', ctx.client.sessions, ctx);
}
