import { markedLocator, type LocatedForm, type PageScan } from '../engine/form-finder.js';
import type { ScannedField } from '../engine/form-scan.js';
import type { Outcome, SuccessPage } from '../engine/outcome-detector.js';
import { captureStorageState } from '../engine/storage-capture.js';
import { LoginFlowError, type SessionStorageState } from '../login-types.js';
import type { LoginStep, StepContext, StepResult } from './step-context.js';
import { answerStayPrompt } from './stay-signed-in.step.js';

/** Picks the username field, skipping one that an additional field key names exactly. */
function pickUsername(form: LocatedForm, ctx: StepContext): ScannedField | undefined {
  const candidates = form.candidate.usernameCandidates.filter((f) => f.score > 0 && f.editable);
  const claimed = new Set(
    ctx
      .claimedByExtras(candidates, 100)
      .filter((m) => !/username|email/.test(m.field.autocomplete))
      .map((m) => m.field.id),
  );
  return candidates.find((f) => !claimed.has(f.id));
}

/**
 * A form with a password field (and usually the username): fill, submit, judge. On success the
 * stay-signed-in step runs and the session (cookies, localStorage) is captured.
 */
export const passwordStep: LoginStep = {
  name: 'password',
  applies: (scan) => scan.form?.candidate.kind === 'password',
  async run(scan: PageScan, ctx: StepContext): Promise<StepResult> {
    const form = scan.form!;
    const pw = form.candidate.password!;
    ctx.step(ctx.describeForm(form));
    if (!ctx.deps.req.password)
      throw new LoginFlowError('credentials_required', 'The site asks for a password: pass it in cred.password');
    const user = pickUsername(form, ctx);
    const pwLoc = markedLocator(form.frame, pw.id);
    await ctx.guardFill(
      async () => {
        if (user) {
          await ctx.filler.fillText(form.frame, user.id, ctx.deps.req.username);
          const name = user.label || user.name || user.htmlId || user.placeholder || 'unnamed';
          ctx.step(`filled username (${user.kind} field '${name}')`);
        } else {
          ctx.step('no username field on this step; filling the password only');
        }
        await ctx.filler.fillText(form.frame, pw.id, ctx.deps.req.password);
        ctx.step('filled password');
        await ctx.fillExtras(form, scan, new Set([pw.id, ...(user ? [user.id] : [])]));
      },
      user ? [pw, user] : [pw],
      { deferVerify: true },
    );
    for (const k of ctx.pendingExtras) ctx.step(`additional field '${k}' not found on the page`);
    ctx.pendingExtras.clear();

    const outcome = await ctx.submitAndWait(form, pwLoc, 'password', pw.id);
    if (outcome.kind === 'failure' && outcome.reason === 'mfa_required') return askedSecondFactor(ctx, outcome);
    if (outcome.kind === 'failure') throw ctx.failure(outcome);
    if (outcome.kind !== 'success') {
      // Nothing left the page, whichever way it was submitted: nothing was said about the credentials either.
      throw new LoginFlowError(
        'no_outcome',
        'Submitting the login form had no visible effect (no navigation, request or message)',
      );
    }
    // At an identity provider, signing in there is one step: its consent screen and the way back follow.
    if (ctx.onProvider()) {
      ctx.step(`signed in at the identity provider (${outcome.evidence.join('; ')})`);
      return { kind: 'next' };
    }
    ctx.step(`login succeeded (${outcome.evidence.join('; ')})`);
    return finishLogin(ctx, outcome.page);
  },
};

/** A second-factor prompt after a submit: the flow looks at it next (a code step may answer it). */
export function askedSecondFactor(
  ctx: StepContext,
  outcome: Extract<Outcome, { kind: 'failure' }>,
): Extract<StepResult, { kind: 'next' }> {
  ctx.secondFactor = outcome;
  ctx.step(`the site asks for a second factor (${outcome.evidence.join('; ')})`);
  return { kind: 'next' };
}

/**
 * After a successful submit (password, code or sign-in link): let the page settle, answer a
 * stay-signed-in interstitial, and capture the session. `seen`: what the look that found the
 * success saw; when the page is still that document and it could not be an interstitial, the
 * session is captured without another look.
 */
export async function finishLogin(
  ctx: StepContext,
  seen?: SuccessPage,
): Promise<Extract<StepResult, { kind: 'done' }>> {
  await ctx.settle();
  if (seen && !seen.stayPrompt && seen.navigation === ctx.net.navigationCount()) return captureSession(ctx);
  // Usually there is no stay-signed-in interstitial: capture the session while looking for one,
  // and capture again only when one was answered (the click may change the session).
  const [answered, captured] = await Promise.all([
    answerStayPrompt({
      page: ctx.page,
      deadline: ctx.deadline,
      net: ctx.net,
      filler: ctx.filler,
      step: (s) => ctx.step(s),
      settle: () => ctx.settle(),
    }),
    captureStorageState(ctx.deps.ctx, ctx.page, ctx.storageToCapture()).catch(() => undefined),
  ]);
  return captureSession(ctx, answered ? undefined : captured);
}

/** The login's result: `captured` when already taken after the last change to the page, else read now. */
export async function captureSession(
  ctx: StepContext,
  captured?: SessionStorageState,
): Promise<Extract<StepResult, { kind: 'done' }>> {
  const include = ctx.storageToCapture();
  const storageState = captured ?? (await captureStorageState(ctx.deps.ctx, ctx.page, include));
  const withStorage = storageState.origins.filter((o) => o.localStorage.length).length;
  ctx.step(`captured ${storageState.cookies.length} cookie(s) and localStorage of ${withStorage} origin(s)`);
  const unasked = ctx.storageNotAsked();
  if (unasked.length)
    ctx.step(`the session is kept in ${unasked.join(' and ')}: captured it too (not asked for in include)`);
  return { kind: 'done', storageState, finalUrl: ctx.page.url() };
}
