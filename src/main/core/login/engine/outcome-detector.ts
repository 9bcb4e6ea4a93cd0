import type { BrowserContext, Cookie, Page } from 'playwright-core';
import { isAuthCookie } from '../auth-cookies.js';
import type { Deadline } from './deadline.js';
import { KEYWORDS } from './form-keywords.js';
import type { LoginFailureReason } from '../../../../shared/errors.js';
import type { NetworkTracker } from './network-tracker.js';
import { scanPageSignals, type PageSignals, type SignalArgs } from './page-signals.js';
import { nextScanId, runInFrame } from './page-script.js';

export interface Snapshot {
  url: string;
  signals: PageSignals;
  /** `${name}|${domain}|${path}` -> value; kept in memory only, never logged. */
  cookies: Map<string, { value: string; httpOnly: boolean }>;
  /** `${origin}|${key}` -> value length + checksum (values themselves are not kept). */
  storage: Map<string, string>;
  complete: boolean;
  /** document.readyState of the main frame. */
  readyState: string;
}

/** What the look that found a success saw, so the steps after it need not look again. */
export interface SuccessPage {
  /** The page could be a stay-signed-in interstitial (PageSignals.stayPrompt). */
  stayPrompt: boolean;
  /** NetworkTracker.navigationCount() at that look: the page is the same document while it is unchanged. */
  navigation: number;
}

export type Outcome =
  | { kind: 'success'; evidence: string[]; page?: SuccessPage }
  | { kind: 'advanced'; evidence: string[] }
  | { kind: 'unsubmitted' }
  | { kind: 'failure'; reason: LoginFailureReason; message: string; evidence: string[] };

const AUTH_STORAGE = /token|auth|jwt|session|access|refresh|credential|id_?token|bearer|user/i;

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

export type OutcomePhase = 'password' | 'identifier' | 'code' | 'link';

export interface DetectorDeps {
  page: Page;
  context: BrowserContext;
  net: NetworkTracker;
  deadline: Deadline;
  /** Texts of JS alert()/confirm() dialogs seen so far (old sites report errors that way). */
  dialogMessages?: () => string[];
  /** True when the page shows a login (or username-first) form again. */
  loginFormShown?: () => Promise<boolean>;
}

export type CookieMap = Snapshot['cookies'];

export function cookieMap(cookies: readonly Cookie[]): CookieMap {
  const out: CookieMap = new Map();
  for (const c of cookies) out.set(`${c.name}|${c.domain}|${c.path}`, { value: c.value, httpOnly: c.httpOnly });
  return out;
}

/** Names of auth cookies (../auth-cookies.ts) that are new in `after` or have another value there (also used by interactive logins). */
export function changedAuthCookies(before: CookieMap, after: CookieMap): string[] {
  const out: string[] = [];
  for (const [key, c] of after) {
    const name = key.split('|')[0];
    const prev = before.get(key);
    if (prev && prev.value === c.value) continue;
    // A new HttpOnly cookie of any name counts; one that only changed its value needs an auth-like name.
    if (isAuthCookie(name, c.httpOnly && !prev)) out.push(name);
  }
  return out;
}

/** Collects evidence after a submit and decides what happened, blocked states first. */
export class OutcomeDetector {
  private readonly error = new RegExp(KEYWORDS.error, 'i');
  private readonly strongError = new RegExp(KEYWORDS.strongError, 'i');

  constructor(private readonly deps: DetectorDeps) {}

  async snapshot(watchMarker?: string): Promise<Snapshot> {
    const { page, context } = this.deps;
    const scanId = nextScanId();
    const frames = page.frames();
    const args: SignalArgs = { watchMarker };
    // One round trip per frame (signals, error observer, storage checksums), cookies in parallel.
    const [results, allCookies] = await Promise.all([
      Promise.all(frames.map((f) => runInFrame(f, scanPageSignals, args, scanId))),
      context.cookies().catch(() => []),
    ]);
    const merged: PageSignals = {
      url: page.url(),
      captcha: null,
      locked: null,
      otpInputs: 0,
      mfaText: null,
      messages: [],
      observed: [],
      loginPasswords: 0,
      watchedState: 'absent',
      invalidFields: [],
      bodyTextLength: 0,
      readyState: 'loading',
      leavingSinceMs: null,
      bridge: false,
      stayPrompt: false,
      storage: [],
    };
    const rank = { absent: 0, hidden: 1, 'visible-empty': 2, 'visible-filled': 3 } as const;
    const storage = new Map<string, string>();
    for (const s of results) {
      if (!s) continue;
      merged.captcha ??= s.captcha;
      merged.locked ??= s.locked;
      merged.mfaText ??= s.mfaText;
      merged.otpInputs += s.otpInputs;
      merged.loginPasswords += s.loginPasswords;
      merged.messages.push(...s.messages);
      merged.observed.push(...s.observed);
      merged.invalidFields.push(...s.invalidFields);
      merged.bodyTextLength += s.bodyTextLength;
      if (rank[s.watchedState] > rank[merged.watchedState]) merged.watchedState = s.watchedState;
      for (const [origin, key, sum] of s.storage) storage.set(`${origin}|${key}`, sum);
    }
    const cookies = cookieMap(allCookies);
    merged.observed.push(...(this.deps.dialogMessages?.() ?? []));
    const main = results[0];
    merged.readyState = main?.readyState ?? 'loading';
    merged.leavingSinceMs = main?.leavingSinceMs ?? null;
    merged.bridge = main?.bridge ?? false;
    merged.stayPrompt = main?.stayPrompt ?? true;
    return {
      url: page.url(),
      signals: merged,
      cookies,
      storage,
      complete: main !== undefined,
      readyState: merged.readyState,
    };
  }

  authCookieChanges(before: Snapshot, after: Snapshot): string[] {
    return changedAuthCookies(before.cookies, after.cookies);
  }

  authStorageChanges(before: Snapshot, after: Snapshot): string[] {
    const out: string[] = [];
    for (const [key, sum] of after.storage) {
      const name = key.slice(key.indexOf('|') + 1);
      if (before.storage.get(key) !== sum && AUTH_STORAGE.test(name)) out.push(name);
    }
    return out;
  }

  private newMessages(before: Snapshot, after: Snapshot): string[] {
    const seen = new Set([...before.signals.messages, ...before.signals.observed]);
    return [...new Set([...after.signals.messages, ...after.signals.observed])].filter((m) => !seen.has(m));
  }

  /** Blocked states first: CAPTCHA, lockout, MFA (not after a code or link: that was the second factor). */
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
    const lockedRe = new RegExp(KEYWORDS.locked, 'i');
    const newObserved = s.observed.filter((m) => !before.signals.observed.includes(m));
    s.locked ??= newObserved.find((m) => lockedRe.test(m)) ?? null;
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
    },
  ): Promise<Outcome> {
    const { net, deadline } = this.deps;
    const start = Date.now();
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
        opts.phase === 'password' && formSeenOnNav !== lookNav && net.isQuiet(0) ? this.loginFormShown() : undefined;
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
      const cookies = this.authCookieChanges(before, after);
      const storage = this.authStorageChanges(before, after);
      const evidence = [
        ...(navigated ? [`url changed to ${new URL(after.url).pathname}`] : []),
        ...(cookies.length ? [`new auth cookie(s): ${cookies.join(', ')}`] : []),
        ...(storage.length ? [`new auth storage key(s): ${storage.join(', ')}`] : []),
      ];

      if (opts.phase === 'identifier') {
        if (s.loginPasswords > 0) return { kind: 'advanced', evidence: ['password field appeared', ...evidence] };
        const stillThere = s.watchedState === 'visible-filled' || s.watchedState === 'visible-empty';
        // An error after the username step (same page or a re-rendered one) rejects the identifier.
        if (fresh.length) return this.invalid(strong[0] ?? fresh[0], evidence);
        if (!stillThere && net.isSettled(400, start) && elapsed > 300)
          return { kind: 'advanced', evidence: ['identifier step left', ...evidence] };
        if (net.isSettled(1200, start) && elapsed > 1500 && net.msSinceNavigation() > 800) {
          return s.watchedState === 'visible-filled' && noTraffic
            ? { kind: 'unsubmitted' }
            : { kind: 'advanced', evidence };
        }
        continue;
      }

      const codeUp = s.watchedState === 'visible-filled' || s.watchedState === 'visible-empty' || s.otpInputs > 0;
      const formGone = opts.phase === 'code' ? !codeUp : s.loginPasswords === 0;
      if (fresh.length && (!formGone || strong.length || opts.phase !== 'password'))
        return this.invalid(strong[0] ?? fresh[0], evidence);
      // A document that just committed is empty until parsed: that is no evidence of anything.
      const docReady = (after.readyState !== 'loading' || net.msSinceNavigation() > 8000) && !net.documentPending();
      const strongEvidence = cookies.length > 0 || storage.length > 0;
      if (formGone && docReady && (strongEvidence || navigated || elapsed > 1500)) {
        // Seen on the same document twice, so a redirect's intermediate page is not taken for success.
        if (!candidate || candidate.nav !== net.navigationCount())
          candidate = { since: now, nav: net.navigationCount() };
        const seen = now - candidate.since;
        let ready: boolean;
        if (strongEvidence) {
          const leaving = s.leavingSinceMs !== null && s.leavingSinceMs < STRONG.LEAVING_MS;
          // A hand-over page may move on by a timer: give it BRIDGE_MS on the same document.
          const loaded =
            after.readyState === 'complete' && !leaving && net.isQuiet(0) && (!s.bridge || seen >= STRONG.BRIDGE_MS);
          if (s.bridge && !leaving) wait = Math.max(MIN_GAP_MS, STRONG.BRIDGE_MS - seen);
          ready = loaded || seen >= (leaving ? STRONG.LEAVING_PATIENCE_MS : STRONG.PATIENCE_MS);
        } else {
          ready = seen >= WEAK.CONFIRM_MS && net.isSettled(WEAK.QUIET_MS, start);
          wait = Math.max(WEAK.CONFIRM_MS - seen, net.msUntilQuiet(WEAK.QUIET_MS), MIN_GAP_MS);
        }
        wait = Math.min(wait, POLL_MS);
        if (ready) {
          // Second look. Sent back to the start of a (two-step) login without a clear message: not a success.
          const nav = confirming ? lookNav : net.navigationCount();
          const secondLook =
            opts.phase === 'code' && opts.promptShown
              ? Promise.all([opts.promptShown(), this.loginFormShown()]).then(([a, b]) => a || b)
              : (confirming ?? this.loginFormShown());
          if (await secondLook) return this.invalid(fresh[0] ?? null, ['back at a login form', ...evidence]);
          if (nav === net.navigationCount() && !net.documentPending())
            return {
              kind: 'success',
              evidence: ['password field gone', ...evidence],
              page: { stayPrompt: s.stayPrompt, navigation: lookNav },
            };
          candidate = undefined; // the page moved on meanwhile: judge the next document
        }
        continue;
      }
      candidate = undefined;
      if (!formGone && net.isSettled(1200, start) && elapsed > 1500 && net.msSinceNavigation() > 1000) {
        if (storage.length) return { kind: 'success', evidence: ['login form still visible', ...evidence] };
        const untouched = s.watchedState === 'visible-filled' && noTraffic;
        if (untouched && s.invalidFields.length) {
          return {
            kind: 'failure',
            reason: 'invalid_credentials',
            message: `The form could not be submitted; required or invalid fields: ${s.invalidFields.join(', ')} (pass them in additionalFields)`,
            evidence: ['native form validation blocked submit'],
          };
        }
        if (untouched) return { kind: 'unsubmitted' };
        return this.invalid(null, evidence);
      }
    }
  }

  private loginFormShown(): Promise<boolean> {
    return (this.deps.loginFormShown?.() ?? Promise.resolve(false)).catch(() => false);
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
