import type { BrowserContext, Dialog, Page } from 'playwright-core';
import type { Deadline } from '../engine/deadline.js';
import type { PageScan } from '../engine/form-finder.js';
import type { RequestInterceptor } from '../engine/request-interceptor.js';
import type { EgressGuard } from '../engine/egress-guard.js';
import { unreachableCode } from '../engine/net-errors.js';
import { lastActiveAt, pageActivity } from '../engine/page-activity.js';
import type { SessionStoredIn } from '../engine/outcome-detector.js';
import { NetworkTracker } from '../engine/network-tracker.js';
import type { IndexedDBWriteLog } from '../engine/storage-watch.js';
import type { LogSink } from '../../logger.js';
import { LoginFlowError, safeUrl, type EngineLoginRequest, type SessionStorageState } from '../login-types.js';
import { httpAuthStep } from '../steps/http-auth.step.js';
import { codeStep } from '../steps/code.step.js';
import { identifierStep } from '../steps/identifier.step.js';
import { linkStep } from '../steps/link.step.js';
import {
  idpButtonStep,
  noteOauthPage,
  onlyOnProvider,
  providerChoiceStep,
  returnedFromProviderStep,
  unexpectedInPopupStep,
  unexpectedProviderStep,
} from '../steps/oauth.steps.js';
import { passkeySteps, type PasskeyLogin } from '../steps/passkey.step.js';
import { passwordStep } from '../steps/password.step.js';
import { followedSignInLinks, signInLinkStep } from '../steps/sign-in-link.step.js';
import { StaleFormError, StepContext, type LoginStep } from '../steps/step-context.js';

export { unreachableCode } from '../engine/net-errors.js';

const MAX_STEPS = 10;
/** How long the network and the DOM must stay unchanged before a page without a login UI counts as settled. */
const QUIET_MS = 800;
/** An identifier-first form is taken once the network has been quiet this long (a password field may follow). */
const IDENTIFIER_QUIET_MS = 300;
/** ... or once nothing is in flight and the page has not changed or worked for this long. */
const IDENTIFIER_STILL_MS = 150;
/** A look at the page that takes longer than this waited for its main thread: its scripts are running. */
const MAIN_THREAD_BUSY_MS = 250;
/** The longest a page that keeps changing is watched for a login UI before it is judged as it is. */
const SETTLE_BOUND_MS = 15_000;
/**
 * A page that holds a login form it has not shown yet (a password field hidden, e.g. in a dialog an app opens once
 * its socket and first poll are answered, by a style change alone) and no control to reveal it is watched this long
 * for the form to show, however settled it looks.
 */
const HIDDEN_FORM_BOUND_MS = 8000;

/**
 * The steps a login is made of, in order of preference: the first one that applies to what the
 * page shows runs. A password, code or link step that succeeds ends the flow (it runs
 * stay-signed-in and captures the session).
 */
const LOGIN_STEPS: readonly LoginStep[] = [
  passwordStep,
  identifierStep,
  linkStep,
  codeStep,
  httpAuthStep,
  signInLinkStep,
];

/** The steps of a login through an identity provider, in a popup window (until it closes). */
const PROVIDER_POPUP_STEPS: readonly LoginStep[] = [
  unexpectedInPopupStep,
  onlyOnProvider(passwordStep),
  onlyOnProvider(identifierStep),
  codeStep,
  providerChoiceStep,
];

export interface LoginFlowDeps {
  ctx: BrowserContext;
  page: Page;
  req: EngineLoginRequest;
  deadline: Deadline;
  log: LogSink;
  steps: string[];
  interceptor?: RequestInterceptor;
  /** Where the login's secrets may be sent: every request of the login's pages is checked against it. */
  egress?: EgressGuard;
  /** The IndexedDB records the login's pages wrote. */
  indexedDBWrites?: IndexedDBWriteLog;
  /** loginMethod "passkey": the virtual authenticator on the page and the passkey steps' state. */
  passkeys?: PasskeyLogin;
}

/** One login attempt on one page: open, then look at the page and run the step it calls for, until done. */
export class LoginFlow {
  private readonly net: NetworkTracker;
  private readonly session: StepContext;
  private readonly reportedRejections = new Set<string>();
  private readonly dialogMessages: string[] = [];
  /** alert()/confirm() would block the page; record the text (it may be the error) and close it. */
  private readonly onDialog = (dialog: Dialog): void => {
    const text = dialog.message().replace(/\s+/g, ' ').trim().slice(0, 240);
    if (text) this.dialogMessages.push(text);
    const close = dialog.type() === 'beforeunload' ? dialog.accept() : dialog.dismiss();
    close.catch(() => {});
  };

  /** The steps for this login: password-style, or through an identity provider (redirect or popup). */
  private readonly loginSteps: readonly LoginStep[];

  constructor(private readonly deps: LoginFlowDeps) {
    this.loginSteps = deps.req.oauth
      ? [
          unexpectedProviderStep,
          onlyOnProvider(passwordStep),
          onlyOnProvider(identifierStep),
          codeStep,
          providerChoiceStep,
          returnedFromProviderStep,
          idpButtonStep((popup) => this.runPopup(popup)),
          httpAuthStep,
          signInLinkStep,
        ]
      : deps.passkeys
        ? [...passkeySteps(deps.passkeys), ...LOGIN_STEPS]
        : LOGIN_STEPS;
    this.net = new NetworkTracker(deps.page);
    this.session = new StepContext({ ...deps, net: this.net, dialogMessages: () => [...this.dialogMessages] });
    deps.page.on('dialog', this.onDialog);
  }

  step(s: string): void {
    this.session.step(s);
  }

  /** Where this login's evidence says the session lives that the request's `include` did not ask for. */
  /** The origins the credentials were typed on (a saved login made from this login allows exactly those). */
  typedOn(): string[] {
    return [...this.session.filler.typedOrigins];
  }

  storageNotAsked(): SessionStoredIn[] {
    return this.session.storageNotAsked();
  }

  dispose(): void {
    this.deps.page.off('dialog', this.onDialog);
    this.net.dispose();
  }

  async run(): Promise<{ storageState: SessionStorageState; finalUrl: string }> {
    // A passkey asked for at page load (conditional UI) is judged against the page before it opened.
    await this.deps.passkeys?.markBefore(this.session);
    await this.open();
    let staleForms = 0;
    for (let i = 0; i < MAX_STEPS; i++) {
      const scan = await this.waitForLoginUi();
      await this.deps.passkeys?.look(this.session);
      this.session.reportAuthChallenges();
      this.reportRejections(scan);
      const next = this.loginSteps.find((s) => s.applies(scan, this.session));
      if (!next) {
        const blocked = await this.session.blockedOnPage();
        if (blocked) throw blocked;
        // A second factor was asked for and no step could answer it (e.g. a push approval).
        if (this.session.secondFactor) throw this.session.failure(this.session.secondFactor);
        throw new LoginFlowError(
          'login_form_not_found',
          followedSignInLinks(this.session)
            ? 'No login form found, also after following sign-in links'
            : 'No login form or sign-in link found on the page',
        );
      }
      try {
        const result = await next.run(scan, this.session);
        if (result.kind === 'done') return { storageState: result.storageState, finalUrl: result.finalUrl };
      } catch (err) {
        if (!(err instanceof StaleFormError)) throw err;
        if (++staleForms > 2)
          throw new LoginFlowError('login_form_not_found', 'The login form kept changing while it was being filled');
        this.step('the form changed while being filled; looking again');
      }
    }
    throw new LoginFlowError('login_form_not_found', `No login completed within ${MAX_STEPS} steps`);
  }

  /** The identity provider's pages in a popup window: a flow of its own on that page, until the window closes. */
  private async runPopup(popup: Page): Promise<void> {
    const nested = new LoginFlow({ ...this.deps, page: popup, interceptor: undefined });
    try {
      await nested.runProvider();
    } finally {
      nested.dispose();
    }
  }

  /** Runs provider steps on this (popup) page until it closes or, back on the site, closes itself. */
  async runProvider(): Promise<void> {
    const popup = this.deps.page;
    let staleForms = 0;
    for (let i = 0; i < MAX_STEPS; i++) {
      if (popup.isClosed()) return;
      try {
        const scan = await this.waitForLoginUi();
        if (popup.isClosed()) return;
        noteOauthPage(this.session);
        if (this.session.memo('provider visited').size && !this.session.onProvider() && !scan.form) {
          // The site's callback page in the popup hands the result to the opener and closes the window.
          await popup.waitForEvent('close', { timeout: this.deps.deadline.cap(5000) }).catch(() => {});
          return;
        }
        const next = PROVIDER_POPUP_STEPS.find((s) => s.applies(scan, this.session));
        if (!next) {
          if (!this.session.memo('provider visited').size) continue;
          throw new LoginFlowError(
            'login_form_not_found',
            "Nothing to do on the identity provider's page in the popup",
          );
        }
        await next.run(scan, this.session);
      } catch (err) {
        if (popup.isClosed()) return;
        if (!(err instanceof StaleFormError)) throw err;
        if (++staleForms > 2)
          throw new LoginFlowError('login_form_not_found', 'The form kept changing while it was being filled');
      }
    }
    throw new LoginFlowError(
      'login_form_not_found',
      `The identity provider's popup did not finish within ${MAX_STEPS} steps`,
    );
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
      if (status === 401 && this.deps.interceptor?.answeredLoginChallenge) {
        this.step(`opened login page ${safeUrl(page.url())} (HTTP 401)`);
        throw this.httpAuthRefused();
      }
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
      if (code === 'ERR_INVALID_AUTH_CREDENTIALS' && this.deps.interceptor?.answeredLoginChallenge)
        throw this.httpAuthRefused();
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
    this.session.reportAuthChallenges();
  }

  /** The page is an HTTP-auth login and it challenged again after getting the credentials. */
  private httpAuthRefused(): LoginFlowError {
    this.session.reportAuthChallenges();
    this.step('the site refused the HTTP authentication credentials');
    return new LoginFlowError('invalid_credentials', 'The site refused the credentials (HTTP authentication, 401)');
  }

  /**
   * Looks at the page (on network activity, at least every 250 ms) until a login UI is usable, or
   * the page has settled without one. The page decides how long that is, as a person judging it
   * would: while requests it started are in flight (polling and long polls aside), its main thread
   * is busy (a heavy app parses and runs its scripts for a second with no network at all), elements
   * are still being added, or it shows a spinner or an empty app shell, it is not settled (a dialog
   * rendered by script after a boot is still to come). Bounded by SETTLE_BOUND_MS; the steps say
   * what was waited for.
   */
  private async waitForLoginUi(): Promise<PageScan> {
    const { page, deadline } = this.deps;
    const start = Date.now();
    const waitedFor = new Set<string>();
    const done = (scan: PageScan): PageScan => {
      const took = Date.now() - start;
      if (took >= 1500 && waitedFor.size)
        this.step(`waited ${(took / 1000).toFixed(1)} s for the page to settle (${[...waitedFor].join(', ')})`);
      return scan;
    };
    let identifierSince: number | undefined;
    let consentTried = false;
    // A response the page was waiting for is seen here a moment before the page has drawn what it
    // brought: after a look woken by activity, the next look comes soon rather than in 250 ms.
    let followUp = false;
    for (;;) {
      deadline.check();
      // A document on its way out (a redirect chain, a form POST under way) is not the page to judge.
      if (this.net.documentPending() && Date.now() - start < SETTLE_BOUND_MS) {
        waitedFor.add('the page to load');
        await this.net.waitForActivity(Math.min(250, deadline.remaining()));
        continue;
      }
      const seenBeforeScan = this.net.activityCount();
      const scan = await this.session.finder.scan(page, { provider: this.deps.req.oauth?.provider });
      if (this.deps.req.oauth) noteOauthPage(this.session);
      const now = Date.now();
      const kind = scan.form?.candidate.kind;
      // A popup window that closed itself (an identity provider's, after consent) has nothing more to show.
      if (kind === 'password' || scan.codePrompt || scan.idpButtons.length || page.isClosed()) return done(scan);
      // A magic-link login past its identifier step: the mail, not the page, decides what comes next.
      if (!kind && this.deps.req.method === 'magic_link' && this.session.counted('identifier-submits') > 0)
        return done(scan);
      if (kind === 'identifier') {
        // Give a password field that renders a moment later the chance to show up.
        identifierSince ??= now;
        if (this.net.isQuiet(IDENTIFIER_QUIET_MS) || now - identifierSince > 2500) return done(scan);
        // Nothing in flight and the page has stopped drawing: no password field is on its way.
        if (this.net.isQuiet(100) && (await this.pageStill(IDENTIFIER_STILL_MS))) return done(scan);
      } else {
        identifierSince = undefined;
        // The site accepted the HTTP authentication the engine answered and its page loaded: that page is the
        // signed-in one unless it draws a login form at once, so it is judged after a short quiet (a full second of
        // watching was most of such a login's time: 1.5 s against a script's 0.2 s).
        const httpAuthDone = this.deps.interceptor?.answeredLoginChallenge === true;
        const quietMs = httpAuthDone ? IDENTIFIER_STILL_MS : QUIET_MS;
        const networkSettled = this.net.isSettled(quietMs, start);
        if (!networkSettled) waitedFor.add('requests the page started');
        // A login form on the page, hidden, with nothing to reveal it: the page itself will show it.
        const formToShow =
          scan.hiddenPasswordCount > 0 && !scan.signInLinks.length && now - start < HIDDEN_FORM_BOUND_MS;
        if (formToShow) waitedFor.add('the hidden login form to be shown');
        const floorPassed = httpAuthDone || now - start > 1000;
        if (floorPassed && networkSettled && !formToShow && (await this.pageSettled(waitedFor, quietMs))) {
          // A consent dialog may hide or disable the page behind it: accept it once and look again.
          if (!consentTried) {
            consentTried = true;
            if (await this.session.filler.dismissConsent()) continue;
          }
          // A CAPTCHA interstitial may clear by itself (non-interactive challenges): wait a while.
          const blocked = now - start < 10_000 ? await this.session.blockedOnPage() : undefined;
          if (!blocked || blocked.reason !== 'captcha_blocked') return done(scan);
        }
        if (now - start > SETTLE_BOUND_MS) {
          this.step(`the page did not settle within ${SETTLE_BOUND_MS / 1000} s; judging what it shows`);
          return done(scan);
        }
      }
      await this.net.waitForActivity(Math.min(followUp ? 60 : 250, deadline.remaining()), 30, seenBeforeScan);
      followUp = this.net.activityCount() !== seenBeforeScan;
    }
  }

  /** No element added or removed, no long task and no loading indicator for `ms`. */
  private async pageStill(ms: number): Promise<boolean> {
    const state = await pageActivity(this.deps.page);
    return !state.busy && Date.now() - lastActiveAt(state) >= ms;
  }

  /**
   * No element added or removed and no long task on the main thread for QUIET_MS, no spinner,
   * progress bar or empty app shell, and the page answers at once (a look that waits for the
   * main thread means its scripts are still running).
   */
  private async pageSettled(waitedFor: Set<string>, quietMs = QUIET_MS): Promise<boolean> {
    const asked = Date.now();
    const state = await pageActivity(this.deps.page);
    const answeredAt = Date.now();
    if (state.busy) {
      waitedFor.add(state.busy);
      if (!this.reportedRejections.has(state.busy)) {
        this.reportedRejections.add(state.busy);
        this.step(`waiting: the page shows ${state.busy}`);
      }
      return false;
    }
    if (answeredAt - asked > MAIN_THREAD_BUSY_MS || answeredAt - state.longTaskAt < quietMs) {
      waitedFor.add('its scripts (main thread busy)');
      return false;
    }
    if (answeredAt - state.domChangedAt < quietMs) {
      waitedFor.add('elements still being added');
      return false;
    }
    return true;
  }

  private reportRejections(scan: PageScan): void {
    for (const r of scan.rejected) {
      if (this.reportedRejections.has(r)) continue;
      this.reportedRejections.add(r);
      this.step(r);
    }
  }
}
