// The renderer's only door to the app: window.agentStudio (installed by the preload), with each
// IPC result unwrapped: a value, or a thrown ApiError carrying the service's code and message.
import type { IpcResult } from '../../shared/errors.js';
import type { AgentStudioApi, Domain } from '../../shared/ipc-contract.js';

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

type Unwrap<F> = F extends (...args: infer A) => Promise<IpcResult<infer R>> ? (...args: A) => Promise<R> : never;
export type Api = { [D in Domain]: { [M in keyof AgentStudioApi[D]]: Unwrap<AgentStudioApi[D][M]> } } & {
  events: AgentStudioApi['events'];
};

/** False when the page runs outside the desktop app (no preload). */
export function hasBridge(): boolean {
  return typeof (window as { agentStudio?: AgentStudioApi }).agentStudio === 'object';
}

function bridge(): AgentStudioApi {
  const b = (window as { agentStudio?: AgentStudioApi }).agentStudio;
  if (!b) throw new ApiError('no_bridge', 'The app bridge is missing: open Agent Studio from the desktop app.');
  return b;
}

async function unwrap<T>(p: Promise<IpcResult<T>>): Promise<T> {
  let res: IpcResult<T>;
  try {
    res = await p;
  } catch (err) {
    throw new ApiError('ipc_error', (err as Error).message);
  }
  if (res.ok) return res.value;
  throw new ApiError(res.error.code, res.error.message, res.error.details);
}

export const api: Api = new Proxy({} as Api, {
  get(_target, domain: string) {
    if (domain === 'events') return bridge().events;
    return new Proxy(
      {},
      {
        get(_t, method: string) {
          return (args?: unknown) => {
            const fn = (
              bridge() as unknown as Record<string, Record<string, (a?: unknown) => Promise<IpcResult<unknown>>>>
            )[domain]?.[method];
            if (!fn) return Promise.reject(new ApiError('unknown_channel', `${domain}.${method} is not available`));
            return unwrap(fn(args));
          };
        },
      },
    );
  },
});

/** A message for any thrown value. */
export function errorMessage(err: unknown): string {
  if (err instanceof ApiError) return err.message;
  if (err instanceof Error) return err.message;
  return String(err);
}
