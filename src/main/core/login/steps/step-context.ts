import type { BrowserContext, Locator, Page } from 'playwright-core';
import type { Deadline } from '../engine/deadline.js';
import { matchAdditionalFields } from '../engine/field-matcher.js';
import { FormFiller } from '../engine/form-filler.js';
import { FormFinder, type LocatedForm, type PageScan } from '../engine/form-finder.js';
import type { ScannedField } from '../engine/form-scan.js';
import type { RequestInterceptor } from '../engine/request-interceptor.js';
import type { EgressGuard } from '../engine/egress-guard.js';
import type { NetworkTracker } from '../engine/network-tracker.js';
import type { IndexedDBWriteLog } from '../engine/storage-watch.js';
import {
  OutcomeDetector,
  type Outcome,
  type OutcomePhase,
  type SessionStoredIn,
  type Snapshot,
} from '../engine/outcome-detector.js';
import { LoginFlowError, redact, safeUrl, type EngineLoginRequest, type SessionStorageState } from '../login-types.js';
import type { LogSink } from '../../logger.js';
import type { StorageExtra } from '../../../../shared/login.schema.js';

export interface StepContextDeps {
  ctx: BrowserContext;
  page: Page;
  req: EngineLoginRequest;
  deadline: Deadline;
  log: LogSink;
  steps: string[];
  net: NetworkTracker;
  /** Answers HTTP authentication challenges; absent where the DevTools protocol is not available. */
  interceptor?: RequestInterceptor;
  /** Where the login's secrets may be sent (absent outside the login engine). */
  egress?: EgressGuard;
  dialogMessages: () => string[];
  /** The IndexedDB records the login's pages wrote (absent outside the login engine). */
  indexedDBWrites?: IndexedDBWriteLog;
}

/** What a step returns: keep going with the next look at the page, or the login is complete. */
export type StepResult = { kind: 'next' } | { kind: 'done'; storageState: SessionStorageState; finalUrl: string };

/**
 * One kind of step of a login flow (identifier, password, sign-in link, ...). The flow looks at the
 * page, picks the first step that applies to what it shows, runs it, and looks again.
 */
export interface LoginStep {
  readonly name: string;
  applies(scan: PageScan, ctx: StepContext): boolean;
  run(scan: PageScan, ctx: StepContext): Promise<StepResult>;
}

/** Filling failed because the page re-rendered under us: scan again rather than give up. */
export class StaleFormError extends Error {}

/** The shared state and tools of one login attempt that every step works with. */
export class StepContext {
  readonly finder = new FormFinder();
  readonly filler: FormFiller;
  readonly detector: OutcomeDetector;
  readonly extras: Record<string, string>;
  readonly pendingExtras: Set<string>;
  readonly secrets: string[];
  /** The page asked for a second factor after a submit; a code step may answer it, else it is the failure. */
  secondFactor?: Extract<Outcome, { kind: 'failure' }>;
  /**
   * Where the login put its session beyond cookies and localStorage (a success's evidence said so):
   * captured even when the request's `include` did not ask for it, or the state would not work.
   */
  readonly sessionStoredIn = new Set<SessionStoredIn>();
  /** When the last submit began (settle() waits only for what the page started from then on). */
  private lastSubmitAt = 0;
  /** Fills whose check was deferred to the look before the submit (guardFill deferVerify). */
  private verifyPending = false;
  /** Per-step counters (identifier submits, sign-in links clicked ...), keyed by the step. */
  private readonly counters = new Map<string, number>();
  private readonly memos = new Map<string, Set<string>>();

  constructor(readonly deps: StepContextDeps) {
    const { page, ctx, deadline, req, net } = deps;
    this.filler = new FormFiller({
      page,
      deadline,
      step: (s) => this.step(s),
      typingOrigins: req.secretOrigins,
      egress: deps.egress,
    });
    this.detector = new OutcomeDetector({
      page,
      context: ctx,
      net,
      deadline,
      dialogMessages: deps.dialogMessages,
      indexedDBWrites: deps.indexedDBWrites,
      loginFormShown: async () => ((await this.finder.scan(page, { formOnly: true })).form?.candidate.score ?? 0) >= 9,
    });
    this.extras = { ...(req.additionalFields ?? {}) };
    this.pendingExtras = new Set(Object.keys(this.extras));
    this.secrets = [req.username, req.password, ...Object.values(this.extras)].filter((s) => s.length >= 2);
  }

  /** An oauth login whose page is on one of the identity provider's own origins. */
  onProvider(): boolean {
    const oauth = this.deps.req.oauth;
    if (!oauth) return false;
    try {
      return oauth.origins.includes(new URL(this.deps.page.url()).origin);
    } catch {
      return false;
    }
  }

  get page(): Page {
    return this.deps.page;
  }
  get net(): NetworkTracker {
    return this.deps.net;
  }
  get deadline(): Deadline {
    return this.deps.deadline;
  }

  /** How often `count(key)` was called, without counting. */
  counted(key: string): number {
    return this.counters.get(key) ?? 0;
  }

  count(key: string): number {
    const n = (this.counters.get(key) ?? 0) + 1;
    this.counters.set(key, n);
    return n;
  }

  /** A named set that lives as long as this login (e.g. the sign-in links already followed). */
  memo(key: string): Set<string> {
    let set = this.memos.get(key);
    if (!set) this.memos.set(key, (set = new Set()));
    return set;
  }

  step(s: string): void {
    const line = redact(s, this.secrets);
    this.deps.steps.push(line);
    this.deps.log.debug({ step: line }, 'login step');
    this.deps.req.onStep?.(line);
  }

  /** Puts what happened to HTTP authentication challenges since the last look into the step trace. */
  reportAuthChallenges(): void {
    for (const line of this.deps.interceptor?.takeReports() ?? []) this.step(line);
  }

  describeForm(form: LocatedForm): string {
    const where = form.isMainFrame ? '' : ` in iframe ${safeUrl(form.frame.url())}`;
    const c = form.candidate;
    const kind = c.kind === 'password' ? 'login form' : 'username-first (two-step) form';
    return `found ${kind}${where}${c.heading ? ` under heading '${c.heading}'` : ''} (score ${c.score})`;
  }

  async blockedOnPage(): Promise<LoginFlowError | undefined> {
    const snap = await this.detector.snapshot();
    const s = snap.signals;
    // A CAPTCHA first, as after a submit: a person can solve it, and an interstitial one may clear by itself.
    if (s.captcha)
      return new LoginFlowError('captcha_blocked', `The site shows a CAPTCHA: ${redact(s.captcha, this.secrets)}`);
    if (s.botWall)
      return new LoginFlowError(
        'bot_detected',
        `The site refused the browser as automated: '${redact(s.botWall, this.secrets)}'`,
      );
    if (s.locked) return new LoginFlowError('account_locked', `The site reports: '${redact(s.locked, this.secrets)}'`);
    return undefined;
  }

  async fillExtras(form: LocatedForm, scan: PageScan, reserved: Set<string>): Promise<void> {
    if (!this.pendingExtras.size) return;
    const frameFields = scan.pageFields.filter((p) => p.frame === form.frame).map((p) => p.field);
    const fields = [
      ...form.candidate.fields,
      ...frameFields.filter((f) => !form.candidate.fields.some((g) => g.id === f.id)),
    ];
    const done = await this.filler.fillAdditional(form.frame, fields, this.extras, [...this.pendingExtras], reserved);
    for (const k of done) this.pendingExtras.delete(k);
  }

  /** Additional-field matches of at least `minScore` among `fields` (the field an extra key names). */
  claimedByExtras(fields: ScannedField[], minScore: number): ReturnType<typeof matchAdditionalFields> {
    return matchAdditionalFields([...this.pendingExtras], fields).filter((m) => m.score >= minScore);
  }

  /**
   * Runs fill actions; a failure that is not the deadline/abort means the form went stale. With
   * `deferVerify` the check that the fills stuck runs in submitAndWait, alongside the look at the
   * page before the submit (one round trip to the page instead of two).
   */
  async guardFill(
    fill: () => Promise<void>,
    fields: ScannedField[],
    opts: { deferVerify?: boolean } = {},
  ): Promise<void> {
    if (fields.some((f) => f.inert)) {
      // Behind a modal (usually consent): accept it rather than wait for the fill to time out.
      const dismissed = await this.filler.dismissConsent().catch(() => false);
      throw new StaleFormError(dismissed ? 'consent dismissed' : 'form is inert');
    }
    try {
      await fill();
      if (opts.deferVerify) this.verifyPending = true;
      else await this.filler.verifyFills();
    } catch (err) {
      throw await this.staleForm(err);
    }
  }

  /** A fill or its check failed: forget the fills, and (deadline and abort aside) look at the page again. */
  private async staleForm(err: unknown): Promise<Error> {
    this.filler.discardFills();
    this.deadline.check();
    if (err instanceof LoginFlowError) return err;
    // Maybe a consent dialog makes the form inert; accept it so the next attempt can work.
    await this.filler.dismissConsent().catch(() => false);
    return new StaleFormError(err instanceof Error ? err.message : String(err));
  }

  /** The look before a submit, with the deferred check of the fills (see guardFill) alongside. */
  private async snapshotBeforeSubmit(watchMarker: string): Promise<Snapshot> {
    if (!this.verifyPending) return this.detector.snapshot(watchMarker);
    this.verifyPending = false;
    const [before, verified] = await Promise.all([
      this.detector.snapshot(watchMarker),
      this.filler.verifyFills().then(
        () => undefined,
        (err: unknown) => err,
      ),
    ]);
    if (verified !== undefined) throw await this.staleForm(verified);
    return before;
  }

  /** Submits (button, then Enter, then requestSubmit if nothing happened) and waits for evidence. */
  async submitAndWait(
    form: LocatedForm,
    field: Locator,
    phase: OutcomePhase,
    watchMarker: string,
    promptShown?: () => Promise<boolean>,
  ): Promise<Outcome> {
    const modes = form.candidate.submit ? (['button', 'enter', 'request'] as const) : (['enter', 'request'] as const);
    let outcome: Outcome = { kind: 'unsubmitted' };
    for (const mode of modes) {
      if (mode !== modes[0]) this.step('no reaction to the submit; trying another way');
      // Also arms the in-page error-toast observer before the submit.
      const before = await this.snapshotBeforeSubmit(watchMarker);
      const navBase = this.net.navigationCount();
      const requestBase = this.net.requestCount();
      const activityBase = this.net.activityCount();
      const submittedAt = (this.lastSubmitAt = Date.now());
      // A credentials prompt from now on answers the submitted form: cancel it, let the page tell.
      this.deps.interceptor?.markFormSubmitted();
      try {
        this.step(await this.filler.submit(form.frame, form.candidate, field, mode));
      } catch {
        // The action may still have gone through (e.g. the click landed, then the page changed).
        this.deadline.check();
        this.step(`submit by ${mode} reported an error; checking the page`);
      }
      outcome = await this.detector.waitForOutcome(before, {
        phase,
        watchMarker,
        navBase,
        requestBase,
        activityBase,
        submittedAt,
        promptShown,
      });
      this.reportAuthChallenges();
      if (outcome.kind === 'success') for (const where of outcome.storedIn ?? []) this.sessionStoredIn.add(where);
      if (outcome.kind !== 'unsubmitted') return outcome;
    }
    return outcome;
  }

  /** Where the session lives that the request's `include` did not ask for (captured all the same). */
  storageNotAsked(): SessionStoredIn[] {
    const asked = this.deps.req.include ?? [];
    return [...this.sessionStoredIn].filter((where) => !asked.includes(where));
  }

  /** What to capture: the request's `include`, plus where the login's own evidence says the session is. */
  storageToCapture(): StorageExtra[] {
    return [...(this.deps.req.include ?? []), ...this.storageNotAsked()];
  }

  failure(outcome: Extract<Outcome, { kind: 'failure' }>): LoginFlowError {
    const trace: Record<string, string> = {
      invalid_credentials: 'detected error text near form',
      captcha_blocked: 'detected a CAPTCHA',
      bot_detected: 'the site refused the browser as automated',
      account_locked: 'detected account lockout text',
      mfa_required: 'detected a second-factor prompt',
      invalid_code: 'the site rejected the code',
      no_outcome: 'the submit had no visible effect',
    };
    this.step(`${trace[outcome.reason] ?? outcome.reason}: ${outcome.evidence.join('; ')}`);
    return new LoginFlowError(outcome.reason, redact(outcome.message, this.secrets));
  }

  /**
   * After success: if requests the page started since the submit are still in flight (a redirect
   * under way, post-login XHR), let them finish (bounded) so the captured storage is complete. Strong success evidence is only
   * accepted with nothing in flight, so this normally returns at once; the 'load' event itself is
   * not awaited (slow images, ads).
   */
  async settle(): Promise<void> {
    const until = Date.now() + Math.min(3000, this.deadline.remaining() / 2);
    while (!this.net.isQuiet(0, this.lastSubmitAt) && Date.now() < until) {
      await this.net.waitForActivity(Math.min(250, until - Date.now()), 10);
      this.deadline.check();
    }
  }
}
