import { registerDomain, type IpcContext } from './ipc-context.js';

export function registerCharactersIpc(ctx: IpcContext): void {
  registerDomain('characters', ctx.client.characters, ctx);
}
