import type { BrowserContext, Page } from 'playwright-core';
import { Deadline, LoginTimeoutError } from './deadline.js';
import { LoginFlow, unreachableCode } from './login-flow.js';
import {
  createNoopLogger,
  LoginFlowError,
  safeUrl,
  type LoginFailureReason,
  type LoginRequest,
  type LoginResult,
  type Logger,
} from './login-types.js';

export type { LoginFailureReason, LoginRequest, LoginResult, Logger } from './login-types.js';

export const DEFAULT_LOGIN_TIMEOUT_MS = 60_000;

/**
 * Generic password login on an arbitrary site, in a context the caller owns (see BrowserPool).
 * Resolves with a LoginResult for every login outcome; rejects only when the caller's signal
 * aborts or the browser itself fails (e.g. it crashed).
 */
export class LoginEngine {
  private readonly log: Logger;

  constructor(deps: { log?: Logger } = {}) {
    this.log = deps.log ?? createNoopLogger();
  }

  async login(ctx: BrowserContext, req: LoginRequest, signal?: AbortSignal): Promise<LoginResult> {
    const steps: string[] = [];
    const timeoutMs = req.timeoutMs ?? DEFAULT_LOGIN_TIMEOUT_MS;
    const deadline = new Deadline(timeoutMs, signal);
    const started = Date.now();
    let page: Page | undefined;
    let flow: LoginFlow | undefined;
    const fail = (reason: LoginFailureReason, message: string): LoginResult => {
      const finalUrl = page && !page.isClosed() ? page.url() : undefined;
      this.log.info({ url: safeUrl(req.url), reason, ms: Date.now() - started }, 'login failed');
      return { ok: false, reason, message, ...(finalUrl && finalUrl !== 'about:blank' ? { finalUrl } : {}), steps: [...steps] };
    };
    try {
      deadline.check();
      page = await ctx.newPage();
      flow = new LoginFlow({ ctx, page, req, deadline, log: this.log, steps });
      const result = await deadline.race(flow.run());
      this.log.info({ url: safeUrl(req.url), ms: Date.now() - started }, 'login succeeded');
      return { ok: true, storageState: result.storageState, finalUrl: result.finalUrl, steps: [...steps] };
    } catch (err) {
      if (signal?.aborted) throw err;
      if (err instanceof LoginTimeoutError) {
        steps.push(`gave up after ${timeoutMs} ms`);
        return fail('timeout', err.message);
      }
      if (err instanceof LoginFlowError) return fail(err.reason, err.message);
      const message = err instanceof Error ? err.message : String(err);
      const code = unreachableCode(message);
      if (code) return fail('site_unreachable', `Could not reach the site: ${code}`);
      this.log.error({ url: safeUrl(req.url), err: err instanceof Error ? err.name : 'error' }, 'login crashed');
      throw err;
    } finally {
      flow?.dispose();
      await page?.close().catch(() => {});
    }
  }
}
