import type { StateCreator } from 'zustand';
import type { ChannelArgs, IpcEventPayload, StorageState } from '../../shared/ipc-contract.js';
import { ApiError, errorMessage, invoke } from '../lib/api';
import type { SessionRequest } from '../lib/snippets';
import type { AppState } from './app-store';

/** A login as the window shows it: the storageState, the wall time seen here, and whether the cache served it. */
export interface LoginTestResult extends StorageState {
  duration_ms: number;
  from_cache: boolean;
}

export interface LoginStep {
  step: string;
  elapsedMs: number;
}

/** One login started from this window, with the steps the engine reported as they happened. */
export interface LoginRun {
  /** Sent as X-Login-Id: its login:step events carry it, and a cancel names it. */
  loginId: string;
  request: SessionRequest;
  steps: LoginStep[];
  status: 'running' | 'succeeded' | 'failed' | 'cancelled';
  startedAt: number;
  durationMs: number | null;
  /** The cache entry it made or served (X-Session-Id). */
  sessionId: string | null;
  /** `details` as the API sent them (validation issues, details.field): the form marks its fields with them. */
  error: { code: string; message: string; details?: Record<string, unknown> } | null;
  /** Memory only, never written anywhere: the window's export buttons hand it over on request. */
  result: LoginTestResult | null;
}

export interface LoginRunsSlice {
  /** The login form's latest run. */
  loginRun: LoginRun | null;
  /** The last login made in this window for each session (its step history and result), by session id. */
  loginHistory: Record<string, LoginRun>;
  /** Runs POST /api/login with a fresh login id; resolves with the finished run (it never throws). */
  runLogin(body: ChannelArgs<'sessions:testLogin'>['body']): Promise<LoginRun>;
  /** Cancels the running login (its POST answers LOGIN_CANCELLED); throws when it cannot. */
  cancelLogin(): Promise<void>;
  applyLoginStep(p: IpcEventPayload<'login:step'>): void;
}

const newLoginId = () => `ui-${crypto.randomUUID()}`;

export const createLoginRunsSlice: StateCreator<AppState, [], [], LoginRunsSlice> = (set, get) => {
  const update = (loginId: string, change: (run: LoginRun) => Partial<LoginRun>) =>
    set((s) => {
      const history = Object.fromEntries(
        Object.entries(s.loginHistory).map(([id, run]) => [
          id,
          run.loginId === loginId ? { ...run, ...change(run) } : run,
        ]),
      );
      const loginRun = s.loginRun?.loginId === loginId ? { ...s.loginRun, ...change(s.loginRun) } : s.loginRun;
      return { loginRun, loginHistory: history };
    });

  return {
    loginRun: null,
    loginHistory: {},
    async runLogin(body) {
      const loginId = newLoginId();
      const started = Date.now();
      const run: LoginRun = {
        loginId,
        request: {
          domain: body.domain,
          username: body.cred.username ?? '',
          loginMethod: body.loginMethod ?? 'password',
        },
        steps: [],
        status: 'running',
        startedAt: started,
        durationMs: null,
        sessionId: null,
        error: null,
        result: null,
      };
      set({ loginRun: run });
      try {
        const { body: state, headers } = await invoke('sessions:testLogin', {
          body,
          headers: { 'x-login-id': loginId },
        });
        const durationMs = Date.now() - started;
        const sessionId = headers['x-session-id'];
        const result = { ...state, duration_ms: durationMs, from_cache: headers['x-session-cache'] === 'hit' };
        update(loginId, () => ({ status: 'succeeded', durationMs, sessionId, result }));
        const finished = get().loginRun?.loginId === loginId ? get().loginRun! : { ...run, sessionId, result };
        set((s) => ({ loginHistory: { ...s.loginHistory, [sessionId]: finished } }));
        return finished;
      } catch (err) {
        const code = err instanceof ApiError ? err.code : 'error';
        const cancelled = code === 'LOGIN_CANCELLED';
        update(loginId, () => ({
          status: cancelled ? 'cancelled' : 'failed',
          durationMs: Date.now() - started,
          error: { code, message: errorMessage(err), ...(err instanceof ApiError ? { details: err.details } : {}) },
        }));
        return get().loginRun ?? run;
      }
    },
    async cancelLogin() {
      const run = get().loginRun;
      if (!run || run.status !== 'running') return;
      await invoke('sessions:cancelLogin', { params: { id: run.loginId } });
    },
    applyLoginStep(p) {
      update(p.loginId, (run) => ({ steps: [...run.steps, { step: p.step, elapsedMs: p.elapsedMs }] }));
    },
  };
};
