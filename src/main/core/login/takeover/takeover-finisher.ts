import type { BrowserContext, BrowserContextOptions, Page } from 'playwright-core';
import type { BrowserMode, LoginBrowser } from '../../../../shared/login-browser.schema.js';
import { API_ROUTES, routeUrl } from '../../../../shared/api/index.js';
import { notFound } from '../../errors.js';
import type { LogSink } from '../../logger.js';
import { captureStorageState } from '../engine/storage-capture.js';
import type { FinishRequest, InteractiveFinisher } from '../interactive/interactive-finisher.js';
import { SignedInCheck } from '../interactive/signed-in-check.js';
import type { SessionStorageState } from '../login-types.js';
import { CODE_ANSWER_MS, typeCodeIntoPage, type TypedCode } from './live-code.js';
import { livePageCsp } from './live-page/live-page.html.js';
import { TakeoverSession, type TakeoverOutcome } from './takeover-session.js';

/** The login browser pool, as far as a live view needs it (login.feature's LazyBrowserPool). */
export interface TakeoverBrowsers {
  withContext<T>(
    fn: (ctx: BrowserContext, presented?: LoginBrowser) => Promise<T>,
    opts?: { signal?: AbortSignal; contextOptions?: BrowserContextOptions; mode?: BrowserMode },
  ): Promise<T>;
}

/** How often the page is looked at for a finished login (besides every load). */
const LOOK_EVERY_MS = 1000;

/**
 * A person finishes a stopped login from any browser: the login's state is opened in a headless page of the
 * login browser pool, streamed at `<server>/live/<login id>#<token>` (live-page/), and handed back on Done or
 * as soon as the page looks signed in (SignedInCheck); Cancel, closing and the time limit give up. Needs the
 * server's address (setBaseUrl, when it listens): without it there is no page to send anyone to.
 */
export class TakeoverFinisher implements InteractiveFinisher {
  /**
   * By token, not by login id: ids are chosen by callers (X-Login-Id), so two organizations may use the same one at
   * once; the token (random, 192 bits) tells their pages apart.
   */
  private readonly sessions = new Map<
    string,
    { session: TakeoverSession; page: Page; act: (a: 'done' | 'cancel') => void; step: (line: string) => void }
  >();
  private baseUrl: string | null = null;

  /** The live page's Content-Security-Policy: framed only by the origins config login.livePageEmbedders names. */
  readonly csp: string;

  constructor(
    private readonly deps: {
      browsers: TakeoverBrowsers;
      log: LogSink;
      /** Origins that may show the live page in a frame (the desktop window): config login.livePageEmbedders. */
      embedders?: readonly string[];
      /**
       * Where a person finishes a login while the server does not listen (no page to send anyone to): the desktop
       * app's own browser window. Without it such a login answers `details.interactive: "unavailable"`.
       */
      fallback?: InteractiveFinisher;
    },
  ) {
    this.csp = livePageCsp(deps.embedders ?? []);
  }

  /** The address the API listens on (http://127.0.0.1:PORT): takeover URLs start with it. */
  setBaseUrl(url: string | null): void {
    this.baseUrl = url;
  }

  /** The live view of the login named in the URL, when the token is its own. */
  find(loginId: string, token: string | undefined): TakeoverSession | undefined {
    const found = token ? this.sessions.get(token)?.session : undefined;
    return found?.loginId === loginId && found.tokenMatches(token) ? found : undefined;
  }

  /** The page a person finishes a login on (the desktop app's own view of it, and tests that play the person). */
  livePage(loginId: string, orgId?: string): Page | undefined {
    for (const { session, page } of this.sessions.values())
      if (session.loginId === loginId && (!orgId || session.orgId === orgId)) return page;
    return undefined;
  }

  /**
   * A one-time code typed into the live page of a login waiting at its second factor (POST /api/login/{id}/code),
   * with the page's answer; the login's steps say both.
   */
  async typeCode(loginId: string, orgId: string, code: string): Promise<TypedCode> {
    const live = [...this.sessions.values()].find((s) => s.session.loginId === loginId && s.session.orgId === orgId);
    if (!live || live.page.isClosed())
      throw notFound(`No login ${loginId} waits for a person on a live page in this organization.`);
    const typed = await typeCodeIntoPage(live.page, code);
    live.step(`typed the code the person gave into '${typed.field}' and submitted it`);
    const { answer } = typed;
    live.step(
      answer.kind === 'rejected'
        ? `the site rejected the code: '${answer.message}'`
        : answer.kind === 'went_on'
          ? 'the code prompt is gone: the site took the code'
          : `the page showed no answer to the code within ${CODE_ANSWER_MS / 1000} s`,
    );
    return typed;
  }

  /** Done or Cancel pressed on the live page (after find accepted the token). */
  act(loginId: string, token: string | undefined, action: 'done' | 'cancel'): void {
    if (this.find(loginId, token)) this.sessions.get(token!)?.act(action);
  }

  async finish(req: FinishRequest): Promise<SessionStorageState | undefined> {
    const baseUrl = this.baseUrl;
    if (!baseUrl && this.deps.fallback) return this.deps.fallback.finish(req);
    if (!baseUrl || !req.loginId || !req.orgId)
      throw new Error('The live view needs the API server to listen (it serves the page a person opens)');
    const { loginId, orgId } = req;
    return this.deps.browsers.withContext(
      async (ctx, presented) => {
        const check = await SignedInCheck.start(ctx);
        const page = await ctx.newPage();
        const session = new TakeoverSession(
          loginId,
          orgId,
          page,
          ctx,
          { reason: req.reason, deadline: Date.now() + req.timeoutMs },
          this.deps.log,
        );
        let outcome: TakeoverOutcome = 'closed';
        let finish!: (state: SessionStorageState | undefined) => void;
        const result = new Promise<SessionStorageState | undefined>((r) => (finish = r));
        let handing = false;
        const handBack = (why: TakeoverOutcome) => {
          if (handing) return;
          handing = true;
          outcome = why;
          req.onStep?.(
            why === 'signed_in'
              ? 'signed in on the live page (a new session cookie, no login form)'
              : 'the person pressed Done on the live page',
          );
          // The state says what this page's browser presented (the login pool's, in the login's mode).
          captureStorageState(ctx, page, req.include).then(
            (state) => finish({ ...state, ...(presented ? { browser: presented } : {}) }),
            (err: Error) => {
              this.deps.log.warn(
                { loginId, err: err.message.split('\n')[0] },
                'could not read the live page’s session',
              );
              outcome = 'failed';
              finish(undefined);
            },
          );
        };
        const giveUp = (why: TakeoverOutcome) => {
          if (handing) return;
          handing = true;
          outcome = why;
          finish(undefined);
        };
        let looking = false;
        const look = async () => {
          if (handing || looking) return;
          looking = true;
          try {
            if (await check.looksSignedIn(ctx, page)) handBack('signed_in');
          } catch {
            // the page navigated during the look: the next one sees it
          } finally {
            looking = false;
          }
        };
        const onAbort = () => giveUp(req.cancel?.aborted ? 'cancelled' : 'timed_out');
        req.signal.addEventListener('abort', onAbort, { once: true });
        const timer = setInterval(() => void look(), LOOK_EVERY_MS);
        page.on('load', () => void look());
        page.on('close', () => giveUp('closed'));
        this.sessions.set(session.token, {
          session,
          page,
          act: (a) => (a === 'done' ? handBack('done') : giveUp('cancelled')),
          step: (line) => req.onStep?.(line),
        });
        try {
          await page
            .goto(req.url, { waitUntil: 'domcontentloaded', timeout: Math.min(req.timeoutMs, 30_000) })
            .catch((err: Error) =>
              this.deps.log.warn({ loginId, err: err.message.split('\n')[0] }, 'live page did not load'),
            );
          await session.start();
          const url = `${baseUrl}${routeUrl(API_ROUTES.livePage, { params: { id: loginId } })}#${session.token}`;
          req.onTakeover?.(url);
          this.deps.log.info({ loginId, reason: req.reason }, 'login waits for a person on its live page');
          if (req.signal.aborted) onAbort();
          return await result;
        } finally {
          clearInterval(timer);
          req.signal.removeEventListener('abort', onAbort);
          this.sessions.delete(session.token);
          await session.end(outcome, ENDINGS[outcome]);
        }
      },
      {
        signal: req.signal,
        mode: req.mode,
        contextOptions: { storageState: req.state as BrowserContextOptions['storageState'], viewport: VIEWPORT },
      },
    );
  }

  async dispose(): Promise<void> {
    for (const { act } of this.sessions.values()) act('cancel');
    await this.deps.fallback?.dispose?.();
  }
}

const VIEWPORT = { width: 1280, height: 800 };

const ENDINGS: Record<TakeoverOutcome, string> = {
  signed_in: 'Signed in. The session went back to the app that asked; you can close this tab.',
  done: 'Done. The session went back to the app that asked; you can close this tab.',
  cancelled: 'Cancelled: the login was given up.',
  timed_out: 'Time is up: the login was given up.',
  closed: 'The page was closed: the login was given up.',
  failed: 'The session could not be read from the page; the login failed.',
};
