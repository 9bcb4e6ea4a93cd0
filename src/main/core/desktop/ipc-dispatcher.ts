// The one generic IPC handler: every channel of the shared contract (IPC_CONTRACT) is answered here,
// by kind. `http`: the argument parsed with the route's schemas, the route called in process, the
// answer parsed with the shared response schema. `upload`: a picked file presigned and stored.
// `local`: a handler the Electron layer supplies (app facts, the OS file picker). Every outcome is an
// IpcResult; nothing throws across IPC. Used by the Electron layer and by the e2e test bridge.
import type { z } from 'zod';
import type { IpcResult } from '../../../shared/errors.js';
import {
  IPC_CONTRACT,
  isChannelName,
  type Channel,
  type ChannelName,
  type ChannelResult,
  type IpcContract,
} from '../../../shared/ipc-contract.js';
import type { Logger } from '../logger.js';
import type { EventSender } from './desktop-events.js';
import { callHttpChannel, fail, httpArgsSchema, parseArgs } from './http-channel.js';
import type { CoreApi } from '../http/in-process-api.js';
import type { PickedFiles } from './picked-files.js';
import { uploadPickedFile } from './upload-picked-file.js';

export type LocalChannelName = {
  [C in ChannelName]: IpcContract[C] extends { kind: 'local' } ? C : never;
}[ChannelName];

/** One handler per `local` channel, receiving the parsed argument. */
export type LocalHandlers = {
  [C in LocalChannelName]: (args: z.output<IpcContract[C]['args']>) => Promise<IpcResult<ChannelResult<C>>>;
};

export interface IpcDispatcherDeps {
  api: CoreApi;
  files: PickedFiles;
  local: LocalHandlers;
  /** Upload progress goes out through it (validatedSender). */
  emit: EventSender;
  log?: Logger;
}

export type IpcDispatch = (channel: unknown, raw?: unknown) => Promise<IpcResult<unknown>>;

export function createIpcDispatcher(deps: IpcDispatcherDeps): IpcDispatch {
  async function run(name: ChannelName, raw: unknown): Promise<IpcResult<unknown>> {
    const channel: Channel = IPC_CONTRACT[name];
    switch (channel.kind) {
      case 'http': {
        const args = parseArgs(httpArgsSchema(channel), raw);
        // Sent as given once it parses: the route parses it again, exactly as for an agent.
        return args.ok ? callHttpChannel(deps.api, channel, raw) : args;
      }
      case 'upload': {
        const args = parseArgs(channel.args, raw);
        if (!args.ok) return args;
        return uploadPickedFile(channel, deps, args.value.file);
      }
      case 'local': {
        const args = parseArgs(channel.args, raw);
        if (!args.ok) return args;
        const handler = deps.local[name as LocalChannelName] as (a: unknown) => Promise<IpcResult<unknown>>;
        const res = await handler(args.value);
        if (!res.ok) return res;
        // Main's own answers honour the contract too.
        const value = channel.result.safeParse(res.value);
        return value.success
          ? { ok: true, value: value.data }
          : fail('internal_error', `${name} answered off-contract.`);
      }
    }
  }

  return async (name, raw) => {
    if (!isChannelName(name)) return fail('unknown_channel', `Unknown IPC channel "${String(name)}"`);
    try {
      return await run(name, raw);
    } catch (err) {
      deps.log?.error({ channel: name, err: (err as Error).message }, 'desktop: IPC call failed');
      return fail('internal_error', `The app could not complete ${name}: ${(err as Error).message}`);
    }
  };
}
