import type { Deadline } from './deadline.js';
import { KEYWORDS } from './form-keywords.js';
import type { LoginFailureReason } from '../../../../shared/errors.js';
import type { NetworkTracker } from './network-tracker.js';
import {
  authStorageChanges,
  changedAuthCookies,
  takeSnapshot,
  type SessionStoredIn,
  type SnapshotDeps,
  type Snapshot,
} from './page-snapshot.js';

export { changedAuthCookies, cookieMap, type CookieMap, type SessionStoredIn, type Snapshot } from './page-snapshot.js';

/** What the look that found a success saw, so the steps after it need not look again. */
export interface SuccessPage {
  /** The page could be a stay-signed-in interstitial (PageSignals.stayPrompt). */
  stayPrompt: boolean;
  /** NetworkTracker.navigationCount() at that look: the page is the same document while it is unchanged. */
  navigation: number;
}

export type Outcome =
  | { kind: 'success'; evidence: string[]; page?: SuccessPage; storedIn?: SessionStoredIn[] }
  | { kind: 'advanced'; evidence: string[] }
  | { kind: 'unsubmitted' }
  | { kind: 'failure'; reason: LoginFailureReason; message: string; evidence: string[] };

/** Fallback interval between looks when the page does nothing observable (DOM-only changes). */
const POLL_MS = 150;
/** Minimum gap between looks, so a busy page is not re-examined on every response. */
const MIN_GAP_MS = 25;
/**
 * Strong success evidence (a new auth cookie or storage key, password field gone): the document
 * must be loaded, with nothing in flight and no navigation on its way (a script redirect that
 * already started, an auto-submitted form, a meta refresh) - then a second look (the login-form
 * scan) confirms it. A page that looks like a hand-over (auto-posting form, next to no text) must
 * stay put for BRIDGE_MS first, as it may move on by a timer. On pages that never stop polling, PATIENCE_MS after the first look will do
 * (LEAVING_PATIENCE_MS for a page that keeps announcing a refresh). A document that started to
 * navigate away counts as leaving for LEAVING_MS (its request shows up in the network tracker long
 * before that; a cancelled navigation stops counting).
 */
const STRONG = { PATIENCE_MS: 1500, LEAVING_MS: 500, LEAVING_PATIENCE_MS: 6000, BRIDGE_MS: 500 } as const;
/** Weak evidence (only the password field went away): the network quiet longer, a longer confirmation. */
const WEAK = { QUIET_MS: 400, CONFIRM_MS: 300 } as const;
/**
 * A form that reacted to the submit (button disabled, "Signing in…") whose request has not shown up
 * yet is waited for this long before the submit is called unanswered and tried another way: on a
 * busy machine an out-of-process frame can send its request seconds late, and a second submit then
 * is a second login attempt (a wrong password counted twice towards a lockout).
 */
const REACTED_PATIENCE_MS = 10_000;

export type OutcomePhase = 'password' | 'identifier' | 'code' | 'link';

export interface DetectorDeps extends SnapshotDeps {
  net: NetworkTracker;
  deadline: Deadline;
  /** True when the page shows a login (or username-first) form again. */
  loginFormShown?: () => Promise<boolean>;
}

/** Collects evidence after a submit and decides what happened, blocked states first. */
export class OutcomeDetector {
  private readonly error = new RegExp(KEYWORDS.error, 'i');
  private readonly strongError = new RegExp(KEYWORDS.strongError, 'i');
  private readonly attemptReport = new RegExp(KEYWORDS.attemptReport, 'i');
  private readonly locked = new RegExp(KEYWORDS.locked, 'i');
  private readonly lockHedge = new RegExp(KEYWORDS.lockHedge, 'gi');

  constructor(private readonly deps: DetectorDeps) {}

  snapshot(watchMarker?: string): Promise<Snapshot> {
    return takeSnapshot(this.deps, watchMarker);
  }

  authCookieChanges(before: Snapshot, after: Snapshot): string[] {
    return changedAuthCookies(before.cookies, after.cookies);
  }

  authStorageChanges(before: Snapshot, after: Snapshot): { names: string[]; storedIn: SessionStoredIn[] } {
    return authStorageChanges(before, after);
  }

  private newMessages(before: Snapshot, after: Snapshot): string[] {
    const seen = new Set([...before.signals.messages, ...before.signals.observed]);
    return [...new Set([...after.signals.messages, ...after.signals.observed])].filter((m) => !seen.has(m));
  }

  /**
   * Blocked states first: a CAPTCHA (a person can solve it), a bot wall, a lockout, MFA (not after a code or link:
   * that was the second factor). A bot wall refused the browser, whatever the password was: never a verdict on the
   * credentials.
   */
  private blocked(before: Snapshot, after: Snapshot, phase: OutcomePhase): Outcome | undefined {
    const s = after.signals;
    // A CAPTCHA counts when it is new, or the login UI is still up behind it (not on a dashboard).
    const loginUiUp = s.loginPasswords > 0 || s.watchedState === 'visible-filled' || s.watchedState === 'visible-empty';
    if (s.captcha && (!before.signals.captcha || loginUiUp))
      return {
        kind: 'failure',
        reason: 'captcha_blocked',
        message: `The site shows a CAPTCHA: ${s.captcha}`,
        evidence: [s.captcha],
      };
    if (s.botWall && s.botWall !== before.signals.botWall)
      return {
        kind: 'failure',
        reason: 'bot_detected',
        message: `The site refused the browser as automated: '${s.botWall}'`,
        evidence: [s.botWall],
      };
    const newObserved = s.observed.filter((m) => !before.signals.observed.includes(m));
    // "… incorrect, or the account is temporarily blocked" names a lockout as a possibility: not a verdict.
    s.locked ??= newObserved.find((m) => this.locked.test(m.replace(this.lockHedge, ' '))) ?? null;
    if (s.locked && !before.signals.messages.includes(s.locked)) {
      return {
        kind: 'failure',
        reason: 'account_locked',
        message: `The site reports the account as locked or rate-limited: '${s.locked}'`,
        evidence: [s.locked],
      };
    }
    if (phase === 'code' || phase === 'link') return undefined;
    const otpAppeared = s.otpInputs > before.signals.otpInputs || (s.otpInputs > 0 && s.loginPasswords === 0);
    if (otpAppeared || (s.mfaText && s.mfaText !== before.signals.mfaText)) {
      const what = s.mfaText ? `'${s.mfaText}'` : 'a one-time-code field';
      return {
        kind: 'failure',
        reason: 'mfa_required',
        message: `The site asks for a second factor: ${what}`,
        evidence: [what],
      };
    }
    return undefined;
  }

  /**
   * Polls evidence until the result is clear. `phase: 'password'` decides success/failure of the
   * final submit; `phase: 'identifier'` only decides whether the flow advanced (e.g. a password
   * field appeared) or the identifier was rejected. `code` judges a submitted one-time code (the
   * code prompt is the form), `link` a sign-in link that was opened (any new error text fails it).
   */
  async waitForOutcome(
    before: Snapshot,
    opts: {
      phase: OutcomePhase;
      /** For `code`: whether the page still asks for a code (the second look before a success). */
      promptShown?: () => Promise<boolean>;
      watchMarker?: string;
      navBase: number;
      requestBase: number;
      /** net.activityCount() before the submit: what happened during the submit action is news. */
      activityBase?: number;
      /**
       * When the submit began: requests the page had open before it (a long poll, a slow beacon) do
       * not hold back a success, though they still count before anything is called a failure.
       */
      submittedAt?: number;
    },
  ): Promise<Outcome> {
    const { net, deadline } = this.deps;
    const start = Date.now();
    const submittedAt = opts.submittedAt ?? start;
    let candidate: { since: number; nav: number } | undefined;
    let wait = POLL_MS;
    // The `before` snapshot, the last look, was taken before the submit action: the first look is not held back.
    let lastLook = 0;
    let lastLookNav = -1;
    let activitySeen = opts.activityBase ?? net.activityCount();
    /** Navigation on which a look last saw the password field (no success to confirm there yet). */
    let formSeenOnNav = opts.phase === 'password' ? opts.navBase : -1;
    for (;;) {
      deadline.check();
      // Event-driven: look again when a response arrives, a navigation commits or the document
      // loads; otherwise every POLL_MS (DOM-only changes such as client-side error messages).
      // Looks at one document start at least MIN_GAP_MS apart; checks that need no look (a document
      // still loading) and a new document wake on the event itself, not after a sleep.
      const gap = lastLookNav === net.navigationCount() ? Math.max(0, MIN_GAP_MS - (Date.now() - lastLook)) : 0;
      await net.waitForActivity(Math.min(Math.max(wait, gap), deadline.remaining()), gap, activitySeen);
      activitySeen = net.activityCount();
      wait = POLL_MS;
      deadline.check();
      // While the page itself is loading (the form POST, a redirect) there is nothing to judge yet.
      if (net.documentPending()) continue;
      // On a quiet document that has not shown the password field, the login-form scan that confirms
      // a success runs alongside this look instead of after it (one round trip less).
      const lookNav = net.navigationCount();
      const confirming =
        opts.phase === 'password' && formSeenOnNav !== lookNav && net.isQuiet(0, submittedAt)
          ? this.loginFormShown()
          : undefined;
      lastLook = Date.now();
      lastLookNav = lookNav;
      const after = await this.snapshot(opts.watchMarker);
      if (after.signals.loginPasswords > 0) formSeenOnNav = lookNav;
      const now = Date.now();
      const elapsed = now - start;
      if (!after.complete) continue; // the document was replaced while we looked
      const s = after.signals;
      const blocked = this.blocked(before, after, opts.phase);
      if (blocked) return blocked;

      const fresh = this.newMessages(before, after).filter((m) => this.error.test(m));
      const strong = fresh.filter((m) => this.strongError.test(m));
      const navigated = net.navigationCount() > opts.navBase || after.url !== before.url;
      // Nothing navigated and no request left the page: the submit never happened.
      const noTraffic = !navigated && net.requestCount() === opts.requestBase;
      const formReacted =
        after.signals.watchedFormState !== null &&
        before.signals.watchedFormState !== null &&
        after.signals.watchedFormState !== before.signals.watchedFormState;
      // Submitted by the look of the form; its request is late. Not unanswered yet.
      const awaitingRequest = noTraffic && formReacted && elapsed < REACTED_PATIENCE_MS;
      const cookies = this.authCookieChanges(before, after);
      const { names: storage, storedIn } = this.authStorageChanges(before, after);
      // A Log out control (or logout link) the page did not have before: the site's own signed-in UI.
      const signedIn = s.signedInUi && s.signedInUi !== before.signals.signedInUi ? s.signedInUi : null;
      const evidence = [
        ...(navigated ? [`url changed to ${new URL(after.url).pathname}`] : []),
        ...(cookies.length ? [`new auth cookie(s): ${cookies.join(', ')}`] : []),
        ...(storage.length ? [`new auth storage: ${storage.join(', ')}`] : []),
        ...(signedIn ? [`signed-in page ('${signedIn}')`] : []),
      ];

      if (opts.phase === 'identifier') {
        if (s.loginPasswords > 0) return { kind: 'advanced', evidence: ['password field appeared', ...evidence] };
        const stillThere = s.watchedState === 'visible-filled' || s.watchedState === 'visible-empty';
        // An error after the username step (same page or a re-rendered one) rejects the identifier.
        if (fresh.length) return this.invalid(strong[0] ?? fresh[0], evidence);
        if (!stillThere && net.isSettled(400, start) && elapsed > 300)
          return { kind: 'advanced', evidence: ['identifier step left', ...evidence] };
        if (net.isSettled(1200, start) && elapsed > 1500 && net.msSinceNavigation() > 800 && !awaitingRequest) {
          return s.watchedState === 'visible-filled' && noTraffic
            ? { kind: 'unsubmitted' }
            : { kind: 'advanced', evidence };
        }
        continue;
      }

      const codeUp = s.watchedState === 'visible-filled' || s.watchedState === 'visible-empty' || s.otpInputs > 0;
      // The password field that was filled still on show as another type (a show-password toggle
      // made it a text field) is not a form that went away.
      const watchedShown =
        opts.phase === 'password' && (s.watchedState === 'visible-filled' || s.watchedState === 'visible-empty');
      const formGone = opts.phase === 'code' ? !codeUp : s.loginPasswords === 0 && !watchedShown;
      const strongEvidence = cookies.length > 0 || storage.length > 0;
      // On a page that shows a session, a report of earlier failed attempts ("1 failed login attempt
      // since your last login") is a notice; with the site's signed-in UI there, so is any message.
      const sessionShown = formGone && (strongEvidence || (navigated && !!signedIn));
      const verdicts = sessionShown ? fresh.filter((m) => !signedIn && !this.attemptReport.test(m)) : fresh;
      const strongVerdicts = verdicts.filter((m) => this.strongError.test(m));
      if (verdicts.length && (!formGone || strongVerdicts.length || opts.phase !== 'password'))
        return this.invalid(strongVerdicts[0] ?? verdicts[0], evidence);
      // A document that just committed is empty until parsed: that is no evidence of anything.
      const docReady = (after.readyState !== 'loading' || net.msSinceNavigation() > 8000) && !net.documentPending();
      // Never a success without new evidence of a session: an auth cookie or storage, a new
      // document or URL, or the site's signed-in UI. A form that merely went away is none.
      if (formGone && docReady && !strongEvidence && !navigated && !signedIn) {
        candidate = undefined;
        if (net.isSettled(1200, start) && elapsed > 3000)
          return {
            kind: 'failure',
            reason: 'invalid_credentials',
            message:
              'The login form went away after submitting, but nothing shows a session (no new cookie or storage, no new page, no signed-in page)',
            evidence: ['login form gone without evidence of a session'],
          };
        continue;
      }
      if (formGone && docReady) {
        // Seen on the same document twice, so a redirect's intermediate page is not taken for success.
        if (!candidate || candidate.nav !== net.navigationCount())
          candidate = { since: now, nav: net.navigationCount() };
        const seen = now - candidate.since;
        let ready: boolean;
        if (strongEvidence) {
          const leaving = s.leavingSinceMs !== null && s.leavingSinceMs < STRONG.LEAVING_MS;
          // A hand-over page may move on by a timer: give it BRIDGE_MS on the same document.
          const loaded =
            after.readyState === 'complete' &&
            !leaving &&
            net.isQuiet(0, submittedAt) &&
            (!s.bridge || seen >= STRONG.BRIDGE_MS);
          if (s.bridge && !leaving) wait = Math.max(MIN_GAP_MS, STRONG.BRIDGE_MS - seen);
          ready = loaded || seen >= (leaving ? STRONG.LEAVING_PATIENCE_MS : STRONG.PATIENCE_MS);
        } else {
          ready =
            seen >= WEAK.CONFIRM_MS && (net.isQuiet(WEAK.QUIET_MS, submittedAt) || net.isSettled(WEAK.QUIET_MS, start));
          wait = Math.max(WEAK.CONFIRM_MS - seen, net.msUntilQuiet(WEAK.QUIET_MS, submittedAt), MIN_GAP_MS);
        }
        wait = Math.min(wait, POLL_MS);
        if (ready) {
          // Second look. Sent back to the start of a (two-step) login without a clear message: not a success.
          const nav = confirming ? lookNav : net.navigationCount();
          const secondLook =
            opts.phase === 'code' && opts.promptShown
              ? Promise.all([opts.promptShown(), this.loginFormShown()]).then(([a, b]) => a || b)
              : (confirming ?? this.loginFormShown());
          if (await secondLook)
            return verdicts[0] || navigated
              ? this.invalid(verdicts[0] ?? null, ['back at a login form', ...evidence])
              : this.unanswered(submittedAt, ['back at a login form', ...evidence]);
          if (nav === net.navigationCount() && !net.documentPending())
            return {
              kind: 'success',
              evidence: ['password field gone', ...evidence],
              page: { stayPrompt: s.stayPrompt, navigation: lookNav },
              ...(storedIn.length ? { storedIn } : {}),
            };
          candidate = undefined; // the page moved on meanwhile: judge the next document
        }
        continue;
      }
      candidate = undefined;
      if (
        !formGone &&
        net.isSettled(1200, start) &&
        elapsed > 1500 &&
        net.msSinceNavigation() > 1000 &&
        !awaitingRequest
      ) {
        if (storage.length)
          return {
            kind: 'success',
            evidence: ['login form still visible', ...evidence],
            ...(storedIn.length ? { storedIn } : {}),
          };
        const untouched = s.watchedState === 'visible-filled' && noTraffic;
        // The browser itself would not send the form: the site never saw the credentials, so no 401 — the
        // request lacks what the page requires (its own validation names the fields).
        if (untouched && s.invalidFields.length) {
          return {
            kind: 'failure',
            reason: 'credentials_required',
            message: `The form could not be submitted; required or invalid fields: ${s.invalidFields.join(', ')} (pass them in additionalFields)`,
            evidence: ['native form validation blocked submit'],
          };
        }
        if (untouched) return { kind: 'unsubmitted' };
        // The form is still there and the page said nothing: only the site's refusal of the request is a verdict.
        return this.unanswered(submittedAt, evidence);
      }
    }
  }

  private loginFormShown(): Promise<boolean> {
    return (this.deps.loginFormShown?.() ?? Promise.resolve(false)).catch(() => false);
  }

  /**
   * The login form still (or again) on the same page with no words of the site: the site's refusal of the login
   * request (401 / 403 with a body) is its verdict; otherwise the submit had no visible effect, which says nothing
   * about the credentials (no_outcome, never a 401).
   */
  private unanswered(submittedAt: number, evidence: string[]): Outcome {
    const refusal = this.deps.net.refusalsSince(submittedAt).at(-1);
    if (refusal)
      return {
        kind: 'failure',
        reason: 'invalid_credentials',
        message: `The site refused the login: '${refusal.words}' (HTTP ${refusal.status})`,
        evidence: [`${refusal.path} answered HTTP ${refusal.status}: '${refusal.words}'`, ...evidence],
      };
    return {
      kind: 'failure',
      reason: 'no_outcome',
      message:
        'Submitting the login form had no visible effect: the form is still there, the site said nothing and ' +
        'refused no request, and no new page or session appeared. Nothing says whether the credentials are wrong',
      evidence: ['login form still there, no message, no refusal, no new page', ...evidence],
    };
  }

  private invalid(text: string | null, evidence: string[]): Outcome {
    return {
      kind: 'failure',
      reason: 'invalid_credentials',
      message: text
        ? `The site rejected the login: '${text}'`
        : 'The site showed a login form again after submitting, without success evidence',
      evidence: text ? [`error text '${text}'`, ...evidence] : ['login form present after network idle', ...evidence],
    };
  }
}
