import type { PageScan } from '../engine/form-finder.js';
import { captureSession } from './password.step.js';
import type { LoginStep, StepContext, StepResult } from './step-context.js';

/**
 * A site protected by HTTP authentication (Basic/Digest): the page itself asked for credentials,
 * the engine answered (see RequestInterceptor) and the site accepted them; no login form follows.
 * The session is what the site set (often nothing: the browser resends the credentials itself).
 */
export const httpAuthStep: LoginStep = {
  name: 'http-auth',
  applies: (scan, ctx) => !scan.form && ctx.deps.interceptor?.answeredLoginChallenge === true,
  async run(_scan: PageScan, ctx: StepContext): Promise<StepResult> {
    ctx.step('login succeeded (the site accepted the HTTP authentication credentials)');
    await ctx.settle();
    return captureSession(ctx);
  },
};
