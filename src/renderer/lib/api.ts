// The renderer's only door to the app: window.agentStudio (installed by the preload), typed from the
// shared contract. `invoke` unwraps each IPC result: the value, or a thrown ApiError carrying the
// service's code and message. Argument and result types are inferred from the contract's zod schemas.
import type { IpcResult } from '../../shared/errors.js';
import type {
  AgentStudioBridge,
  ChannelArgsTuple,
  ChannelName,
  ChannelResult,
  IpcEventName,
  IpcEventPayload,
  PickedFile,
} from '../../shared/ipc-contract.js';

export class ApiError extends Error {
  constructor(
    readonly code: string,
    message: string,
    readonly details: Record<string, unknown> = {},
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

/** False when the page runs outside the desktop app (no preload). */
export function hasBridge(): boolean {
  return typeof (window as { agentStudio?: AgentStudioBridge }).agentStudio === 'object';
}

function bridge(): AgentStudioBridge {
  const b = (window as { agentStudio?: AgentStudioBridge }).agentStudio;
  if (!b) throw new ApiError('no_bridge', 'The app bridge is missing: open Agent Studio from the desktop app.');
  return b;
}

/** Calls a contract channel: resolves with its value, or rejects with an ApiError. */
export async function invoke<C extends ChannelName>(
  channel: C,
  ...args: ChannelArgsTuple<C>
): Promise<ChannelResult<C>> {
  let res: IpcResult<ChannelResult<C>>;
  try {
    const call = bridge().channels[channel] as
      ((...a: ChannelArgsTuple<C>) => Promise<IpcResult<ChannelResult<C>>>) | undefined;
    if (!call) throw new ApiError('unknown_channel', `Unknown IPC channel "${channel}"`);
    res = await call(...args);
  } catch (err) {
    if (err instanceof ApiError) throw err;
    throw new ApiError('ipc_error', (err as Error).message);
  }
  if (res.ok) return res.value;
  throw new ApiError(res.error.code, res.error.message, res.error.details);
}

/** A file dropped on the window as a picked file (the preload finds its path); null when it has none on disk. */
export async function pickDroppedFile(file: File): Promise<PickedFile | null> {
  const res = await bridge().pickDroppedFile(file);
  if (res.ok) return res.value;
  throw new ApiError(res.error.code, res.error.message, res.error.details);
}

/** Subscribes to a contract event; returns the unsubscribe function (a no-op without the bridge). */
export function onAppEvent<E extends IpcEventName>(
  event: E,
  listener: (payload: IpcEventPayload<E>) => void,
): () => void {
  return hasBridge() ? bridge().on(event, listener) : () => {};
}

/** A message for any thrown value. */
export function errorMessage(err: unknown): string {
  if (err instanceof ApiError) return err.message;
  if (err instanceof Error) return err.message;
  return String(err);
}
