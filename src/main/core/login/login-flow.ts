import type { BrowserContext, Dialog, Frame, Locator, Page } from 'playwright-core';
import type { Deadline } from './deadline.js';
import { matchAdditionalFields } from './field-matcher.js';
import { FormFiller } from './form-filler.js';
import { FormFinder, markedLocator, type LocatedForm, type PageScan } from './form-finder.js';
import type { ScannedField } from './form-scan.js';
import {
  LoginFlowError,
  redact,
  safeUrl,
  type LoginRequest,
  type Logger,
  type SessionStorageState,
} from './login-types.js';
import { NetworkTracker } from './network-tracker.js';
import { OutcomeDetector, type Outcome } from './outcome-detector.js';
import { answerStayPrompt } from './post-login.js';
import { captureStorageState } from './storage-capture.js';

const MAX_STEPS = 10;
const MAX_SIGNIN_CLICKS = 3;
const MAX_IDENTIFIER_SUBMITS = 2;

export interface LoginFlowDeps {
  ctx: BrowserContext;
  page: Page;
  req: LoginRequest;
  deadline: Deadline;
  log: Logger;
  steps: string[];
}

/** Net errors that mean the site cannot be reached at all. */
export function unreachableCode(message: string): string | undefined {
  const code =
    /net::(ERR_[A-Z_]+)/.exec(message)?.[1] ?? /\b(ECONNREFUSED|ENOTFOUND|EAI_AGAIN|ECONNRESET)\b/.exec(message)?.[1];
  // ERR_ABORTED: the navigation was replaced (JS redirect) or became a download: the site answered.
  return code === 'ERR_ABORTED' ? undefined : code;
}

/** Filling failed because the page re-rendered under us: scan again rather than give up. */
class StaleFormError extends Error {}

/** One login attempt on one page: open, find the form (following sign-in links, two steps), submit, judge. */
export class LoginFlow {
  private readonly net: NetworkTracker;
  private readonly finder = new FormFinder();
  private readonly filler: FormFiller;
  private readonly detector: OutcomeDetector;
  private readonly extras: Record<string, string>;
  private readonly pendingExtras: Set<string>;
  private readonly secrets: string[];
  private readonly reportedRejections = new Set<string>();
  private readonly dialogMessages: string[] = [];
  /** alert()/confirm() would block the page; record the text (it may be the error) and close it. */
  private readonly onDialog = (dialog: Dialog): void => {
    const text = dialog.message().replace(/\s+/g, ' ').trim().slice(0, 240);
    if (text) this.dialogMessages.push(text);
    const close = dialog.type() === 'beforeunload' ? dialog.accept() : dialog.dismiss();
    close.catch(() => {});
  };

  constructor(private readonly deps: LoginFlowDeps) {
    const { page, ctx, deadline, req } = deps;
    this.net = new NetworkTracker(page);
    this.filler = new FormFiller({ page, deadline, step: (s) => this.step(s) });
    this.detector = new OutcomeDetector({
      page,
      context: ctx,
      net: this.net,
      deadline,
      dialogMessages: () => [...this.dialogMessages],
      loginFormShown: async () => ((await this.finder.scan(page)).form?.candidate.score ?? 0) >= 9,
    });
    page.on('dialog', this.onDialog);
    this.extras = { ...(req.additionalFields ?? {}) };
    this.pendingExtras = new Set(Object.keys(this.extras));
    this.secrets = [req.username, req.password, ...Object.values(this.extras)].filter((s) => s.length >= 2);
  }

  step(s: string): void {
    const line = redact(s, this.secrets);
    this.deps.steps.push(line);
    this.deps.log.debug({ step: line }, 'login step');
  }

  dispose(): void {
    this.deps.page.off('dialog', this.onDialog);
    this.net.dispose();
  }

  async run(): Promise<{ storageState: SessionStorageState; finalUrl: string }> {
    await this.open();
    const clicked = new Set<string>();
    let identifierSubmits = 0;
    let staleForms = 0;
    for (let i = 0; i < MAX_STEPS; i++) {
      const scan = await this.waitForLoginUi();
      this.reportRejections(scan);
      const form = scan.form;
      try {
        if (form?.candidate.kind === 'password') return await this.passwordStep(form, scan);
        if (form?.candidate.kind === 'identifier') {
          if (++identifierSubmits > MAX_IDENTIFIER_SUBMITS) {
            throw new LoginFlowError(
              'login_form_not_found',
              'No password field appeared after submitting the username step',
            );
          }
          await this.identifierStep(form, scan);
          continue;
        }
      } catch (err) {
        if (!(err instanceof StaleFormError)) throw err;
        if (++staleForms > 2)
          throw new LoginFlowError('login_form_not_found', 'The login form kept changing while it was being filled');
        this.step('the form changed while being filled; looking again');
        continue;
      }
      const key = (b: { text: string; isLink: boolean; hiddenHref?: string }): string =>
        `${b.text}|${b.isLink}|${b.hiddenHref ?? ''}`;
      const link = scan.signInLinks.find((l) => !clicked.has(key(l.button)));
      if (link && clicked.size < MAX_SIGNIN_CLICKS) {
        clicked.add(key(link.button));
        if (link.button.hiddenHref) await this.followHiddenLink(link.button.hiddenHref, link.button.text);
        else await this.clickSignIn(link.frame, link.button.id, link.button.text, link.button.isLink);
        continue;
      }
      const blocked = await this.blockedOnPage();
      if (blocked) throw blocked;
      throw new LoginFlowError(
        'login_form_not_found',
        clicked.size
          ? 'No login form found, also after following sign-in links'
          : 'No login form or sign-in link found on the page',
      );
    }
    throw new LoginFlowError('login_form_not_found', `No login completed within ${MAX_STEPS} steps`);
  }

  private async open(): Promise<void> {
    const { page, req, deadline } = this.deps;
    let url: URL;
    try {
      url = new URL(req.url);
    } catch {
      throw new LoginFlowError('site_unreachable', 'The login URL is not a valid absolute URL');
    }
    if (!/^https?:$/.test(url.protocol))
      throw new LoginFlowError('site_unreachable', 'The login URL must use http or https');
    let status: number | undefined;
    try {
      const resp = await page.goto(url.href, { waitUntil: 'domcontentloaded', timeout: deadline.cap(30_000) });
      status = resp?.status();
      if (status === 401 && resp?.headers()['www-authenticate']) {
        throw new LoginFlowError(
          'login_form_not_found',
          'The site uses HTTP authentication (a browser credentials prompt), not a login form; this is not supported',
        );
      }
    } catch (err) {
      deadline.check();
      if (err instanceof LoginFlowError) throw err;
      const message = err instanceof Error ? err.message : String(err);
      const code = unreachableCode(message);
      if (code) throw new LoginFlowError('site_unreachable', `Could not reach ${url.host}: ${code}`);
      if (page.url() === 'about:blank') throw new LoginFlowError('site_unreachable', `No response from ${url.host}`);
      this.step('login page is slow to load; continuing with what has rendered');
    }
    if (page.url().startsWith('chrome-error:'))
      throw new LoginFlowError('site_unreachable', `Could not reach ${url.host}`);
    if (status !== undefined && status >= 500) {
      throw new LoginFlowError('site_unreachable', `The login page answered HTTP ${status}`);
    }
    this.step(`opened login page ${safeUrl(page.url())}${status ? ` (HTTP ${status})` : ''}`);
  }

  /** Looks at the page (on activity, at least every 250 ms) until a login UI is present or the page has settled without one. */
  private async waitForLoginUi(): Promise<PageScan> {
    const { page, deadline } = this.deps;
    const start = Date.now();
    let identifierSince: number | undefined;
    let consentTried = false;
    for (;;) {
      deadline.check();
      const scan = await this.finder.scan(page);
      const now = Date.now();
      const kind = scan.form?.candidate.kind;
      if (kind === 'password') return scan;
      if (kind === 'identifier') {
        // Give a password field that renders a moment later the chance to show up.
        identifierSince ??= now;
        if (this.net.isQuiet(500) || now - identifierSince > 2500) return scan;
      } else {
        identifierSince = undefined;
        if (this.net.isSettled(800, start) && now - start > 1000) {
          // A consent dialog may hide or disable the page behind it: accept it once and look again.
          if (!consentTried) {
            consentTried = true;
            if (await this.filler.dismissConsent()) continue;
          }
          // A CAPTCHA interstitial may clear by itself (non-interactive challenges): wait a while.
          const blocked = now - start < 10_000 ? await this.blockedOnPage() : undefined;
          if (!blocked || blocked.reason !== 'captcha_blocked') return scan;
        }
        if (now - start > 15_000) return scan;
      }
      await this.net.waitForActivity(Math.min(250, deadline.remaining()), 30);
    }
  }

  private async blockedOnPage(): Promise<LoginFlowError | undefined> {
    const snap = await this.detector.snapshot();
    const s = snap.signals;
    if (s.captcha)
      return new LoginFlowError('captcha_blocked', `The site shows a CAPTCHA: ${redact(s.captcha, this.secrets)}`);
    if (s.locked) return new LoginFlowError('account_locked', `The site reports: '${redact(s.locked, this.secrets)}'`);
    return undefined;
  }

  private reportRejections(scan: PageScan): void {
    for (const r of scan.rejected) {
      if (this.reportedRejections.has(r)) continue;
      this.reportedRejections.add(r);
      this.step(r);
    }
  }

  private async clickSignIn(frame: Frame, id: string, text: string, isLink: boolean): Promise<void> {
    const loc = markedLocator(frame, id);
    // Keep the flow in this tab: a sign-in link with target=_blank would open a page we do not watch.
    await loc.evaluate((el) => el.closest('a')?.removeAttribute('target')).catch(() => {});
    await this.filler.click(loc);
    // No waiting here: waitForLoginUi polls until a form shows up or the page settles.
    this.step(`clicked '${text}' ${isLink ? 'link' : 'button'}`);
  }

  /** A sign-in link exists but sits in a collapsed menu: go where it points. */
  private async followHiddenLink(href: string, text: string): Promise<void> {
    const { page, deadline } = this.deps;
    try {
      await page.goto(href, { waitUntil: 'domcontentloaded', timeout: deadline.cap(30_000) });
    } catch (err) {
      deadline.check();
      const code = unreachableCode(err instanceof Error ? err.message : String(err));
      if (code) throw new LoginFlowError('site_unreachable', `Could not open the sign-in page: ${code}`);
    }
    this.step(`followed hidden '${text}' link to ${safeUrl(page.url())}`);
  }

  private describeForm(form: LocatedForm): string {
    const where = form.isMainFrame ? '' : ` in iframe ${safeUrl(form.frame.url())}`;
    const c = form.candidate;
    const kind = c.kind === 'password' ? 'login form' : 'username-first (two-step) form';
    return `found ${kind}${where}${c.heading ? ` under heading '${c.heading}'` : ''} (score ${c.score})`;
  }

  /** Picks the username field, skipping one that an additional field key names exactly. */
  private pickUsername(form: LocatedForm): ScannedField | undefined {
    const candidates = form.candidate.usernameCandidates.filter((f) => f.score > 0 && f.editable);
    const claimed = new Set(
      matchAdditionalFields([...this.pendingExtras], candidates)
        .filter((m) => m.score >= 100 && !/username|email/.test(m.field.autocomplete))
        .map((m) => m.field.id),
    );
    return candidates.find((f) => !claimed.has(f.id));
  }

  private async fillExtras(form: LocatedForm, scan: PageScan, reserved: Set<string>): Promise<void> {
    if (!this.pendingExtras.size) return;
    const frameFields = scan.pageFields.filter((p) => p.frame === form.frame).map((p) => p.field);
    const fields = [
      ...form.candidate.fields,
      ...frameFields.filter((f) => !form.candidate.fields.some((g) => g.id === f.id)),
    ];
    const done = await this.filler.fillAdditional(form.frame, fields, this.extras, [...this.pendingExtras], reserved);
    for (const k of done) this.pendingExtras.delete(k);
  }

  private async identifierStep(form: LocatedForm, scan: PageScan): Promise<void> {
    const c = form.candidate;
    const field = c.usernameCandidates[0];
    this.step(this.describeForm(form));
    const loc = markedLocator(form.frame, field.id);
    // A first step may ask for an additional field instead (workspace, tenant, company ...).
    const preStep = /username|email/.test(field.autocomplete)
      ? undefined
      : matchAdditionalFields([...this.pendingExtras], [field]).find((m) => m.score >= 70);
    await this.guardFill(async () => {
      if (preStep) {
        await this.filler.fillText(form.frame, field.id, this.extras[preStep.key]);
        this.pendingExtras.delete(preStep.key);
        this.step(`filled additional field '${preStep.key}' (first step)`);
      } else {
        await this.filler.fillText(form.frame, field.id, this.deps.req.username);
        this.step('filled username');
      }
      await this.fillExtras(form, scan, new Set([field.id]));
    }, [field]);
    const outcome = await this.submitAndWait(form, loc, 'identifier', field.id);
    if (outcome.kind === 'failure') throw this.failure(outcome);
    if (outcome.kind === 'unsubmitted')
      throw new LoginFlowError('login_form_not_found', 'The username step could not be submitted');
    this.step(
      `username step done (${outcome.kind === 'advanced' && outcome.evidence.length ? outcome.evidence.join('; ') : 'page changed'})`,
    );
  }

  private async passwordStep(
    form: LocatedForm,
    scan: PageScan,
  ): Promise<{ storageState: SessionStorageState; finalUrl: string }> {
    const c = form.candidate;
    const pw = c.password!;
    this.step(this.describeForm(form));
    const user = this.pickUsername(form);
    const pwLoc = markedLocator(form.frame, pw.id);
    await this.guardFill(
      async () => {
        if (user) {
          await this.filler.fillText(form.frame, user.id, this.deps.req.username);
          this.step(
            `filled username (${user.kind} field '${user.label || user.name || user.htmlId || user.placeholder || 'unnamed'}')`,
          );
        } else {
          this.step('no username field on this step; filling the password only');
        }
        await this.filler.fillText(form.frame, pw.id, this.deps.req.password);
        this.step('filled password');
        await this.fillExtras(form, scan, new Set([pw.id, ...(user ? [user.id] : [])]));
      },
      user ? [pw, user] : [pw],
    );
    for (const k of this.pendingExtras) this.step(`additional field '${k}' not found on the page`);
    this.pendingExtras.clear();

    const outcome = await this.submitAndWait(form, pwLoc, 'password', pw.id);
    if (outcome.kind === 'failure') throw this.failure(outcome);
    if (outcome.kind !== 'success') {
      throw new LoginFlowError(
        'invalid_credentials',
        'Submitting the login form had no visible effect (no navigation, request or message)',
      );
    }
    this.step(`login succeeded (${outcome.evidence.join('; ')})`);
    await this.settle();
    await answerStayPrompt({
      ...this.deps,
      net: this.net,
      filler: this.filler,
      step: (s) => this.step(s),
      settle: () => this.settle(),
    });
    const storageState = await captureStorageState(this.deps.ctx, this.deps.page);
    const withStorage = storageState.origins.filter((o) => o.localStorage.length).length;
    this.step(`captured ${storageState.cookies.length} cookie(s) and localStorage of ${withStorage} origin(s)`);
    return { storageState, finalUrl: this.deps.page.url() };
  }

  /** Runs fill actions; a failure that is not the deadline/abort means the form went stale. */
  private async guardFill(fill: () => Promise<void>, fields: ScannedField[]): Promise<void> {
    if (fields.some((f) => f.inert)) {
      // Behind a modal (usually consent): accept it rather than wait for the fill to time out.
      const dismissed = await this.filler.dismissConsent().catch(() => false);
      throw new StaleFormError(dismissed ? 'consent dismissed' : 'form is inert');
    }
    try {
      await fill();
      await this.filler.verifyFills();
    } catch (err) {
      this.filler.discardFills();
      this.deps.deadline.check();
      if (err instanceof LoginFlowError) throw err;
      // Maybe a consent dialog makes the form inert; accept it so the next attempt can work.
      await this.filler.dismissConsent().catch(() => false);
      throw new StaleFormError(err instanceof Error ? err.message : String(err));
    }
  }

  /** Submits (button, then Enter, then requestSubmit if nothing happened) and waits for evidence. */
  private async submitAndWait(
    form: LocatedForm,
    field: Locator,
    phase: 'password' | 'identifier',
    watchMarker: string,
  ): Promise<Outcome> {
    const modes = form.candidate.submit ? (['button', 'enter', 'request'] as const) : (['enter', 'request'] as const);
    let outcome: Outcome = { kind: 'unsubmitted' };
    for (const mode of modes) {
      if (mode !== modes[0]) this.step('no reaction to the submit; trying another way');
      // Also arms the in-page error-toast observer before the submit.
      const before = await this.detector.snapshot(watchMarker);
      const navBase = this.net.navigationCount();
      const requestBase = this.net.requestCount();
      try {
        this.step(await this.filler.submit(form.frame, form.candidate, field, mode));
      } catch {
        // The action may still have gone through (e.g. the click landed, then the page changed).
        this.deps.deadline.check();
        this.step(`submit by ${mode} reported an error; checking the page`);
      }
      outcome = await this.detector.waitForOutcome(before, { phase, watchMarker, navBase, requestBase });
      if (outcome.kind !== 'unsubmitted') return outcome;
    }
    return outcome;
  }

  private failure(outcome: Extract<Outcome, { kind: 'failure' }>): LoginFlowError {
    const trace: Record<string, string> = {
      invalid_credentials: 'detected error text near form',
      captcha_blocked: 'detected a CAPTCHA',
      account_locked: 'detected account lockout text',
      mfa_required: 'detected a second-factor prompt',
    };
    this.step(`${trace[outcome.reason] ?? outcome.reason}: ${outcome.evidence.join('; ')}`);
    return new LoginFlowError(outcome.reason, redact(outcome.message, this.secrets));
  }

  /**
   * After success: if requests are still in flight (a redirect under way, post-login XHR), let
   * them finish (bounded) so the captured storage is complete. Strong success evidence is only
   * accepted with nothing in flight, so this normally returns at once; the 'load' event itself is
   * not awaited (slow images, ads).
   */
  private async settle(): Promise<void> {
    const { deadline } = this.deps;
    const until = Date.now() + Math.min(3000, deadline.remaining() / 2);
    while (!this.net.isQuiet(0) && Date.now() < until) {
      await this.net.waitForActivity(Math.min(250, until - Date.now()), 10);
      deadline.check();
    }
  }
}
