import type { StorageExtra } from '../../../../shared/login.schema.js';
import type { BrowserMode } from '../../../../shared/login-browser.schema.js';
import type { PersonReason } from '../../../../shared/person-task.js';
import type { Logger } from '../../logger.js';
import { PERSON_CAN_FINISH } from '../flow/login-engine.js';
import type { LoginFailureReason } from '../../../../shared/errors.js';
import type { LoginFailure, SessionStorageState } from '../login-types.js';

/** The stops a person can get past in a browser window (a CAPTCHA, a second factor, a login form we did not find). */
export type InteractiveReason = PersonReason;

/** What the answer's `details.interactive` says when nobody finished the login. */
export type InteractiveOutcome = 'timed_out' | 'closed' | 'unavailable';

export interface FinishRequest {
  /** Where the login stopped (the engine's finalUrl, else the login page). */
  url: string;
  /** Cookies and storage the login reached (the engine's partialState); empty when it kept none. */
  state: SessionStorageState;
  reason: InteractiveReason;
  /** The engine's secret-free message (the bar itself says what to do from `reason`). */
  message: string;
  /** The whole wait, window launch included; `signal` aborts at the same moment. */
  timeoutMs: number;
  /** Aborted when the time is up: the window closes and finish resolves undefined. */
  signal: AbortSignal;
  /** Storage to capture besides cookies and localStorage (the request's `include`). */
  include?: readonly StorageExtra[];
  /** The login's id and organization (the live page's address names the login; only its org may see it). */
  loginId?: string;
  orgId?: string;
  /** Aborted when the login was cancelled (the signal aborts too): tells a cancel from the time running out. */
  cancel?: AbortSignal;
  /** Where the person can finish it, once that page is ready (a finisher that serves one calls it). */
  onTakeover?: (url: string) => void;
  /** The login's browser mode: a live page in the login pool opens in the same one (a wall saw that browser). */
  mode?: BrowserMode;
  /** What happened while the person was on it (a code typed for them, the site's answer, signed in): the login's steps. */
  onStep?: (line: string) => void;
}

/**
 * Lets a person finish a login the engine cannot (a CAPTCHA, a second factor nobody gave a source for):
 * the desktop app shows it in a visible browser window (VisibleBrowserFinisher). The headless server has
 * none. Resolves with the signed-in storage, or undefined when the person gave up (Cancel, window closed)
 * or the time ran out; rejects when no window could be opened.
 */
export interface InteractiveFinisher {
  finish(req: FinishRequest): Promise<SessionStorageState | undefined>;
  /** Closes any window still open (the core calls it on dispose). */
  dispose?(): Promise<void>;
}

export const DEFAULT_INTERACTIVE_TIMEOUT_SEC = 300;

export type PersonResult = { state: SessionStorageState } | { outcome: InteractiveOutcome; note: string };

const WHERE_A_PERSON_CAN_FINISH =
  'See "A person in the loop" (docs/person-in-the-loop.md#the-live-page): run the desktop app where a person can ' +
  'see the window, or use a remote browser with a live view (browser.connectEndpoint).';

/**
 * The service's side of an interactive login (`interactive: true`): hands a failure a person can get
 * past to the finisher, bounded by the request's time limit. Undefined for any other failure (the
 * answer is the typed error as always). Never throws: a window that cannot open is 'unavailable'.
 */
export async function askPerson(
  finisher: InteractiveFinisher | undefined,
  failure: LoginFailure,
  opts: {
    loginUrl: string;
    timeoutSec?: number;
    include?: readonly StorageExtra[];
    log: Logger;
    /** The login was cancelled (POST /api/login/:id/cancel): the window closes and the caller answers. */
    cancel?: AbortSignal;
    mode?: BrowserMode;
    loginId?: string;
    orgId?: string;
    onTakeover?: (url: string) => void;
    onStep?: (line: string) => void;
  },
): Promise<PersonResult | undefined> {
  if (!isInteractiveReason(failure.reason)) return undefined;
  if (!finisher)
    return {
      outcome: 'unavailable',
      note: ` This server shows no browser window for a person to finish the login. ${WHERE_A_PERSON_CAN_FINISH}`,
    };
  const timeoutSec = opts.timeoutSec ?? DEFAULT_INTERACTIVE_TIMEOUT_SEC;
  const timeout = AbortSignal.timeout(timeoutSec * 1000);
  const signal = opts.cancel ? AbortSignal.any([timeout, opts.cancel]) : timeout;
  const origin = new URL(opts.loginUrl).origin;
  opts.log.info({ origin, reason: failure.reason, timeoutSec }, 'login waits for a person');
  let state: SessionStorageState | undefined;
  try {
    state = await finisher.finish({
      url: failure.finalUrl ?? opts.loginUrl,
      state: failure.partialState ?? { cookies: [], origins: [] },
      reason: failure.reason,
      message: failure.message,
      timeoutMs: timeoutSec * 1000,
      signal,
      include: opts.include,
      loginId: opts.loginId,
      orgId: opts.orgId,
      cancel: opts.cancel,
      onTakeover: opts.onTakeover,
      mode: opts.mode,
      onStep: opts.onStep,
    });
  } catch (err) {
    // Launch errors carry no session data; the first line says enough (a missing display, browser, …).
    const why = (err instanceof Error ? err.message : String(err)).split('\n')[0]!.slice(0, 300);
    opts.log.warn({ origin, err: why }, 'no browser window for a person');
    return {
      outcome: 'unavailable',
      note: ` No browser window could be opened for a person to finish it (see the log). ${WHERE_A_PERSON_CAN_FINISH}`,
    };
  }
  if (state) {
    opts.log.info({ origin, cookies: state.cookies.length }, 'a person finished the login');
    return { state };
  }
  if (opts.cancel?.aborted) {
    opts.log.info({ origin }, 'the login was cancelled while it waited for a person');
    return { outcome: 'closed', note: ' The login was cancelled while it waited for a person.' };
  }
  if (timeout.aborted) {
    opts.log.info({ origin }, 'nobody finished the login in time');
    return { outcome: 'timed_out', note: ` Nobody finished it in the browser window within ${timeoutSec} s.` };
  }
  opts.log.info({ origin }, 'the person closed the login window');
  return { outcome: 'closed', note: ' The browser window was closed (or Cancel pressed) before the login finished.' };
}

function isInteractiveReason(reason: LoginFailureReason): reason is InteractiveReason {
  return PERSON_CAN_FINISH.has(reason);
}
