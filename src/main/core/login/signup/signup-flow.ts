import type { BrowserContext, Dialog, Page, Request } from 'playwright-core';
import { Deadline, LoginTimeoutError } from '../engine/deadline.js';
import { EgressGuard, watchOtherPages } from '../engine/egress-guard.js';
import { FormFiller } from '../engine/form-filler.js';
import { FormFinder } from '../engine/form-finder.js';
import { unreachableCode } from '../engine/net-errors.js';
import { NetworkTracker } from '../engine/network-tracker.js';
import { OutcomeDetector } from '../engine/outcome-detector.js';
import { RequestInterceptor } from '../engine/request-interceptor.js';
import { DOM_WATCH_SCRIPT } from '../engine/page-activity.js';
import { NAVIGATION_WATCH_SCRIPT } from '../engine/page-signals.js';
import { captureStorageState } from '../engine/storage-capture.js';
import { blockHeavy, type LoginEngine } from '../flow/login-engine.js';
import { noopLogSink, type LogSink } from '../../logger.js';
import { LoginFlowError, redact, safeUrl, type SessionStorageState } from '../login-types.js';
import { VirtualAuthenticator } from '../passkeys/virtual-authenticator.js';
import { findSignupForm, submitSignupForm } from './signup-form.js';
import { noteNewPasskey, passkeyAfterSignup } from './signup-passkey.js';
import { signInAfterSignup } from './signup-login.js';
import type { SignupLook, SignupOutcome } from './signup-judge.js';
import {
  SignupFlowError,
  type SignupContext,
  type SignupFailureReason,
  type SignupRequest,
  type SignupResult,
} from './signup-types.js';
import { followVerificationLink, submitVerificationCode } from './signup-verify.js';

/** Verification steps (a link, then maybe a code) before the sign-up must have reached an end. */
const MAX_VERIFICATIONS = 2;

type Done = { storageState: SessionStorageState; finalUrl: string };

/**
 * Account creation on an arbitrary site, in a context the caller owns (see BrowserPool): open the
 * page (following a "Sign up" link from a login page), fill and submit the sign-up form, finish the
 * email verification from the same code sources as a login, and sign in with the login engine when
 * the site asks to. Resolves with a SignupResult for every outcome; rejects only when the caller's
 * signal aborts or the browser itself fails.
 */
export class SignupRunner {
  private readonly log: LogSink;

  constructor(
    /** `login`: the login engine, for sites that ask to sign in after the sign-up. */
    private readonly deps: { login: Pick<LoginEngine, 'login'>; log?: LogSink; blockResources?: boolean },
  ) {
    this.log = deps.log ?? noopLogSink();
  }

  async signup(ctx: BrowserContext, req: SignupRequest, signal?: AbortSignal): Promise<SignupResult> {
    const steps: string[] = [];
    const secrets = [req.username, req.password, ...Object.values(req.additionalFields)].filter((v) => v.length >= 2);
    const step = (line: string): void => {
      const safe = redact(line, secrets);
      steps.push(safe);
      this.log.debug({ step: safe }, 'signup step');
      req.onStep?.(safe);
    };
    const deadline = new Deadline(req.timeoutMs, signal);
    const started = Date.now();
    let page: Page | undefined;
    let net: NetworkTracker | undefined;
    let authenticator: VirtualAuthenticator | undefined;
    let interceptor: RequestInterceptor | undefined;
    let egress: EgressGuard | undefined;
    let stopWatching: (() => Promise<void>) | undefined;
    const dialogs: string[] = [];
    // alert()/confirm() would block the page: keep the text (it may be the message) and close it.
    const onDialog = (dialog: Dialog): void => {
      const text = dialog.message().replace(/\s+/g, ' ').trim().slice(0, 240);
      if (text) dialogs.push(text);
      (dialog.type() === 'beforeunload' ? dialog.accept() : dialog.dismiss()).catch(() => {});
    };
    const mainDocument = { method: 'GET' };
    const onRequest = (r: Request): void => {
      try {
        if (r.isNavigationRequest() && r.frame() === page?.mainFrame()) mainDocument.method = r.method();
      } catch {
        // service-worker requests have no frame
      }
    };
    const fail = (reason: SignupFailureReason, message: string): SignupResult => {
      this.log.info({ url: safeUrl(req.url), reason, ms: Date.now() - started }, 'signup failed');
      return { ok: false, reason, message: redact(message, secrets), steps: [...steps] };
    };
    try {
      deadline.check();
      page = await ctx.newPage();
      // Before the page opens: a sign-up page may ask for the new passkey as soon as it loads.
      if (req.passkey) authenticator = await VirtualAuthenticator.attach(ctx, page, []);
      // The new account's password and extras go only where the login engine lets a login's go
      // (docs/security.md#a-saved-secret-goes-only-where-it-belongs): a request, beacon or WebSocket message of the
      // sign-up page, or of a window it opens, that carries one to another site stops the sign-up before it leaves.
      egress = new EgressGuard({
        secrets: [req.password],
        values: Object.values(req.additionalFields),
        secretOrigins: req.secretOrigins,
        loginUrl: req.url,
      });
      const blockResources = this.deps.blockResources ?? true;
      const interception = {
        credentials: { username: req.username, password: req.password },
        blockHeavy: blockResources,
        allowedOrigins: req.secretOrigins,
        egress,
        // A sign-up page behind HTTP authentication is not the new account's to answer.
        answerChallenges: false,
      };
      const [, attached] = await Promise.all([
        page.addInitScript(`${NAVIGATION_WATCH_SCRIPT}\n${DOM_WATCH_SCRIPT}`),
        RequestInterceptor.attach(ctx, page, interception),
        egress.watchWebSockets(ctx),
      ]);
      interceptor = attached;
      if (!interceptor && blockResources) await page.route('**/*', blockHeavy);
      stopWatching = watchOtherPages(ctx, page, egress, interception);
      page.on('dialog', onDialog);
      page.on('request', onRequest);
      net = new NetworkTracker(page);
      const s: SignupContext = {
        ctx,
        page,
        req,
        deadline,
        net,
        filler: new FormFiller({ page, deadline, step, typingOrigins: req.secretOrigins, egress }),
        finder: new FormFinder(),
        detector: new OutcomeDetector({ page, context: ctx, net, deadline, dialogMessages: () => [...dialogs] }),
        secrets,
        step,
        document: mainDocument,
        ...(authenticator ? { authenticator } : {}),
        stopWatchingOtherPages: () => stopWatching?.() ?? Promise.resolve(),
      };
      const done = await deadline.race(Promise.race([this.run(s, signal), egress.stopped]));
      const passkey = authenticator ? await deadline.race(passkeyAfterSignup(s, done.finalUrl)) : undefined;
      this.log.info({ url: safeUrl(req.url), ms: Date.now() - started, passkey: !!passkey }, 'signup succeeded');
      return {
        ok: true,
        storageState: passkey?.storageState ?? done.storageState,
        finalUrl: done.finalUrl,
        steps: [...steps],
        passwordTyped: !!s.passwordTyped,
        ...(passkey ? { passkey: passkey.made } : {}),
      };
    } catch (err) {
      if (signal?.aborted) throw err;
      // A request that would have carried a secret elsewhere was blocked: that is why the sign-up stopped.
      if (egress?.failure) return fail(egress.failure.reason, egress.failure.message);
      if (err instanceof LoginTimeoutError) {
        step(`gave up after ${req.timeoutMs} ms`);
        return fail('timeout', `The sign-up did not finish within ${req.timeoutMs} ms`);
      }
      if (err instanceof SignupFlowError || err instanceof LoginFlowError) return fail(err.reason, err.message);
      const code = unreachableCode(err instanceof Error ? err.message : String(err));
      if (code) return fail('site_unreachable', `Could not reach the site: ${code}`);
      this.log.error({ url: safeUrl(req.url), err: err instanceof Error ? err.name : 'error' }, 'signup crashed');
      throw err;
    } finally {
      page?.off('dialog', onDialog);
      page?.off('request', onRequest);
      net?.dispose();
      // Before the page closes: every request it started is seen and answered, none let go uninspected.
      await Promise.all([interceptor?.close(), stopWatching?.()]);
      await authenticator?.dispose();
      void page?.close().catch(() => {});
    }
  }

  private async run(s: SignupContext, signal?: AbortSignal): Promise<Done> {
    await this.open(s);
    const located = await findSignupForm(s);
    const submitted = await submitSignupForm(s, located);
    // A form whose submit itself asked for a new passkey made it on the sign-up page.
    await noteNewPasskey(s, located.frame.url());
    let outcome: SignupOutcome = submitted.outcome;
    const sessionBase: SignupLook = submitted.sessionBase;
    for (let verified = 0; ; verified++) {
      const verifying = verified > 0;
      switch (outcome.kind) {
        case 'exists':
          throw new SignupFlowError('user_exists', `The site says the account exists: '${outcome.text}'`);
        case 'rejected':
          if (verifying)
            throw new SignupFlowError(
              'invalid_code',
              outcome.text
                ? `The site rejected the verification: '${outcome.text}'`
                : 'The verification did not go through',
            );
          throw new SignupFlowError(
            'signup_rejected',
            outcome.text
              ? `The site rejected the sign-up: '${outcome.text}'`
              : 'The site showed the sign-up form again without saying why',
          );
        case 'invalid-fields':
          throw new SignupFlowError(
            'signup_rejected',
            `The form could not be submitted; required or invalid fields: ${outcome.fields.join(', ')} (pass them in additionalFields)`,
          );
        case 'unsubmitted':
          throw new SignupFlowError('signup_rejected', 'Submitting the sign-up form had no visible effect');
        case 'blocked':
          throw new SignupFlowError(
            outcome.reason,
            outcome.reason === 'captcha_blocked'
              ? `The site shows a CAPTCHA: ${outcome.text}`
              : `The site reports: '${outcome.text}'`,
          );
        case 'signed-in':
          s.step(`signed in after the ${verifying ? 'verification' : 'sign-up'} (${outcome.evidence.join('; ')})`);
          return this.capture(s);
        case 'login':
          return signInAfterSignup(s, this.deps.login, 'the site asks to sign in with the new account', signal);
        case 'no-session':
          return signInAfterSignup(
            s,
            this.deps.login,
            'no session after the sign-up; signing in with the new account',
            signal,
          );
        case 'verify-link':
        case 'verify-code':
          if (verified >= MAX_VERIFICATIONS)
            throw new SignupFlowError('invalid_code', 'The site kept asking to verify the email address');
          if (outcome.kind === 'verify-link') {
            s.step(`the site asks to verify the email address ('${outcome.text}')`);
            outcome = await followVerificationLink(s, sessionBase);
          } else {
            s.step('the site asks for a verification code');
            outcome = await submitVerificationCode(s, outcome.prompt, sessionBase);
          }
      }
    }
  }

  private async open(s: SignupContext): Promise<void> {
    const { page, req, deadline } = s;
    let url: URL;
    try {
      url = new URL(req.url);
    } catch {
      throw new SignupFlowError('site_unreachable', 'The sign-up URL is not a valid absolute URL');
    }
    let status: number | undefined;
    try {
      const resp = await page.goto(url.href, { waitUntil: 'domcontentloaded', timeout: deadline.cap(30_000) });
      status = resp?.status();
    } catch (err) {
      deadline.check();
      const code = unreachableCode(err instanceof Error ? err.message : String(err));
      if (code) throw new SignupFlowError('site_unreachable', `Could not reach ${url.host}: ${code}`);
      if (page.url() === 'about:blank') throw new SignupFlowError('site_unreachable', `No response from ${url.host}`);
      s.step('the page is slow to load; continuing with what has rendered');
    }
    if (page.url().startsWith('chrome-error:'))
      throw new SignupFlowError('site_unreachable', `Could not reach ${url.host}`);
    if (status !== undefined && status >= 500)
      throw new SignupFlowError('site_unreachable', `The sign-up page answered HTTP ${status}`);
    s.step(`opened ${safeUrl(page.url())}${status ? ` (HTTP ${status})` : ''}`);
  }

  /** Lets in-flight requests finish (bounded), then reads cookies and localStorage. */
  private async capture(s: SignupContext): Promise<Done> {
    const until = Date.now() + Math.min(3000, s.deadline.remaining() / 2);
    while (!s.net.isQuiet(0) && Date.now() < until) await s.net.waitForActivity(Math.min(250, until - Date.now()), 10);
    const storageState = await captureStorageState(s.ctx, s.page);
    const withStorage = storageState.origins.filter((o) => o.localStorage.length).length;
    s.step(`captured ${storageState.cookies.length} cookie(s) and localStorage of ${withStorage} origin(s)`);
    return { storageState, finalUrl: s.page.url() };
  }
}
