// The typed client's wait for a login that runs in the background (POST /api/login with async: true): long polls of
// its status (GET /api/login/{id}?wait=, answered when the login changes), tells the caller once per takeover_url
// that a person is needed, and takes an async login's state.
import { LOGIN_WAIT_MAX_SEC } from '../shared/login-wait.schema.js';
import type { LoginRun, StorageState } from '../shared/login.schema.js';
import { AgentStudioError, CLIENT_ERROR_CODES } from './agent-studio-error.js';
import { abortError, sleep } from './client-wait.js';

export interface LoginWaitOptions {
  /** Give up after this long (default 10 minutes) with AgentStudioError code `wait_timeout`. */
  timeoutMs?: number;
  /**
   * The least time between two requests (default 1000 ms). Each request is a long poll the server answers when the
   * login changes, so this only spaces out a quick run of changes (and the polls of a server without long polls).
   */
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

/** A read of the login: at once (`seconds` undefined), or held up to `seconds` for its change; `signal` ends it. */
export interface StatusWait {
  seconds?: number;
  signal?: AbortSignal;
}

const isRunning = (run: LoginRun) => run.status === 'running' || run.status === 'needs_person';

export async function waitForLoginRun(
  api: { status(id: string, wait: StatusWait): Promise<LoginRun>; state(id: string): Promise<StorageState> },
  loginId: string,
  opts: LoginWaitOptions,
): Promise<LoginWaitResult> {
  const { timeoutMs = 10 * 60_000, intervalMs = 1000, onNeedsPerson, signal } = opts;
  const deadline = Date.now() + timeoutMs;
  let announced: string | undefined;
  let first = true;
  for (;;) {
    if (signal?.aborted) throw abortError();
    const asked = Date.now();
    // The first read is where the login stands now; each later one waits for its change (a long poll answers a
    // change from where the login stood when it was asked), for about the time left.
    const seconds = first ? undefined : secondsLeft(deadline - asked);
    first = false;
    const run = await api.status(loginId, { seconds, signal });
    if (run.status === 'needs_person' && run.takeover_url && run.takeover_url !== announced) {
      announced = run.takeover_url;
      onNeedsPerson?.(run);
    }
    if (!isRunning(run)) {
      if (run.status !== 'succeeded' || !run.state_available) return { run };
      return { run, state: await api.state(loginId) };
    }
    if (Date.now() >= deadline)
      throw new AgentStudioError({
        status: 0,
        code: CLIENT_ERROR_CODES.waitTimeout,
        message: `Login ${loginId} is still ${run.status} after ${timeoutMs} ms`,
        details: { login_id: loginId, status: run.status },
      });
    // A long poll that answered early answered a change; the next one follows no sooner than intervalMs after it.
    const spent = Date.now() - asked;
    if (seconds !== undefined && spent < intervalMs)
      await sleep(Math.min(intervalMs - spent, Math.max(0, deadline - Date.now())), signal);
  }
}

/** The time left as a long poll's whole seconds: at least 1, at most the server's most. */
const secondsLeft = (ms: number) => Math.max(1, Math.min(LOGIN_WAIT_MAX_SEC, Math.floor(ms / 1000)));
