import type { BrowserContext, Page } from 'playwright-core';
import type { Deadline } from './deadline.js';
import { KEYWORDS } from './form-keywords.js';
import type { LoginFailureReason } from './login-types.js';
import type { NetworkTracker } from './network-tracker.js';
import { installErrorObserver, scanPageSignals, type PageSignals, type SignalArgs } from './page-signals.js';
import { nextScanId, runInFrame } from './page-script.js';

export interface Snapshot {
  url: string;
  signals: PageSignals;
  /** `${name}|${domain}|${path}` -> value; kept in memory only, never logged. */
  cookies: Map<string, { value: string; httpOnly: boolean }>;
  /** `${origin}|${key}` -> value length + checksum (values themselves are not kept). */
  storage: Map<string, string>;
  complete: boolean;
}

export type Outcome =
  | { kind: 'success'; evidence: string[] }
  | { kind: 'advanced'; evidence: string[] }
  | { kind: 'unsubmitted' }
  | { kind: 'failure'; reason: LoginFailureReason; message: string; evidence: string[] };

const AUTH_COOKIE = /sess|sid\b|^sid|auth|token|jwt|remember|login|logged|identity|access|refresh|account|user|connect\.sid/i;
const NOT_AUTH_COOKIE = /csrf|xsrf|consent|cookie_?notice|gdpr|_ga|_gid|analytics|locale|lang|theme|timezone|flash|attempt/i;
const AUTH_STORAGE = /token|auth|jwt|session|access|refresh|credential|id_?token|bearer|user/i;

function checksum(v: string): string {
  let h = 0;
  for (let i = 0; i < v.length; i++) h = (h * 31 + v.charCodeAt(i)) | 0;
  return `${v.length}:${h}`;
}

function storageProbe(): Array<[string, string, string]> {
  // In-page (serialized): no references to module scope.
  try {
    const out: Array<[string, string, string]> = [];
    for (let i = 0; i < localStorage.length; i++) {
      const k = localStorage.key(i);
      if (k !== null) out.push([location.origin, k, localStorage.getItem(k) ?? '']);
    }
    return out;
  } catch {
    return [];
  }
}

export interface DetectorDeps {
  page: Page;
  context: BrowserContext;
  net: NetworkTracker;
  deadline: Deadline;
  /** Texts of JS alert()/confirm() dialogs seen so far (old sites report errors that way). */
  dialogMessages?: () => string[];
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
    const results = await Promise.all(frames.map((f) => runInFrame(f, scanPageSignals, args, scanId)));
    const storages = await Promise.all(
      frames.map(async (f) => (await runInFrame(f, storageProbe, {}, scanId)) ?? ([] as Array<[string, string, string]>)),
    );
    const merged: PageSignals = {
      url: page.url(), captcha: null, locked: null, otpInputs: 0, mfaText: null, messages: [], observed: [],
      loginPasswords: 0, watchedState: 'absent', invalidFields: [], bodyTextLength: 0,
    };
    const rank = { absent: 0, hidden: 1, 'visible-empty': 2, 'visible-filled': 3 } as const;
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
    }
    const cookies = new Map<string, { value: string; httpOnly: boolean }>();
    for (const c of await context.cookies().catch(() => [])) cookies.set(`${c.name}|${c.domain}|${c.path}`, { value: c.value, httpOnly: c.httpOnly });
    const storage = new Map<string, string>();
    for (const list of storages) for (const [origin, key, value] of list) storage.set(`${origin}|${key}`, checksum(value));
    merged.observed.push(...(this.deps.dialogMessages?.() ?? []));
    return { url: page.url(), signals: merged, cookies, storage, complete: results[0] !== undefined };
  }

  /** Records transient error toasts from now on (per document; re-armed on each poll). */
  async armObservers(): Promise<void> {
    const scanId = nextScanId();
    await Promise.all(this.deps.page.frames().map((f) => runInFrame(f, installErrorObserver, {}, scanId)));
  }

  authCookieChanges(before: Snapshot, after: Snapshot): string[] {
    const out: string[] = [];
    for (const [key, c] of after.cookies) {
      const name = key.split('|')[0];
      const prev = before.cookies.get(key);
      if (prev && prev.value === c.value) continue;
      if (NOT_AUTH_COOKIE.test(name)) continue;
      if (AUTH_COOKIE.test(name) || (c.httpOnly && !prev)) out.push(name);
    }
    return out;
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

  /** Blocked states first: CAPTCHA, lockout, MFA. */
  private blocked(before: Snapshot, after: Snapshot): Outcome | undefined {
    const s = after.signals;
    // A CAPTCHA counts when it is new, or the login UI is still up behind it (not on a dashboard).
    const loginUiUp = s.loginPasswords > 0 || s.watchedState === 'visible-filled' || s.watchedState === 'visible-empty';
    if (s.captcha && (!before.signals.captcha || loginUiUp)) return { kind: 'failure', reason: 'captcha_blocked', message: `The site shows a CAPTCHA: ${s.captcha}`, evidence: [s.captcha] };
    const lockedRe = new RegExp(KEYWORDS.locked, 'i');
    const newObserved = s.observed.filter((m) => !before.signals.observed.includes(m));
    s.locked ??= newObserved.find((m) => lockedRe.test(m)) ?? null;
    if (s.locked && !before.signals.messages.includes(s.locked)) {
      return { kind: 'failure', reason: 'account_locked', message: `The site reports the account as locked or rate-limited: '${s.locked}'`, evidence: [s.locked] };
    }
    const otpAppeared = s.otpInputs > before.signals.otpInputs || (s.otpInputs > 0 && s.loginPasswords === 0);
    if (otpAppeared || (s.mfaText && s.mfaText !== before.signals.mfaText)) {
      const what = s.mfaText ? `'${s.mfaText}'` : 'a one-time-code field';
      return { kind: 'failure', reason: 'mfa_required', message: `The site asks for a second factor: ${what}`, evidence: [what] };
    }
    return undefined;
  }

  /**
   * Polls evidence until the result is clear. `phase: 'password'` decides success/failure of the
   * final submit; `phase: 'identifier'` only decides whether the flow advanced (e.g. a password
   * field appeared) or the identifier was rejected.
   */
  async waitForOutcome(
    before: Snapshot,
    opts: { phase: 'password' | 'identifier'; watchMarker?: string; navBase: number; requestBase: number },
  ): Promise<Outcome> {
    const { net, deadline } = this.deps;
    const start = Date.now();
    let candidateSince: number | undefined;
    for (;;) {
      deadline.check();
      await this.armObservers();
      const after = await this.snapshot(opts.watchMarker);
      const elapsed = Date.now() - start;
      if (!after.complete) {
        await deadline.pause(150);
        continue;
      }
      const s = after.signals;
      const blocked = this.blocked(before, after);
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
        if (!stillThere && net.isSettled(400, start) && elapsed > 300) return { kind: 'advanced', evidence: ['identifier step left', ...evidence] };
        if (net.isSettled(1200, start) && elapsed > 1500 && net.msSinceNavigation() > 800) {
          return s.watchedState === 'visible-filled' && noTraffic ? { kind: 'unsubmitted' } : { kind: 'advanced', evidence };
        }
      } else {
        const formGone = s.loginPasswords === 0;
        if (fresh.length && (!formGone || strong.length)) return this.invalid((strong[0] ?? fresh[0]), evidence);
        if (formGone && net.isSettled(400, start) && (navigated || cookies.length || storage.length || elapsed > 1500)) {
          candidateSince ??= Date.now();
          // Two consecutive observations, so a redirect's intermediate blank page is not taken for success.
          if (Date.now() - candidateSince >= 300) return { kind: 'success', evidence: ['password field gone', ...evidence] };
        } else {
          candidateSince = undefined;
        }
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
      await deadline.pause(200);
    }
  }

  private invalid(text: string | null, evidence: string[]): Outcome {
    return {
      kind: 'failure',
      reason: 'invalid_credentials',
      message: text ? `The site rejected the login: '${text}'` : 'The login form is still shown after submitting and no success evidence appeared',
      evidence: text ? [`error text '${text}'`, ...evidence] : ['login form still present after network idle', ...evidence],
    };
  }
}
