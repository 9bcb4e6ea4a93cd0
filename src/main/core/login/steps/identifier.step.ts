import { markedLocator, type PageScan } from '../engine/form-finder.js';
import { LoginFlowError } from '../login-types.js';
import { askedSecondFactor } from './password.step.js';
import type { LoginStep, StepContext, StepResult } from './step-context.js';

const MAX_IDENTIFIER_SUBMITS = 2;

/**
 * The first step of an identifier-first flow: a username/email field without a password field.
 * Fills it (or the additional field a first step may ask for instead: workspace, tenant ...) and
 * submits it; the flow then looks at the page again for the password step.
 */
export const identifierStep: LoginStep = {
  name: 'identifier',
  applies: (scan) => scan.form?.candidate.kind === 'identifier',
  async run(scan: PageScan, ctx: StepContext): Promise<StepResult> {
    const form = scan.form!;
    if (ctx.count('identifier-submits') > MAX_IDENTIFIER_SUBMITS) {
      throw new LoginFlowError('login_form_not_found', 'No password field appeared after submitting the username step');
    }
    const field = form.candidate.usernameCandidates[0];
    ctx.step(ctx.describeForm(form));
    const loc = markedLocator(form.frame, field.id);
    // A first step may ask for an additional field instead (workspace, tenant, company ...).
    const preStep = /username|email/.test(field.autocomplete) ? undefined : ctx.claimedByExtras([field], 70)[0];
    await ctx.guardFill(
      async () => {
        if (preStep) {
          await ctx.filler.fillText(form.frame, field.id, ctx.extras[preStep.key]);
          ctx.pendingExtras.delete(preStep.key);
          ctx.step(`filled additional field '${preStep.key}' (first step)`);
        } else {
          await ctx.filler.fillText(form.frame, field.id, ctx.deps.req.username);
          ctx.step('filled username');
        }
        await ctx.fillExtras(form, scan, new Set([field.id]));
      },
      [field],
      { deferVerify: true },
    );
    const outcome = await ctx.submitAndWait(form, loc, 'identifier', field.id);
    // Passwordless sites answer the identifier with a code prompt.
    if (outcome.kind === 'failure' && outcome.reason === 'mfa_required') return askedSecondFactor(ctx, outcome);
    if (outcome.kind === 'failure') throw ctx.failure(outcome);
    if (outcome.kind === 'unsubmitted')
      throw new LoginFlowError('login_form_not_found', 'The username step could not be submitted');
    const evidence = outcome.kind === 'advanced' && outcome.evidence.length ? outcome.evidence.join('; ') : '';
    ctx.step(`username step done (${evidence || 'page changed'})`);
    return { kind: 'next' };
  },
};
