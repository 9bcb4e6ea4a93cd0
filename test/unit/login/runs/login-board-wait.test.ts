// LoginRuns.waitForChange over a real LoginBoard (the long poll behind GET /api/login/{id}?wait=): the board's
// change answers the waiter. Fake timers stand still here, so nothing but a change (or an abort) can answer it: a wait
// that polled the board on a timer would never settle (setImmediate stays real: it marks "nothing settled it").
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { CoreEventBus } from '../../../../src/main/core/events.js';
import { AppError } from '../../../../src/main/core/errors.js';
import { LoginBoard } from '../../../../src/main/core/login/runs/login-board.js';
import { LoginRuns } from '../../../../src/main/core/login/runs/login-runs.js';
import { RunningLogins } from '../../../../src/main/core/login/runs/running-logins.js';
import type { LoginRun } from '../../../../src/shared/login.schema.js';

const ORG = 'org_1';
const KEY = 'key_starter';
const HOUR = 3_600_000;

let board: LoginBoard;
let runs: LoginRuns;

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval'] });
  board = new LoginBoard();
  // Waiting reads only the board; the parts that run logins are not used by it.
  runs = new LoginRuns({
    board,
    running: new RunningLogins(),
    lifecycle: { sessions: undefined as never },
    events: new CoreEventBus(),
    log: undefined as never,
  });
});
afterEach(() => {
  board.dispose();
  vi.useRealTimers();
});

/** Whether the promise has settled once the microtasks queued so far have run (no timer moves). */
async function settled(p: Promise<LoginRun>): Promise<LoginRun | 'pending'> {
  return Promise.race([p, new Promise<'pending'>((resolve) => setImmediate(() => resolve('pending')))]);
}

describe('waitForChange', () => {
  it('a running login: answered when it waits for a person (with the link, for the key that started it)', async () => {
    board.start(ORG, 'l1', KEY);
    const wait = runs.waitForChange(ORG, 'l1', KEY, HOUR, new AbortController().signal);
    board.step(ORG, 'l1', 'typed the username');
    expect(await settled(wait)).toBe('pending');
    expect(runs.waiting()).toBe(1);
    board.needsPerson(ORG, 'l1', 'http://127.0.0.1:1/live/l1#t', 'captcha_blocked');
    expect(await settled(wait)).toMatchObject({
      status: 'needs_person',
      reason: 'captcha_blocked',
      takeover_url: 'http://127.0.0.1:1/live/l1#t',
      steps: ['typed the username'],
    });
    expect(runs.waiting()).toBe(0);
  });

  it('a login that waits for a person: answered when it ends, not at once', async () => {
    board.start(ORG, 'l2', KEY);
    board.needsPerson(ORG, 'l2', 'http://127.0.0.1:1/live/l2#t', 'mfa_required');
    const other = runs.waitForChange(ORG, 'l2', 'key_other', HOUR, new AbortController().signal);
    expect(await settled(other)).toBe('pending');
    board.failed(ORG, 'l2', new AppError(409, 'login_cancelled', 'Cancelled.', { reason: 'cancelled' }));
    const run = await settled(other);
    expect(run).toMatchObject({ status: 'cancelled', error: { error: 'LOGIN_CANCELLED' } });
    // Another key never sees the link.
    expect(run).not.toHaveProperty('takeover_url');
  });

  it('an ended login is answered at once; an unknown one is a 404', async () => {
    board.start(ORG, 'l3', KEY);
    board.succeeded(ORG, 'l3', 'ses_1');
    expect(await settled(runs.waitForChange(ORG, 'l3', KEY, HOUR, new AbortController().signal))).toMatchObject({
      status: 'succeeded',
      session_id: 'ses_1',
    });
    expect(() => runs.waitForChange(ORG, 'nope', KEY, HOUR, new AbortController().signal)).toThrow(
      expect.objectContaining({ status: 404 }),
    );
    expect(runs.waiting()).toBe(0);
  });

  it('after waitMs, or at an abort: the login as it stands, and the waiter is gone from the board', async () => {
    board.start(ORG, 'l4', KEY);
    const timed = runs.waitForChange(ORG, 'l4', KEY, 5000, new AbortController().signal);
    const gone = new AbortController();
    const aborted = runs.waitForChange(ORG, 'l4', KEY, HOUR, gone.signal);
    expect(runs.waiting()).toBe(2);
    gone.abort();
    expect(await settled(aborted)).toMatchObject({ status: 'running' });
    expect(runs.waiting()).toBe(1);
    vi.advanceTimersByTime(5000);
    expect(await settled(timed)).toMatchObject({ status: 'running', finished_at: null });
    expect(runs.waiting()).toBe(0);
  });

  it('another organization’s login of the same id does not wake the waiter; disposing the board answers it', async () => {
    board.start(ORG, 'l5', KEY);
    board.start('org_2', 'l5', 'key_2');
    const wait = runs.waitForChange(ORG, 'l5', KEY, HOUR, new AbortController().signal);
    board.succeeded('org_2', 'l5', 'ses_2');
    expect(await settled(wait)).toBe('pending');
    board.dispose();
    expect(await settled(wait)).toMatchObject({ login_id: 'l5', status: 'running' });
    expect(runs.waiting()).toBe(0);
  });
});
