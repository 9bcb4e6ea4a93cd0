import { registerAppIpc } from './app.ipc.js';
import { registerCharactersIpc } from './characters.ipc.js';
import { registerCreditsIpc } from './credits.ipc.js';
import { registerGenerateIpc } from './generate.ipc.js';
import { registerGenerationsIpc } from './generations.ipc.js';
import type { IpcContext } from './ipc-context.js';
import { registerSessionsIpc } from './sessions.ipc.js';
import { registerTemplatesIpc } from './templates.ipc.js';
import { registerUploadsIpc } from './uploads.ipc.js';

export type { IpcContext };

export function registerIpc(ctx: IpcContext): void {
  registerAppIpc(ctx);
  registerSessionsIpc(ctx);
  registerTemplatesIpc(ctx);
  registerUploadsIpc(ctx);
  registerCharactersIpc(ctx);
  registerGenerateIpc(ctx);
  registerGenerationsIpc(ctx);
  registerCreditsIpc(ctx);
}
