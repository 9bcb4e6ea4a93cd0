import type { BrowserContext, Page, Request, Response } from 'playwright-core';
import type { StorageState } from '../../../../shared/login.schema.js';
import type { ModeContextOptions } from '../browser/lazy-browser-pool.js';
import { FormFinder } from '../engine/form-finder.js';
import { unreachableCode } from '../engine/net-errors.js';
import { DOM_WATCH_SCRIPT, pageActivity } from '../engine/page-activity.js';
import { takeSnapshot } from '../engine/page-snapshot.js';
import { safeUrl } from '../login-types.js';
import { pagesBehindSignIn, type PageBehindSignIn } from './pages-behind-sign-in.js';

/** The browser pool as the validator uses it: a fresh context, opened with the cached state. */
export interface ValidatorBrowsers {
  withContext<T>(fn: (ctx: BrowserContext) => Promise<T>, opts?: ModeContextOptions): Promise<T>;
  /** A 400 when the outbound policy refuses the URL's host (LazyBrowserPool.checkUrl). */
  checkUrl?(url: string, field: string): Promise<void>;
}

/** valid / invalid: what the page showed; unreachable: the site did not answer (or answered 5xx): nothing learned. */
export type Verdict = 'valid' | 'invalid' | 'unreachable';

export interface CheckResult {
  verdict: Verdict;
  /** The page opened, without query or fragment (they may carry tokens). */
  checkedUrl: string;
  /** What the check saw, in order; secret-free (paths only, no query, no page text). */
  evidence: string[];
  checkedAt: number;
}

/**
 * A path segment that names a sign-in page: /login, /signin, /sign_in, /auth, /sso, /oauth2, /saml,
 * /authorize, login.php, wp-login.php… (not /account, /author, /authors, /how-to-login-faster).
 */
const LOGIN_SEGMENT =
  /^([a-z]+[-_])?(log[-_]?in|sign[-_]?in|sign[-_]?on|sso|auth|authenticate|authori[sz]e|oauth2?|saml2?|cas)(\.\w+)?$/i;

/** How long a page must stay without requests and DOM changes to be judged. */
const QUIET_MS = 400;

export function looksLikeLoginPath(pathname: string): boolean {
  const segments = pathname.split('/').filter(Boolean);
  if (segments.some((s) => LOGIN_SEGMENT.test(s))) return true;
  return /\/sessions?\/new\/?$/i.test(pathname); // Rails-style sign-in page
}

/**
 * Whether a cached session still works: opens a page that needs it in a fresh context of the
 * shared browser pool, loaded with the cached storageState (what an agent would do), and judges
 * the result the way the login engine judges a login page. Invalid means any of: the page answered
 * 4xx; it redirected to another path that looks like a sign-in page; the engine's form finder sees a
 * password or identifier form; it offers a sign-in link and none of the engine's signed-in signals (a
 * sign-out control or link).
 *
 * The site root (an import names a site by its host) often looks the same signed in or not: a cached
 * marketing page with a "Sign in" link. Without a signed-in signal there, the check goes where the session
 * shows (pages-behind-sign-in.ts): the account page, else the sign-in link, which a site skips for a
 * signed-in visitor. That page decides.
 */
export class SessionValidator {
  private readonly finder = new FormFinder();

  constructor(
    private readonly deps: {
      browsers: ValidatorBrowsers;
      /** Budget for loading the page. */
      timeoutMs: number;
      /** How long a page may keep the network busy before it is judged (single-page apps fetch, then redirect). */
      settleMs?: number;
      now?: () => number;
    },
  ) {}

  /**
   * `mode`: the browser mode the session was made in. The check's context shows the site what the login browser
   * did (the state's `browser`: user agent, language, time zone), as an agent's context would.
   */
  async check(
    state: StorageState,
    url: string,
    signal?: AbortSignal,
    mode?: ModeContextOptions['mode'],
  ): Promise<CheckResult> {
    const checkedAt = this.deps.now?.() ?? Date.now();
    const checkedUrl = safeUrl(url);
    const evidence: string[] = [];
    const result = (verdict: Verdict): CheckResult => ({ verdict, checkedUrl, evidence, checkedAt });
    await this.deps.browsers.checkUrl?.(url, 'checkUrl');
    return this.deps.browsers.withContext(
      async (ctx) => {
        const abort = () => void ctx.close().catch(() => {});
        signal?.addEventListener('abort', abort, { once: true });
        let tracker: AwaitedRequests | undefined;
        try {
          const page = await ctx.newPage();
          await page.addInitScript(DOM_WATCH_SCRIPT);
          tracker = new AwaitedRequests(page);
          let response: Response | null;
          try {
            response = await page.goto(url, { waitUntil: 'load', timeout: this.deps.timeoutMs });
          } catch (err) {
            if (signal?.aborted) throw err;
            const message = err instanceof Error ? err.message : String(err);
            const code = unreachableCode(message);
            evidence.push(
              code
                ? `could not reach ${checkedUrl} (${code})`
                : /timeout/i.test(message)
                  ? `${checkedUrl} did not load within ${this.deps.timeoutMs} ms`
                  : `opening ${checkedUrl} failed`,
            );
            return result('unreachable');
          }
          await this.settle(page, tracker);
          const status = response?.status() ?? 0;
          evidence.push(`opened ${checkedUrl}: HTTP ${status || 'no response'}`);
          if (status >= 500) {
            evidence.push('the site answered with a server error: nothing learned about the session');
            return result('unreachable');
          }
          const judged = await this.judge(page, url, status, evidence);
          if (judged.decisive || judged.signedIn || !isSiteRoot(url)) return result(judged.verdict);
          for (const behind of await pagesBehindSignIn(page)) {
            const verdict = await this.lookBehind(page, behind, tracker, evidence);
            if (verdict) return result(verdict);
          }
          return result(judged.verdict);
        } finally {
          tracker?.dispose();
          signal?.removeEventListener('abort', abort);
        }
      },
      {
        signal,
        mode,
        contextOptions: {
          storageState: state as never,
          ...(state.browser
            ? {
                userAgent: state.browser.userAgent,
                locale: state.browser.locale,
                timezoneId: state.browser.timezoneId,
              }
            : {}),
        },
      },
    );
  }

  /**
   * Waits until the page has settled as the login engine judges it (no request in flight and no
   * element added or removed for QUIET_MS, no loading indicator), at most settleMs: a single-page
   * app fetches its user after the load event and only then shows the account or a sign-in page.
   */
  private async settle(page: Page, requests: AwaitedRequests): Promise<void> {
    const started = Date.now();
    const cap = this.deps.settleMs ?? 5000;
    for (;;) {
      const left = cap - (Date.now() - started);
      if (left <= 0) return;
      const quietFor = requests.quietFor();
      if (quietFor < QUIET_MS) {
        await requests.change(Math.min(left, QUIET_MS - quietFor));
        continue;
      }
      const activity = await pageActivity(page);
      const calmFor = activity.domChangedAt ? Date.now() - activity.domChangedAt : QUIET_MS;
      if (!activity.busy && calmFor >= QUIET_MS) return;
      await requests.change(Math.min(left, Math.max(50, QUIET_MS - calmFor)));
    }
  }

  /**
   * The page's verdict. Decisive: the page itself refused the session (4xx, a sign-in redirect, a login form).
   * signedIn: it shows the engine's signed-in signal (page-signals.ts `signedInUi`).
   */
  private async judge(
    page: Page,
    url: string,
    status: number,
    evidence: string[],
  ): Promise<{ verdict: Verdict; decisive: boolean; signedIn: boolean }> {
    let verdict: Verdict = 'valid';
    if (status >= 400) {
      evidence.push(`the page answered ${status}`);
      verdict = 'invalid';
    }
    const landed = page.url();
    if (safeUrl(landed) !== safeUrl(url)) {
      const path = new URL(landed).pathname;
      const loginLike = looksLikeLoginPath(path);
      evidence.push(`ended on ${safeUrl(landed)}${loginLike ? ', which looks like a sign-in page' : ''}`);
      if (loginLike) verdict = 'invalid';
    }
    const scan = await this.finder.scan(page);
    const signedIn = !!(await takeSnapshot({ page, context: page.context() }).catch(() => null))?.signals.signedInUi;
    if (scan.form) {
      evidence.push(`the page shows a ${scan.form.candidate.kind} login form`);
      return { verdict: 'invalid', decisive: true, signedIn };
    }
    const decisive = verdict === 'invalid';
    if (signedIn) evidence.push('the page shows a sign-out control');
    else if (scan.signInLinks.some((l) => !l.button.hiddenHref)) {
      evidence.push('the page offers a sign-in link and no sign-out control');
      verdict = 'invalid';
    }
    if (verdict === 'valid') evidence.push('no login form, no sign-in redirect: the session works');
    return { verdict, decisive, signedIn };
  }

  /**
   * Opens a page behind an undecided site root (its account page or sign-in link) in the same tab. A sign-in
   * redirect, a login form or a signed-in signal decides anywhere; else an account page that opened clean says valid,
   * and a sign-in page says valid only when the site sent the visitor on. null: nothing learned there.
   */
  private async lookBehind(
    page: Page,
    behind: PageBehindSignIn,
    requests: AwaitedRequests,
    evidence: string[],
  ): Promise<Verdict | null> {
    const target = safeUrl(behind.href);
    evidence.push(
      `the site root shows no signed-in signal: opened its ${behind.kind === 'account' ? 'account link' : 'sign-in link'} ${target}`,
    );
    let status: number;
    try {
      status = (await page.goto(behind.href, { waitUntil: 'load', timeout: this.deps.timeoutMs }))?.status() ?? 0;
    } catch {
      evidence.push(`${target} did not open`);
      return null;
    }
    await this.settle(page, requests);
    evidence.push(`opened ${target}: HTTP ${status || 'no response'}`);
    if (status >= 500) return null;
    const judged = await this.judge(page, behind.href, status, evidence);
    if (judged.decisive || judged.signedIn) return judged.verdict;
    // An account page that opened, with no sign-in link on it: a page that needs the session showed it.
    if (behind.kind === 'account') return judged.verdict === 'valid' ? 'valid' : null;
    const movedOn = safeUrl(page.url()) !== target && !looksLikeLoginPath(new URL(page.url()).pathname);
    return movedOn && judged.verdict === 'valid' ? 'valid' : null;
  }
}

/** The bare site root: what a check opens when it knows no page that needs the session. */
function isSiteRoot(url: string): boolean {
  const { pathname } = new URL(url);
  return pathname === '/' || pathname === '';
}

/**
 * Requests of a page still waiting for their answer. A request counts until its response headers
 * arrive, not until its body is read: a single-page app that gets a 401 for its user often never
 * reads the body, and Chromium then never reports the request finished.
 */
class AwaitedRequests {
  private readonly pending = new Set<Request>();
  private lastChange = Date.now();
  private wake: (() => void) | null = null;
  private readonly onRequest = (r: Request) => this.changed(() => this.pending.add(r));
  private readonly onAnswered = (r: Request) => this.changed(() => this.pending.delete(r));
  private readonly onResponse = (res: Response) => this.onAnswered(res.request());

  constructor(private readonly page: Page) {
    page.on('request', this.onRequest);
    page.on('response', this.onResponse);
    page.on('requestfailed', this.onAnswered);
  }

  private changed(apply: () => void): void {
    apply();
    this.lastChange = Date.now();
    this.wake?.();
  }

  /** How long no request has been waiting for an answer (0 while one is). */
  quietFor(): number {
    return this.pending.size ? 0 : Date.now() - this.lastChange;
  }

  /** Resolves at the next request or answer, or after `ms`. */
  change(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(done, ms);
      function done() {
        clearTimeout(timer);
        resolve();
      }
      this.wake = done;
    });
  }

  dispose(): void {
    this.page.off('request', this.onRequest);
    this.page.off('response', this.onResponse);
    this.page.off('requestfailed', this.onAnswered);
    this.wake?.();
  }
}
