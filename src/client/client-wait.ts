// The typed client's pauses between polls (generations.waitFor, waitForLogin): abortable, with the client's error.
import { AgentStudioError, CLIENT_ERROR_CODES } from './agent-studio-error.js';

export const abortError = () =>
  new AgentStudioError({ status: 0, code: CLIENT_ERROR_CODES.aborted, message: 'Aborted' });

export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(abortError());
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(abortError());
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
