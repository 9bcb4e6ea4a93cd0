import type { StateCreator } from 'zustand';

import { ApiError, errorMessage, invoke } from '../lib/api';

import type { AppState, LoginRun, LoginRunsSlice } from './store-types';

export type { LoginRun, LoginStep, LoginTestResult } from './store-types';

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
          // A login by a saved login's label names no page or user here: the answer's session says which.
          domain: body.domain ?? '',
          username: body.cred?.username ?? '',
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
