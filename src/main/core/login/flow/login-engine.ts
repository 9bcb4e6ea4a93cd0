import type { BrowserContext, Page, Route } from 'playwright-core';
import { Deadline, LoginTimeoutError } from '../engine/deadline.js';
import { DOM_WATCH_SCRIPT } from '../engine/page-activity.js';
import { RequestInterceptor } from '../engine/request-interceptor.js';
import { EgressGuard, watchOtherPages } from '../engine/egress-guard.js';
import { LoginFlow, unreachableCode } from './login-flow.js';
import { attachPasskeys, type PasskeyLogin } from '../steps/passkey.step.js';
import { NAVIGATION_WATCH_SCRIPT } from '../engine/page-signals.js';
import { IndexedDBWriteLog, STORAGE_WATCH_SCRIPT } from '../engine/storage-watch.js';
import { captureStorageState } from '../engine/storage-capture.js';
import type { LoginFailureReason } from '../../../../shared/errors.js';
import { PERSON_REASONS } from '../../../../shared/person-task.js';
import { noopLogSink, type LogSink } from '../../logger.js';
import {
  LoginFlowError,
  originMismatchMessage,
  safeUrl,
  type EngineLoginRequest,
  type LoginResult,
} from '../login-types.js';

export type { EngineLoginRequest, LoginResult } from '../login-types.js';

export const DEFAULT_LOGIN_TIMEOUT_MS = 60_000;
/** Stops a person can get past in a visible browser window (interactive logins). */
export const PERSON_CAN_FINISH: ReadonlySet<LoginFailureReason> = new Set(PERSON_REASONS);

/** Without the DevTools protocol (not Chromium): images, media and fonts are skipped through Playwright routing. */
export function blockHeavy(route: Route): Promise<void> {
  const req = route.request();
  if (['image', 'media', 'font'].includes(req.resourceType()) && !/captcha/i.test(req.url()))
    return route.abort('blockedbyclient');
  return route.fallback();
}

/**
 * Generic password login on an arbitrary site, in a context the caller owns (see BrowserPool).
 * Resolves with a LoginResult for every login outcome; rejects only when the caller's signal
 * aborts or the browser itself fails (e.g. it crashed).
 */
export class LoginEngine {
  private readonly log: LogSink;
  private readonly blockResources: boolean;

  /** `blockResources` (default true): do not load images, media and fonts during the login. */
  constructor(deps: { log?: LogSink; blockResources?: boolean } = {}) {
    this.log = deps.log ?? noopLogSink();
    this.blockResources = deps.blockResources ?? true;
  }

  async login(ctx: BrowserContext, req: EngineLoginRequest, signal?: AbortSignal): Promise<LoginResult> {
    const steps: string[] = [];
    const timeoutMs = req.timeoutMs ?? DEFAULT_LOGIN_TIMEOUT_MS;
    const deadline = new Deadline(timeoutMs, signal);
    const started = Date.now();
    let page: Page | undefined;
    let flow: LoginFlow | undefined;
    let interceptor: RequestInterceptor | undefined;
    let passkeys: PasskeyLogin | undefined;
    let egress: EgressGuard | undefined;
    let egressWatch: (() => Promise<void>) | undefined;
    const fail = (reason: LoginFailureReason, message: string): LoginResult => {
      const finalUrl = page && !page.isClosed() ? page.url() : undefined;
      this.log.info({ url: safeUrl(req.url), reason, ms: Date.now() - started }, 'login failed');
      return {
        ok: false,
        reason,
        message,
        ...(finalUrl && finalUrl !== 'about:blank' ? { finalUrl } : {}),
        steps: [...steps],
      };
    };
    try {
      deadline.check();
      page = await ctx.newPage();
      // Before the page opens: a conditional (autofill) passkey request at load must find the authenticator.
      if (req.passkeys) passkeys = await attachPasskeys(ctx, page, req.passkeys, (s) => steps.push(s));
      const indexedDBWrites = new IndexedDBWriteLog();
      indexedDBWrites.attach(ctx);
      egress = new EgressGuard({
        secrets: [req.password, ...(req.secrets ?? [])],
        values: Object.values(req.additionalFields ?? {}),
        secretOrigins: req.secretOrigins,
        loginUrl: req.url,
        providerOrigins: req.oauth?.origins,
      });
      const interception = {
        credentials: { username: req.username, password: req.password },
        blockHeavy: this.blockResources,
        allowedOrigins: req.secretOrigins,
        egress,
      };
      // A passkey answers only on the saved login's origins: the gate takes it out before a page of another
      // origin loads, and puts it back once the page is on one of them again.
      const passkeyOrigins = req.secretOrigins;
      const gate = passkeys && passkeyOrigins ? passkeys.authenticator : undefined;
      if (gate && passkeyOrigins)
        page.on('framenavigated', (f) => {
          if (f === page?.mainFrame()) void gate.gate(f.url(), passkeyOrigins, 'committed');
        });
      const [, attached] = await Promise.all([
        // On the context, so popup windows (an identity provider's) have them too.
        ctx.addInitScript(`${NAVIGATION_WATCH_SCRIPT}\n${DOM_WATCH_SCRIPT}\n${STORAGE_WATCH_SCRIPT}`),
        RequestInterceptor.attach(ctx, page, {
          ...interception,
          ...(gate && passkeyOrigins
            ? { beforeMainDocument: (url: string) => gate.gate(url, passkeyOrigins, 'before-load') }
            : {}),
        }),
        egress.watchWebSockets(ctx),
      ]);
      interceptor = attached;
      if (!interceptor && this.blockResources) await page.route('**/*', blockHeavy);
      egressWatch = watchOtherPages(ctx, page, egress, interception);
      flow = new LoginFlow({
        ctx,
        page,
        req,
        deadline,
        log: this.log,
        steps,
        interceptor,
        egress,
        indexedDBWrites,
        passkeys,
      });
      const result = await deadline.race(Promise.race([flow.run(), egress.stopped]));
      // A request was refused as the flow ended (a beacon sent on the way out): the login still stops.
      if (egress.refusedOrigin) await egress.stopped;
      this.log.info({ url: safeUrl(req.url), ms: Date.now() - started }, 'login succeeded');
      const sessionIn = flow.storageNotAsked();
      return {
        ok: true,
        storageState: result.storageState,
        finalUrl: result.finalUrl,
        steps: [...steps],
        ...(sessionIn.length ? { sessionIn } : {}),
        typedOn: flow.typedOn(),
      };
    } catch (err) {
      if (signal?.aborted) throw err;
      // A request that would have carried a secret elsewhere was blocked: that is why the login stopped.
      if (egress?.failure) return fail(egress.failure.reason, egress.failure.message);
      if (err instanceof LoginTimeoutError) {
        steps.push(`gave up after ${timeoutMs} ms`);
        return fail('timeout', err.message);
      }
      if (err instanceof LoginFlowError) {
        // An HTTP-authentication challenge from a foreign origin was refused: that is why the login stopped.
        const refused = interceptor?.refusedOrigin;
        if (refused && req.secretOrigins && err.reason !== 'credential_origin_mismatch')
          return fail('credential_origin_mismatch', originMismatchMessage(refused, req.secretOrigins));
        const failure = fail(err.reason, err.message);
        if (req.keepPartialState && page && !page.isClosed() && PERSON_CAN_FINISH.has(err.reason) && !failure.ok)
          failure.partialState = await captureStorageState(ctx, page).catch(() => undefined);
        return failure;
      }
      const message = err instanceof Error ? err.message : String(err);
      const code = unreachableCode(message);
      if (code) return fail('site_unreachable', `Could not reach the site: ${code}`);
      // A browser action that never completed (an element that never became clickable): the page
      // did not let the login go on; that is the site's answer, not a crash of ours.
      if (err instanceof Error && err.name === 'TimeoutError') {
        steps.push('a browser action did not complete in time');
        return fail('timeout', 'The page did not respond to a browser action in time');
      }
      this.log.error({ url: safeUrl(req.url), err: err instanceof Error ? err.name : 'error' }, 'login crashed');
      throw err;
    } finally {
      flow?.dispose();
      // Before the page closes: every request it started is seen and answered, none let go uninspected.
      await Promise.all([interceptor?.close(), egressWatch?.()]);
      // Each use moves a passkey's counter on (a relying party refuses one that does not increase): keep it.
      if (passkeys && req.passkeys) await passkeys.finish(req.passkeys, this.log);
      // Not awaited: waiting for the renderer to go away only delays the answer (the context
      // owner closes the context right after, which is quicker with the page close under way).
      void page?.close().catch(() => {});
    }
  }
}
