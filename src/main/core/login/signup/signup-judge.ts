import type { LocatedCodePrompt } from '../engine/form-finder.js';
import type { Snapshot } from '../engine/outcome-detector.js';
import { lastActiveAt, pageActivity } from '../engine/page-activity.js';
import { nextScanId, runInFrame } from '../engine/page-script.js';
import { SIGNUP_ERROR, USER_EXISTS, VERIFY_EMAIL, withoutHelp } from './signup-keywords.js';
import { readSignupPageState, type SignupPageState } from './signup-page-state.js';
import type { SignupContext } from './signup-types.js';

/** What the page says after a step, judged from its texts alone (see classifySignupPage). */
export type SignupVerdict =
  | { kind: 'exists'; text: string }
  | { kind: 'rejected'; text: string }
  /** Still on the sign-up form and nothing new was said. */
  | { kind: 'form' }
  | { kind: 'verify'; text: string }
  /** The form is gone without a message. */
  | { kind: 'left' };

/** The text says the account exists, and not conditionally ("If an account exists for this address, …"). */
function existsText(text: string): boolean {
  const m = USER_EXISTS.exec(text);
  return !!m && !/\b(if|unless|whether|in case|falls|wenn)\b/i.test(text.slice(0, m.index + m[0].length));
}

/**
 * Judges a page by what it says that it did not say before the step: "account exists" text first
 * (several languages), then, while the sign-up form is still shown, an error message (weak password,
 * missing field …); once it is gone, a "verify your email" page or an error page. Questions with their
 * answer link ("Already have an account? Sign in") are help, not messages.
 */
export function classifySignupPage(before: SignupPageState, after: SignupPageState): SignupVerdict {
  const seenTexts = new Set(before.texts);
  const seenErrors = new Set(before.errors);
  const freshErrors = after.errors
    .filter((t) => !seenErrors.has(t))
    .map(withoutHelp)
    .filter(Boolean);
  const fresh = after.texts
    .filter((t) => !seenTexts.has(t))
    .map(withoutHelp)
    .filter(Boolean);
  const exists = [...freshErrors, ...fresh].find(existsText);
  if (exists) return { kind: 'exists', text: exists };
  if (after.signupForm) {
    const problem = freshErrors[0] ?? fresh.find((t) => SIGNUP_ERROR.test(t));
    return problem ? { kind: 'rejected', text: problem } : { kind: 'form' };
  }
  const verify = fresh.find((t) => VERIFY_EMAIL.test(t));
  if (verify) return { kind: 'verify', text: verify };
  if (freshErrors.length) return { kind: 'rejected', text: freshErrors[0] };
  return { kind: 'left' };
}

/** One look at the page: its texts and the evidence the login engine reads (cookies, storage, CAPTCHA). */
export interface SignupLook {
  state: SignupPageState;
  snap: Snapshot;
}

export async function takeLook(s: SignupContext): Promise<SignupLook | undefined> {
  const id = nextScanId();
  const [states, snap] = await Promise.all([
    Promise.all(s.page.frames().map((f) => runInFrame(f, readSignupPageState, {}, id))),
    s.detector.snapshot(),
  ]);
  const main = states[0];
  if (!main || !snap.complete) return undefined; // the document was replaced while we looked
  const state: SignupPageState = { ...main, texts: [...main.texts], errors: [...main.errors] };
  for (const other of states.slice(1)) {
    if (!other) continue;
    state.texts.push(...other.texts);
    state.errors.push(...other.errors);
    state.invalidFields.push(...other.invalidFields);
    state.signupForm ||= other.signupForm;
  }
  // Toasts that came and went between looks, and alert() texts.
  state.errors.push(...snap.signals.observed);
  return { state, snap };
}

/** A look at the page, waiting (bounded by the deadline) while its document is being replaced. */
export async function lookNow(s: SignupContext): Promise<SignupLook> {
  for (;;) {
    s.deadline.check();
    const look = await takeLook(s);
    if (look) return look;
    await s.net.waitForActivity(Math.min(250, s.deadline.remaining()), 30);
  }
}

export type SignupOutcome =
  | { kind: 'exists'; text: string }
  /** text null: the form came back without a message. */
  | { kind: 'rejected'; text: string | null }
  | { kind: 'invalid-fields'; fields: string[] }
  | { kind: 'unsubmitted' }
  | { kind: 'blocked'; reason: 'captcha_blocked' | 'account_locked'; text: string }
  | { kind: 'verify-code'; prompt: LocatedCodePrompt }
  | { kind: 'verify-link'; text: string }
  | { kind: 'login' }
  | { kind: 'signed-in'; evidence: string[] }
  /** The page moved on with no login form and no sign of a session. */
  | { kind: 'no-session' };

export interface ActionBases {
  navBase: number;
  requestBase: number;
  activityBase: number;
}

export function actionBases(s: SignupContext): ActionBases {
  return { navBase: s.net.navigationCount(), requestBase: s.net.requestCount(), activityBase: s.net.activityCount() };
}

/** The longest a page that keeps changing is watched before it is judged as it is. */
const BOUND_MS = 20_000;
/** Network and DOM quiet this long before a page without a message is judged. */
const QUIET_MS = 500;

/**
 * Watches the page after an action (submit, opening the verification link, entering the code) until
 * it says something or settles, and decides what happened. `before` is the look right before the
 * action; `sessionBase` the look before the sign-up began (a session cookie set by the sign-up itself
 * counts as evidence later).
 */
export async function waitForSignupOutcome(
  s: SignupContext,
  before: SignupLook,
  bases: ActionBases,
  sessionBase: SignupLook = before,
): Promise<SignupOutcome> {
  const { net, deadline } = s;
  const start = Date.now();
  let seen = bases.activityBase;
  for (;;) {
    deadline.check();
    await net.waitForActivity(Math.min(250, deadline.remaining()), 30, seen);
    seen = net.activityCount();
    if (net.documentPending()) continue;
    const after = await takeLook(s);
    if (!after) continue;
    const elapsed = Date.now() - start;
    const bound = elapsed > BOUND_MS;
    const sig = after.snap.signals;
    if (sig.captcha && (after.state.signupForm || !before.snap.signals.captcha))
      return { kind: 'blocked', reason: 'captcha_blocked', text: sig.captcha };
    if (sig.locked && !before.snap.signals.locked)
      return { kind: 'blocked', reason: 'account_locked', text: sig.locked };
    const verdict = classifySignupPage(before.state, after.state);
    if (verdict.kind === 'exists' || verdict.kind === 'rejected') return verdict;
    const navigated = net.navigationCount() > bases.navBase;
    if (verdict.kind === 'form') {
      if (!bound && !(elapsed > 1500 && net.isSettled(1200, start) && net.msSinceNavigation() > 1000)) continue;
      const noTraffic = !navigated && net.requestCount() === bases.requestBase;
      if (noTraffic && after.state.invalidFields.length)
        return { kind: 'invalid-fields', fields: after.state.invalidFields };
      return noTraffic ? { kind: 'unsubmitted' } : { kind: 'rejected', text: null };
    }
    // The form is gone: judge once nothing loads and no element was added or removed for a moment.
    if (!bound) {
      if (!net.isSettled(QUIET_MS, start) || after.state.readyState === 'loading') continue;
      const activity = await pageActivity(s.page);
      if (activity.busy || Date.now() - lastActiveAt(activity) < QUIET_MS) continue;
    }
    const prompt = await s.finder.scanCodePrompt(s.page);
    if (prompt) return { kind: 'verify-code', prompt };
    if (verdict.kind === 'verify') return { kind: 'verify-link', text: verdict.text };
    const scan = await s.finder.scan(s.page);
    const login = scan.form?.candidate;
    if (login && (login.kind === 'password' || login.score >= 9)) return { kind: 'login' };
    const evidence = [
      ...s.detector.authCookieChanges(sessionBase.snap, after.snap).map((n) => `auth cookie ${n}`),
      ...s.detector.authStorageChanges(sessionBase.snap, after.snap).names.map((n) => `auth storage key ${n}`),
    ];
    if (evidence.length) return { kind: 'signed-in', evidence };
    return { kind: 'no-session' };
  }
}
