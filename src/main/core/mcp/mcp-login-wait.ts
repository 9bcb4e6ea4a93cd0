// Waiting on a login with an id (GET /api/login/:id) from an MCP tool: login and wait_for_login.
import type { LoginRun } from '../../../shared/login.schema.js';
import { PERSON_TASK } from '../../../shared/person-task.js';
import type { CoreEventBus } from '../events.js';
import { callRoute, type CoreApi } from '../http/in-process-api.js';

/**
 * Re-read interval without an event. Events (login.step, login.needs_person, login.finished of that id) only wake
 * the loop early: the answer always comes from the API (its scope and organization checks), and the interval
 * covers events missed. Login ids the tools use are random, so an event of another organization's login with the
 * same id is a harmless extra read.
 */
const POLL_MS_WITH_EVENTS = 2000;
const POLL_MS_WITHOUT_EVENTS = 1000;

export const hasEnded = (run: LoginRun) => run.finished_at !== null;
export const needsPerson = (run: LoginRun) => run.status === 'needs_person';

export interface WatchLoginOptions {
  api: CoreApi;
  events?: CoreEventBus;
  loginId: string;
  /** Stop when this holds for the login as the API answers it. */
  until(run: LoginRun): boolean;
  /** Epoch ms: the login as it stands then is returned (until may not hold). */
  deadline: number;
  /** Aborted: the login as it stands is returned at once. */
  signal: AbortSignal;
  /** Each read whose steps or status changed (the first read too). */
  onChange?(run: LoginRun): Promise<void>;
}

/** The login once `until` holds, or as it stands at the deadline or the abort. Never cancels the login. */
export async function watchLogin(opts: WatchLoginOptions): Promise<LoginRun> {
  let changed = false;
  let wake: (() => void) | null = null;
  const onEvent = (p: { loginId: string }) => {
    if (p.loginId !== opts.loginId) return;
    changed = true;
    wake?.();
  };
  const unsubscribe = opts.events
    ? [
        opts.events.on('login.step', onEvent),
        opts.events.on('login.needs_person', onEvent),
        opts.events.on('login.finished', onEvent),
      ]
    : [];
  const pollMs = opts.events ? POLL_MS_WITH_EVENTS : POLL_MS_WITHOUT_EVENTS;
  let seen = '';
  try {
    for (;;) {
      changed = false;
      const run = (await callRoute(opts.api, 'loginStatus', { params: { id: opts.loginId } })).body;
      const key = `${run.status}/${run.steps.length}`;
      if (key !== seen) {
        seen = key;
        await opts.onChange?.(run);
      }
      const left = opts.deadline - Date.now();
      if (opts.until(run) || left <= 0 || opts.signal.aborted) return run;
      // An event that arrived during the GET above is not lost: `changed` skips the sleep.
      if (!changed) {
        await new Promise<void>((resolve) => {
          const timer = setTimeout(done, Math.min(left, pollMs));
          opts.signal.addEventListener('abort', done, { once: true });
          wake = done;
          function done() {
            clearTimeout(timer);
            opts.signal.removeEventListener('abort', done);
            wake = null;
            resolve();
          }
        });
      }
    }
  } finally {
    for (const off of unsubscribe) off();
  }
}

/** What the person is asked to do, in the words of the live page and the desktop banner (secret-free). */
export const whatToDo = (run: LoginRun) => PERSON_TASK[run.reason ?? 'login_form_not_found'];

/**
 * The site's own words about its second factor, when a step quoted them ("… asks for a second factor: 'Enter the
 * code sent to a•••@example.com'"): steps are secret-free by contract (the engine never writes a typed value).
 */
export function codePromptOf(run: LoginRun): string | undefined {
  for (const step of [...run.steps].reverse()) {
    // Up to the line's last quote: the site's words may hold an apostrophe ("we've sent a code").
    const quoted = /second factor[^']*'(.{3,300})'/i.exec(step)?.[1];
    if (quoted) return quoted.trim();
  }
  return undefined;
}
