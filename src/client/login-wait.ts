// The typed client's wait for a login that runs in the background (POST /api/login with async: true): polls its
// status, tells the caller once per takeover_url that a person is needed, and takes an async login's state.
import type { LoginRun, StorageState } from '../shared/login.schema.js';
import { AgentStudioError, CLIENT_ERROR_CODES } from './agent-studio-error.js';
import { abortError, sleep } from './client-wait.js';

export interface LoginWaitOptions {
  /** Give up after this long (default 10 minutes) with AgentStudioError code `wait_timeout`. */
  timeoutMs?: number;
  /** Pause between polls (default 1000 ms). */
  intervalMs?: number;
  /**
   * The login waits for a person: show `run.takeover_url` to yours (it is the key to the live page), or, for
   * `run.reason` mfa_required, type the code they give you with typeLoginCode. Called once per takeover_url.
   */
  onNeedsPerson?: (run: LoginRun) => void;
  signal?: AbortSignal;
}

export interface LoginWaitResult {
  run: LoginRun;
  /** Once an async login succeeded: its storageState (given once by the server; later waits get none). */
  state?: StorageState;
}

const isRunning = (run: LoginRun) => run.status === 'running' || run.status === 'needs_person';

export async function waitForLoginRun(
  api: { status(id: string): Promise<LoginRun>; state(id: string): Promise<StorageState> },
  loginId: string,
  opts: LoginWaitOptions,
): Promise<LoginWaitResult> {
  const { timeoutMs = 10 * 60_000, intervalMs = 1000, onNeedsPerson, signal } = opts;
  const deadline = Date.now() + timeoutMs;
  let announced: string | undefined;
  for (;;) {
    if (signal?.aborted) throw abortError();
    const run = await api.status(loginId);
    if (run.status === 'needs_person' && run.takeover_url && run.takeover_url !== announced) {
      announced = run.takeover_url;
      onNeedsPerson?.(run);
    }
    if (!isRunning(run)) {
      if (run.status !== 'succeeded' || !run.state_available) return { run };
      return { run, state: await api.state(loginId) };
    }
    if (Date.now() + intervalMs > deadline)
      throw new AgentStudioError({
        status: 0,
        code: CLIENT_ERROR_CODES.waitTimeout,
        message: `Login ${loginId} is still ${run.status} after ${timeoutMs} ms`,
        details: { login_id: loginId, status: run.status },
      });
    await sleep(intervalMs, signal);
  }
}
