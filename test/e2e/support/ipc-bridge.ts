// Stand-in for the preload and the Electron IPC layer around a plain Chromium page. The page gets what
// src/preload/index.ts exposes (window.agentStudio: invoke over the contract's channels, on for its
// events), and every call is answered in Node by the app's own IPC dispatcher
// (src/main/core/desktop/ipc-dispatcher.ts) over the given CoreApi: in process like the app, or over
// real HTTP. Core bus events reach the page through the app's own forwarder. No second channel list:
// names, schemas and routes all come from src/shared/ipc-contract.ts.
import type { Page } from 'playwright-core';
import type { Core } from '../../../src/main/core/create-core.js';
import { forwardCoreEvents, validatedSender } from '../../../src/main/core/desktop/desktop-events.js';
import type { CoreApi } from '../../../src/main/core/desktop/in-process-api.js';
import { createIpcDispatcher } from '../../../src/main/core/desktop/ipc-dispatcher.js';
import { PickedFiles } from '../../../src/main/core/desktop/picked-files.js';
import {
  CHANNEL_NAMES,
  EVENT_NAMES,
  type AppInfo,
  type IpcEventName,
  type UploadKind,
} from '../../../src/shared/ipc-contract.js';

export interface IpcBridgeOptions {
  api: CoreApi;
  core: Core;
  /** The organization whose bus events the page receives (the key's). */
  orgId: string;
  info: AppInfo;
  /** The "OS file dialog": a path, or null when the person cancels. */
  chooseFile(kind: UploadKind): string | null;
}

export interface IpcBridge {
  /** Every event sent to the page, in order. */
  sent: { event: IpcEventName; payload: unknown }[];
}

/** Runs in the page before its scripts: the preload's shape over two test bindings. Self-contained. */
function installPreloadShim(names: { channels: string[]; events: string[] }): void {
  const w = window as unknown as Record<string, unknown>;
  const listeners = new Map<string, Set<(payload: unknown) => void>>();
  const calls: { channel: string }[] = [];
  w.__bridgeCalls = calls;
  w.__ipcDeliver = (event: string, payload: unknown) => listeners.get(event)?.forEach((l) => l(payload));
  const bridge = {
    invoke(channel: unknown, args?: unknown): Promise<unknown> {
      if (typeof channel !== 'string' || !names.channels.includes(channel)) {
        return Promise.resolve({
          ok: false,
          error: { code: 'unknown_channel', message: `Unknown IPC channel "${String(channel)}"` },
        });
      }
      calls.push({ channel });
      return (w.__ipcInvoke as (c: string, a: unknown) => Promise<unknown>)(channel, args);
    },
    on(event: string, listener: (payload: unknown) => void): () => void {
      if (!names.events.includes(event)) throw new Error(`Unknown app event "${event}"`);
      const set = listeners.get(event) ?? new Set();
      listeners.set(event, set);
      set.add(listener);
      return () => void set.delete(listener);
    },
  };
  Object.defineProperty(window, 'agentStudio', { value: Object.freeze(bridge) });
}

/** Installs the bridge on a page (before it navigates); it stops forwarding when the page's context closes. */
export async function installIpcBridge(page: Page, opts: IpcBridgeOptions): Promise<IpcBridge> {
  const sent: IpcBridge['sent'] = [];
  const emit = validatedSender((event, payload) => {
    sent.push({ event, payload });
    void page
      .evaluate(
        ([e, p]) => (window as unknown as { __ipcDeliver: (e: string, p: unknown) => void }).__ipcDeliver(e, p),
        [event, payload] as const,
      )
      .catch(() => undefined);
  });
  const files = new PickedFiles();
  const dispatch = createIpcDispatcher({
    api: opts.api,
    files,
    emit,
    local: {
      'app:getInfo': async () => ({ ok: true, value: opts.info }),
      // Never opens a browser from a test; the renderer only needs the answer.
      'app:openExternal': async () => ({ ok: true, value: { opened: false } }),
      'uploads:pickFile': async (args) => files.pick(opts.chooseFile(args?.kind ?? 'any')),
    },
  });
  const stop = forwardCoreEvents(opts.core.events, opts.orgId, emit);
  page.context().once('close', stop);
  await page.exposeBinding('__ipcInvoke', (_source, channel: unknown, args: unknown) => dispatch(channel, args));
  await page.addInitScript(installPreloadShim, { channels: [...CHANNEL_NAMES], events: [...EVENT_NAMES] });
  return { sent };
}
