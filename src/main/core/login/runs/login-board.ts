import type { LoginRun, StorageState } from '../../../../shared/login.schema.js';
import { toAppError, renderError } from '../../http/plugins/errors.js';
import { isPersonReason } from '../../../../shared/person-task.js';

/** How long a finished login stays on the board (and an async login's state waits to be taken). */
export const FINISHED_KEPT_MS = 10 * 60_000;
/** Most steps kept per login (the engine stops long before). */
const MAX_STEPS = 200;

interface Entry extends LoginRun {
  /** An async login's result, given once (GET /api/login/{id}/state), then dropped. */
  state?: StorageState;
  /**
   * The API key that started the login (null: none). Only it is shown the takeover_url: the link opens the stopped
   * browser, which may hold a saved login other keys of the organization may not use (docs/security.md#a-logins-live-page-is-the-starting-keys).
   */
  startedBy: string | null;
}

/**
 * Logins that have an id (X-Login-Id, an async login, an interactive one): where each stands, for
 * GET /api/login/{id} — running, waiting for a person (with the live page's URL), or finished with its
 * session or its error body — kept 10 minutes after the end. Per organization; in memory only.
 */
export class LoginBoard {
  private readonly entries = new Map<string, Entry>();
  /** Who waits for a login's next change (GET /api/login/{id}?wait=), by board key. */
  private readonly watchers = new Map<string, Set<() => void>>();
  private readonly sweeper: NodeJS.Timeout;

  constructor(private readonly now: () => number = Date.now) {
    this.sweeper = setInterval(() => this.sweep(), 60_000);
    this.sweeper.unref();
  }

  private key(orgId: string, loginId: string): string {
    return `${orgId}\n${loginId}`;
  }

  /** A login begins (replacing a finished one of the same id); `keyId`: the key that started it. */
  start(orgId: string, loginId: string, keyId: string | null): void {
    this.entries.set(this.key(orgId, loginId), {
      startedBy: keyId,
      login_id: loginId,
      status: 'running',
      steps: [],
      state_available: false,
      started_at: this.now(),
      finished_at: null,
    });
  }

  /**
   * Calls `onChange` once, at the login's next change of where it stands: it waits for a person (again, with a new
   * link), or it ends. Steps are not changes. Returns the way to stop watching (a waiter that gave up first).
   */
  watch(orgId: string, loginId: string, onChange: () => void): () => void {
    const key = this.key(orgId, loginId);
    const set = this.watchers.get(key) ?? new Set();
    this.watchers.set(key, set);
    set.add(onChange);
    return () => {
      set.delete(onChange);
      if (set.size === 0 && this.watchers.get(key) === set) this.watchers.delete(key);
    };
  }

  /** How many waiters the board holds (each request that waits is one until it is answered or gone). */
  watching(): number {
    let n = 0;
    for (const set of this.watchers.values()) n += set.size;
    return n;
  }

  private changed(key: string): void {
    const set = this.watchers.get(key);
    if (!set) return;
    this.watchers.delete(key);
    for (const onChange of set) onChange();
  }

  running(orgId: string, loginId: string): boolean {
    const e = this.entries.get(this.key(orgId, loginId));
    return e?.status === 'running' || e?.status === 'needs_person';
  }

  step(orgId: string, loginId: string, line: string): void {
    const e = this.entries.get(this.key(orgId, loginId));
    if (e && e.steps.length < MAX_STEPS) e.steps.push(line);
  }

  needsPerson(orgId: string, loginId: string, takeoverUrl: string, reason: string): void {
    const e = this.entries.get(this.key(orgId, loginId));
    if (!e || e.finished_at !== null) return;
    e.status = 'needs_person';
    e.takeover_url = takeoverUrl;
    if (isPersonReason(reason)) e.reason = reason;
    this.changed(this.key(orgId, loginId));
  }

  /** `state`: kept for GET /api/login/{id}/state (async logins only). */
  succeeded(orgId: string, loginId: string, sessionId: string, state?: StorageState): void {
    const e = this.entries.get(this.key(orgId, loginId));
    if (!e) return;
    Object.assign(e, { status: 'succeeded', session_id: sessionId, finished_at: this.now() });
    delete e.takeover_url;
    delete e.reason;
    if (state) {
      e.state = state;
      e.state_available = true;
    }
    this.changed(this.key(orgId, loginId));
  }

  failed(orgId: string, loginId: string, err: unknown): void {
    const e = this.entries.get(this.key(orgId, loginId));
    if (!e) return;
    const error = toAppError(err);
    const body = renderError('login', error) as NonNullable<LoginRun['error']>;
    Object.assign(e, {
      status: error.code === 'login_cancelled' ? 'cancelled' : 'failed',
      error: body,
      finished_at: this.now(),
    });
    delete e.takeover_url;
    delete e.reason;
    this.changed(this.key(orgId, loginId));
  }

  /** Where the login stands, as `viewer` (an API key id) may see it: the takeover_url only for the key that started it. */
  get(orgId: string, loginId: string, viewer: string | null): LoginRun | null {
    const e = this.entries.get(this.key(orgId, loginId));
    if (!e) return null;
    const { state: _state, startedBy, takeover_url: takeoverUrl, ...run } = e;
    const link =
      takeoverUrl !== undefined && viewer !== null && viewer === startedBy ? { takeover_url: takeoverUrl } : {};
    return { ...run, ...link, steps: [...run.steps] };
  }

  /** An async login's state, once; null when there is none (not finished, failed, taken or expired). */
  takeState(orgId: string, loginId: string): StorageState | null {
    const e = this.entries.get(this.key(orgId, loginId));
    if (!e?.state) return null;
    const { state } = e;
    delete e.state;
    e.state_available = false;
    return state;
  }

  private sweep(): void {
    const before = this.now() - FINISHED_KEPT_MS;
    for (const [key, e] of this.entries) if (e.finished_at !== null && e.finished_at < before) this.entries.delete(key);
  }

  dispose(): void {
    clearInterval(this.sweeper);
    // Whoever still waits is answered now, with the login as it stands.
    for (const key of [...this.watchers.keys()]) this.changed(key);
    this.entries.clear();
  }
}
