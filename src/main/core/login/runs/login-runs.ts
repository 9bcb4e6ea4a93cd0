import { API_ROUTES, routeUrl } from '../../../../shared/api/index.js';
import type { LoginRequestBody, LoginRun, StorageState } from '../../../../shared/login.schema.js';
import { loginCodeName } from '../../../../shared/errors.js';
import { AppError, notFound } from '../../errors.js';
import type { CoreEventBus } from '../../events.js';
import { newId } from '../../ids.js';
import { toAppError } from '../../http/plugins/errors.js';
import type { Logger } from '../../logger.js';
import type { Lifecycle } from '../lifecycle/index.js';
import type { LoginOutcome } from '../sessions/login.service.js';
import type { VaultCaller } from '../vault/index.js';
import type { LoginBoard } from './login-board.js';
import type { RunningLogins } from './running-logins.js';

/**
 * POST /api/login as a whole: a login that has an id (X-Login-Id, or one made for an async or interactive
 * login) is tracked on the board (GET /api/login/{id}); an async one runs in the background and keeps its
 * state for GET /api/login/{id}/state; a failure carries details.login_id. Events login.finished.
 */
export class LoginRuns {
  constructor(
    private readonly deps: {
      board: LoginBoard;
      /** The fresh logins with an id that run now (the login service registers each): what a cancel aborts. */
      running: RunningLogins;
      /** Runs the login: saved logins and the lifecycle's options, then the cache or a fresh login. */
      lifecycle: Pick<Lifecycle, 'sessions'>;
      events: CoreEventBus;
      log: Logger;
    },
  ) {}

  /** Fresh logins with an id running now, in every organization (waiting for a person included). */
  runningCount(): number {
    return this.deps.running.size;
  }

  /** POST /api/login/{id}/cancel: false when no fresh login with this id runs in the organization. */
  cancel(orgId: string, loginId: string): boolean {
    return this.deps.running.cancel(orgId, loginId);
  }

  /** The login, answered when it ends (waiting for a person too, with `interactive`). */
  async run(who: VaultCaller, body: LoginRequestBody, loginId?: string): Promise<LoginOutcome> {
    // A person may be sent to a live page named by the login: an interactive login always has an id.
    const id = loginId ?? (body.interactive ? newId('login', 20) : undefined);
    if (!id) return this.deps.lifecycle.sessions.login(who, body, {});
    this.refuseRunning(who.orgId, id);
    return this.tracked(who, body, id, false);
  }

  /** Starts the login in the background: 202 {login_id, status_url}. */
  start(who: VaultCaller, body: LoginRequestBody, loginId?: string): { login_id: string; status_url: string } {
    const id = loginId ?? newId('login', 20);
    this.refuseRunning(who.orgId, id);
    void this.tracked(who, body, id, true).catch(() => {
      // recorded on the board: GET /api/login/{id} answers it
    });
    return { login_id: id, status_url: routeUrl(API_ROUTES.loginStatus, { params: { id } }) };
  }

  /**
   * A running id is never taken over, synchronous logins included: the new login would own the board entry the
   * running one's takeover_url is then filed on, and its key would be shown another key's link.
   */
  private refuseRunning(orgId: string, id: string): void {
    if (this.deps.board.running(orgId, id))
      throw new AppError(409, 'login_running', `A login with the id ${id} is running in this organization.`, {
        login_id: id,
      });
  }

  /** Where the login stands, as `viewer` (the asking key's id) may see it (LoginBoard.get). */
  status(orgId: string, loginId: string, viewer: string | null) {
    const run = this.deps.board.get(orgId, loginId, viewer);
    if (!run) throw notFound(`No login ${loginId} in this organization (finished logins are kept for 10 minutes).`);
    return run;
  }

  /**
   * GET /api/login/{id}?wait=: the login once it no longer stands where it stood when asked — a running login waits
   * for a person or ends; one waiting for a person ends, or waits again on a new link — else as it stands after
   * `waitMs`, or when `signal` aborts (the caller went away, the server closes). An ended login answers at once. Woken
   * by the board's change, never by polling it.
   */
  waitForChange(
    orgId: string,
    loginId: string,
    viewer: string | null,
    waitMs: number,
    signal: AbortSignal,
  ): Promise<LoginRun> {
    const asked = this.status(orgId, loginId, viewer);
    if (asked.finished_at !== null || signal.aborted) return Promise.resolve(asked);
    const { board } = this.deps;
    return new Promise((resolve) => {
      const answer = () => {
        clearTimeout(timer);
        stopWatching();
        signal.removeEventListener('abort', answer);
        // Read now, not a turn later: a board that is being disposed wakes its waiters just before it empties.
        resolve(board.get(orgId, loginId, viewer) ?? asked);
      };
      const stopWatching = board.watch(orgId, loginId, answer);
      const timer = setTimeout(answer, waitMs);
      signal.addEventListener('abort', answer, { once: true });
    });
  }

  /** How many requests wait on the board for a login's change (none once each is answered or gone). */
  waiting(): number {
    return this.deps.board.watching();
  }

  /** An async login's storageState, once. */
  state(orgId: string, loginId: string): StorageState {
    const run = this.status(orgId, loginId, null);
    const state = this.deps.board.takeState(orgId, loginId);
    if (state) return state;
    throw new AppError(
      409,
      run.status === 'running' || run.status === 'needs_person' ? 'login_running' : 'state_unavailable',
      run.status === 'running' || run.status === 'needs_person'
        ? `The login ${loginId} has not finished yet (status ${run.status}).`
        : run.status === 'succeeded'
          ? `The state of login ${loginId} was already taken, or it was not an async login (its answer had it).`
          : `The login ${loginId} ${run.status}: there is no state (GET /api/login/${loginId} has the error).`,
      { login_id: loginId, status: run.status },
    );
  }

  private async tracked(who: VaultCaller, body: LoginRequestBody, id: string, keep: boolean): Promise<LoginOutcome> {
    const { board, events } = this.deps;
    board.start(who.orgId, id, who.keyId);
    try {
      const outcome = await this.deps.lifecycle.sessions.login(who, body, { loginId: id });
      board.succeeded(who.orgId, id, outcome.sessionId, keep ? outcome.state : undefined);
      events.emit('login.finished', {
        orgId: who.orgId,
        loginId: id,
        status: 'succeeded',
        sessionId: outcome.sessionId,
        error: null,
      });
      return outcome;
    } catch (err) {
      if (!(err instanceof AppError)) this.deps.log.error({ err, loginId: id }, 'login crashed');
      const error = toAppError(err);
      const withId = new AppError(
        error.status,
        error.code,
        error.message,
        { ...error.details, login_id: id },
        error.headers,
      );
      board.failed(who.orgId, id, withId);
      const cancelled = error.code === 'login_cancelled';
      const { reason } = error.details;
      events.emit('login.finished', {
        orgId: who.orgId,
        loginId: id,
        status: cancelled ? 'cancelled' : 'failed',
        sessionId: null,
        error: loginCodeName(error.code),
        ...(typeof reason === 'string' ? { reason } : {}),
      });
      if (keep && error.status >= 500) this.deps.log.warn({ loginId: id, code: error.code }, 'async login failed');
      throw withId;
    }
  }
}
