import type { PageScan } from '../engine/form-finder.js';
import { unreachableCode } from '../engine/net-errors.js';
import { findSignInLink } from '../codes/find-link.js';
import { LoginFlowError, safeUrl } from '../login-types.js';
import { codeWaitError, DEFAULT_CODE_TIMEOUT_MS } from './code.step.js';
import { finishLogin } from './password.step.js';
import type { LoginStep, StepContext, StepResult } from './step-context.js';

/**
 * A magic-link login after its identifier step ("Check your inbox"): wait for the mail, take the
 * sign-in link to the target site (never unsubscribe/help links or other sites), open it in this
 * login's browser context, and judge the page it leads to.
 */
export const linkStep: LoginStep = {
  name: 'link',
  applies: (_scan: PageScan, ctx: StepContext) =>
    ctx.deps.req.method === 'magic_link' &&
    !!ctx.deps.req.codes?.email &&
    ctx.counted('identifier-submits') > 0 &&
    ctx.counted('links-opened') === 0,
  async run(_scan: PageScan, ctx: StepContext): Promise<StepResult> {
    ctx.count('links-opened');
    const source = ctx.deps.req.codes!.email!;
    const timeoutMs = ctx.deps.req.codeTimeoutMs ?? DEFAULT_CODE_TIMEOUT_MS;
    // The link must lead to the site the login is for: where it started, or where its form was.
    const targets = [ctx.deps.req.url, ctx.page.url()];
    ctx.step(`waiting for the email with the sign-in link (from ${await source.describe()})`);
    const started = Date.now();
    ctx.deadline.extend(timeoutMs);
    let link: string;
    try {
      link = await source.wait(
        (m) => {
          for (const url of targets) {
            const found = findSignInLink(m, { url });
            if (found) return found;
          }
          return undefined;
        },
        { timeoutMs, signal: ctx.deadline.signal },
      );
    } catch (err) {
      throw codeWaitError(err, 'email', timeoutMs);
    } finally {
      ctx.deadline.extend(-(timeoutMs - Math.min(timeoutMs, Date.now() - started)));
    }
    ctx.secrets.push(link);
    ctx.step(`got the sign-in link to ${safeUrl(link)} (after ${Date.now() - started} ms)`);
    const before = await ctx.detector.snapshot();
    const bases = {
      navBase: ctx.net.navigationCount(),
      requestBase: ctx.net.requestCount(),
      activityBase: ctx.net.activityCount(),
    };
    try {
      await ctx.page.goto(link, { waitUntil: 'commit', timeout: ctx.deadline.cap(30_000) });
    } catch (err) {
      ctx.deadline.check();
      const code = unreachableCode(err instanceof Error ? err.message : String(err));
      if (code) throw new LoginFlowError('site_unreachable', `Could not open the sign-in link: ${code}`);
    }
    const outcome = await ctx.detector.waitForOutcome(before, { phase: 'link', ...bases });
    if (outcome.kind === 'failure') {
      ctx.step(`the sign-in link did not sign in: ${outcome.evidence.join('; ')}`);
      throw new LoginFlowError(
        'invalid_code',
        outcome.message.replace('rejected the login', 'rejected the sign-in link'),
      );
    }
    if (outcome.kind !== 'success')
      throw new LoginFlowError('invalid_code', 'Opening the sign-in link had no visible effect');
    ctx.step(`signed in with the link (${outcome.evidence.join('; ')})`);
    return finishLogin(ctx, outcome.page);
  },
};
