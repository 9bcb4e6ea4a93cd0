import type { CodeChannel, LocatedCodePrompt, LocatedForm, PageScan } from '../engine/form-finder.js';
import { markedLocator } from '../engine/form-finder.js';
import { findCode } from '../codes/find-code.js';
import { CodeTimeoutError, MailboxUnavailableError } from '../codes/inbox-hub.js';
import type { MessageSource } from '../codes/code-sources.js';
import { nextUsableTotp } from '../codes/totp.js';
import type { Outcome } from '../engine/outcome-detector.js';
import { LoginFlowError } from '../login-types.js';
import { finishLogin } from './password.step.js';
import type { LoginStep, StepContext, StepResult } from './step-context.js';

export const DEFAULT_CODE_TIMEOUT_MS = 120_000;
const MAX_CODE_SUBMITS = 2;
/** How long after typing the code a page that submits by itself gets to start its request. */
const AUTO_SUBMIT_MS = 100;

type Answer = { kind: 'totp' } | { kind: 'message'; source: MessageSource; channel: 'email' | 'sms' };

/**
 * Which source answers the prompt: the channel the page names when the request can serve it,
 * else the one the login method implies. None: 422 mfa_required saying what to pass.
 */
async function chooseAnswer(channel: CodeChannel | null, ctx: StepContext): Promise<Answer> {
  const { method = 'password', codes } = ctx.deps.req;
  const totp = codes?.totp ? ({ kind: 'totp' } as const) : undefined;
  const email = codes?.email ? ({ kind: 'message', source: codes.email, channel: 'email' } as const) : undefined;
  const sms = codes?.sms ? ({ kind: 'message', source: codes.sms, channel: 'sms' } as const) : undefined;
  // For a password login, mail is only waited for when a mailbox reads the address (else nobody would deliver it).
  const emailUsable =
    email &&
    (method !== 'password' && method !== 'totp' ? email : (await email.source.hasMailbox()) ? email : undefined);
  const byMethod: Record<string, Answer | undefined> = {
    totp,
    otp_email: email,
    magic_link: email,
    otp_sms: sms,
    oauth_google: totp,
    oauth_github: totp,
    password: totp ?? emailUsable ?? sms,
  };
  const byChannel: Record<CodeChannel, Answer | undefined> = {
    authenticator: totp,
    email: emailUsable,
    sms,
  };
  const chosen = channel ? byChannel[channel] : byMethod[method];
  if (chosen) return chosen;
  const needs: Record<CodeChannel, string> = {
    authenticator: 'this site asks for an authenticator (TOTP) code: pass cred.totpSecret',
    email:
      'this site emails a code: use loginMethod "otp_email", or add a mailbox for the address (POST /api/mailboxes)',
    sms: 'this site texts a code: pass additionalFields.phone and forward the SMS to POST /api/login/inbox',
  };
  throw new LoginFlowError(
    'mfa_required',
    channel
      ? `The site asks for a one-time code; ${needs[channel]}`
      : 'The site asks for a one-time code and the request has no source for it: pass cred.totpSecret, use loginMethod "otp_email" or "otp_sms"',
  );
}

/** Waits for the code (the wait has its own bound and does not use the login's budget). */
async function obtainCode(answer: Answer, ctx: StepContext, prompt: LocatedCodePrompt): Promise<string> {
  const { deadline } = ctx;
  if (answer.kind === 'totp') {
    const { code, waitedMs } = await nextUsableTotp(ctx.deps.req.codes!.totp!, {
      wait: (ms) => deadline.pause(ms),
    });
    if (waitedMs) ctx.step(`waited ${Math.round(waitedMs / 1000)} s for the next authenticator code`);
    ctx.step('computed the authenticator (TOTP) code');
    return code;
  }
  const timeoutMs = ctx.deps.req.codeTimeoutMs ?? DEFAULT_CODE_TIMEOUT_MS;
  const where = await answer.source.describe();
  ctx.step(`waiting for the ${answer.channel === 'sms' ? 'SMS' : 'email'} with the code (from ${where})`);
  const started = Date.now();
  deadline.extend(timeoutMs);
  try {
    const length = prompt.prompt.length;
    const code = await answer.source.wait(
      (m) => {
        const c = findCode(m);
        return c && (!length || c.length === length || prompt.prompt.fieldIds.length === 1) ? c : undefined;
      },
      { timeoutMs, signal: deadline.signal },
    );
    ctx.step(`got the code (${answer.channel}, after ${Date.now() - started} ms)`);
    return code;
  } catch (err) {
    throw codeWaitError(err, answer.channel, timeoutMs);
  } finally {
    deadline.extend(-(timeoutMs - Math.min(timeoutMs, Date.now() - started)));
  }
}

/**
 * Turns a failed wait for a message into the login's answer (504 code_timeout, 502 mailbox_unavailable, 409
 * secrets_missing for a mailbox whose password this computer's secret store lacks).
 */
export function codeWaitError(err: unknown, channel: 'email' | 'sms', timeoutMs: number): unknown {
  if (err instanceof CodeTimeoutError)
    return new LoginFlowError(
      'code_timeout',
      `No ${channel === 'sms' ? 'SMS' : 'email'} with a code or sign-in link arrived within ${Math.round(timeoutMs / 1000)} s`,
    );
  if (err instanceof MailboxUnavailableError)
    return new LoginFlowError(err.secretMissing ? 'secrets_missing' : 'mailbox_unavailable', err.message);
  return err;
}

/** Types the code: into the one field, or one character per box (boxes may move focus and auto-submit). */
async function typeCode(ctx: StepContext, located: LocatedCodePrompt, code: string): Promise<void> {
  const { frame, prompt } = located;
  const ids = prompt.fieldIds;
  // From now on the code is one of the login's secrets: no request may carry it to another origin.
  ctx.deps.egress?.addSecret(code);
  await ctx.guardFill(async () => {
    if (ids.length === 1) await ctx.filler.fillText(frame, ids[0], code);
    else for (const [i, id] of ids.entries()) if (code[i]) await ctx.filler.fillText(frame, id, code[i]);
  }, []);
  ctx.step(ids.length === 1 ? 'filled the code' : `filled the code into ${ids.length} boxes`);
}

/** A prompt for a one-time code (after a password or an identifier, or on its own): fill it from the right source. */
export const codeStep: LoginStep = {
  name: 'code',
  applies: (scan) => !!scan.codePrompt,
  async run(scan: PageScan, ctx: StepContext): Promise<StepResult> {
    const located = scan.codePrompt!;
    const { prompt, frame } = located;
    if (ctx.count('code-submits') > MAX_CODE_SUBMITS)
      throw new LoginFlowError('invalid_code', 'The site kept asking for a code after it was entered');
    ctx.step(
      `found a code prompt (${prompt.fieldIds.length > 1 ? `${prompt.fieldIds.length} boxes` : 'one field'}${prompt.channel ? `, ${prompt.channel}` : ''}${prompt.heading ? `, heading '${prompt.heading}'` : ''})`,
    );
    const answer = await chooseAnswer(prompt.channel, ctx);
    const code = await obtainCode(answer, ctx, located);
    ctx.secrets.push(code);
    const first = prompt.fieldIds[0];
    const last = prompt.fieldIds[prompt.fieldIds.length - 1];
    const form: LocatedForm = {
      frame,
      isMainFrame: frame === ctx.page.mainFrame(),
      candidate: {
        kind: 'password',
        score: prompt.score,
        usernameCandidates: [],
        submit: prompt.submit,
        fields: [],
        heading: prompt.heading,
        notes: [],
      },
    };
    // Boxes often submit by themselves when the last one is filled: watch from before the typing.
    const before = await ctx.detector.snapshot(first);
    const bases = {
      navBase: ctx.net.navigationCount(),
      requestBase: ctx.net.requestCount(),
      activityBase: ctx.net.activityCount(),
    };
    await typeCode(ctx, located, code);
    const promptShown = async (): Promise<boolean> => !!(await ctx.finder.scanCodePrompt(ctx.page));
    // A page that submits by itself does so from its input handler: its request shows within a moment.
    await ctx.net.waitForActivity(Math.min(AUTO_SUBMIT_MS, ctx.deadline.remaining()), 0, bases.activityBase);
    const submittedItself = ctx.net.navigationCount() > bases.navBase || ctx.net.requestCount() > bases.requestBase;
    let outcome: Outcome | undefined;
    if (submittedItself) {
      ctx.step('the page submitted the code by itself');
      outcome = await ctx.detector.waitForOutcome(before, { phase: 'code', watchMarker: first, ...bases, promptShown });
    }
    if (!outcome || outcome.kind === 'unsubmitted') {
      outcome = await ctx.submitAndWait(form, markedLocator(frame, last), 'code', first, promptShown);
    }
    if (outcome.kind === 'failure') {
      if (outcome.reason !== 'invalid_credentials') throw ctx.failure(outcome);
      ctx.step(`the site rejected the code: ${outcome.evidence.join('; ')}`);
      throw new LoginFlowError('invalid_code', outcome.message.replace('rejected the login', 'rejected the code'));
    }
    if (outcome.kind !== 'success')
      throw new LoginFlowError('invalid_code', 'Submitting the code had no visible effect');
    ctx.secondFactor = undefined;
    ctx.step(`code accepted (${outcome.evidence.join('; ')})`);
    if (ctx.onProvider()) return { kind: 'next' };
    return finishLogin(ctx, outcome.page);
  },
};
