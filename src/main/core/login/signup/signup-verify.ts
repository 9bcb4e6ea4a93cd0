import type { MessageSource } from '../codes/code-sources.js';
import { findCode } from '../codes/find-code.js';
import { findSignInLink } from '../codes/find-link.js';
import type { InboundMessage } from '../codes/inbound-message.js';
import { markedLocator, type LocatedCodePrompt } from '../engine/form-finder.js';
import { unreachableCode } from '../engine/net-errors.js';
import { safeUrl } from '../login-types.js';
import { codeWaitError } from '../steps/code.step.js';
import { actionBases, lookNow, waitForSignupOutcome, type SignupLook, type SignupOutcome } from './signup-judge.js';
import { SignupFlowError, type SignupContext } from './signup-types.js';

/** The source the verification message comes from: the request's email (or phone, for an SMS code). */
function messageSource(s: SignupContext, channel: 'email' | 'sms'): MessageSource {
  const source = channel === 'sms' ? s.req.codes?.sms : s.req.codes?.email;
  if (source) return source;
  throw new SignupFlowError(
    'credentials_required',
    channel === 'sms'
      ? 'The site verifies a phone number by SMS: pass additionalFields.phone and forward the SMS to POST /api/login/inbox'
      : 'The site asks to verify an email address: pass one as cred.username or additionalFields.email',
  );
}

/**
 * Waits for the message like a login's code or link step (same sources, same bound: login.codeTimeoutMs,
 * which does not count against the sign-up's own budget; 504 code_timeout, 502 mailbox_unavailable).
 */
async function waitForMessage<T>(
  s: SignupContext,
  source: MessageSource,
  what: string,
  pick: (m: InboundMessage) => T | undefined,
): Promise<T> {
  const timeoutMs = s.req.codeTimeoutMs;
  s.step(`waiting for the ${what} (from ${await source.describe()})`);
  const started = Date.now();
  s.deadline.extend(timeoutMs);
  try {
    const found = await source.wait(pick, { timeoutMs, signal: s.deadline.signal });
    s.step(`got the ${what} (after ${Date.now() - started} ms)`);
    return found;
  } catch (err) {
    throw codeWaitError(err, source.channel, timeoutMs);
  } finally {
    s.deadline.extend(-(timeoutMs - Math.min(timeoutMs, Date.now() - started)));
  }
}

/**
 * "Verify your email": waits for the mail, takes the verification link to the site signed up on
 * (never unsubscribe, help or another site's links: findSignInLink), opens it in this page and judges
 * where it leads.
 */
export async function followVerificationLink(s: SignupContext, sessionBase: SignupLook): Promise<SignupOutcome> {
  const source = messageSource(s, 'email');
  const targets = [s.req.url, s.page.url()];
  const link = await waitForMessage(s, source, 'email with the verification link', (m) => {
    for (const url of targets) {
      const found = findSignInLink(m, { url });
      if (found) return found;
    }
    return undefined;
  });
  s.secrets.push(link);
  const before = await lookNow(s);
  const bases = actionBases(s);
  s.step(`opening the verification link to ${safeUrl(link)}`);
  try {
    await s.page.goto(link, { waitUntil: 'commit', timeout: s.deadline.cap(30_000) });
  } catch (err) {
    s.deadline.check();
    const code = unreachableCode(err instanceof Error ? err.message : String(err));
    if (code) throw new SignupFlowError('site_unreachable', `Could not open the verification link: ${code}`);
  }
  return waitForSignupOutcome(s, before, bases, sessionBase);
}

/**
 * A verification code prompt: waits for the code (email, or SMS when the page says so), types it into
 * the field or the boxes, submits unless the boxes did, and judges the page.
 */
export async function submitVerificationCode(
  s: SignupContext,
  located: LocatedCodePrompt,
  sessionBase: SignupLook,
): Promise<SignupOutcome> {
  const channel = located.prompt.channel === 'sms' ? 'sms' : 'email';
  const expected = located.prompt.length;
  const code = await waitForMessage(
    s,
    messageSource(s, channel),
    `${channel === 'sms' ? 'SMS' : 'email'} with the verification code`,
    (m) => {
      const c = findCode(m);
      return c && (!expected || c.length === expected || located.prompt.fieldIds.length === 1) ? c : undefined;
    },
  );
  s.secrets.push(code);
  // The page may have re-rendered during the wait: look for the prompt again.
  const { frame, prompt } = (await s.finder.scanCodePrompt(s.page)) ?? located;
  const ids = prompt.fieldIds;
  const before = await lookNow(s);
  const bases = actionBases(s);
  if (ids.length === 1) await s.filler.fillText(frame, ids[0], code);
  else for (const [i, id] of ids.entries()) if (code[i]) await s.filler.fillText(frame, id, code[i]);
  await s.filler.verifyFills();
  s.step(ids.length === 1 ? 'filled the verification code' : `filled the verification code into ${ids.length} boxes`);
  // Boxes often submit by themselves once the last one is filled.
  await s.net.waitForActivity(Math.min(300, s.deadline.remaining()), 0, bases.activityBase);
  if (s.net.navigationCount() === bases.navBase && s.net.requestCount() === bases.requestBase) {
    const candidate = {
      kind: 'password' as const,
      score: prompt.score,
      usernameCandidates: [],
      submit: prompt.submit,
      fields: [],
      heading: prompt.heading,
      notes: [],
    };
    const mode = prompt.submit ? 'button' : 'enter';
    try {
      s.step(await s.filler.submit(frame, candidate, markedLocator(frame, ids[ids.length - 1]), mode));
    } catch {
      s.deadline.check();
      s.step(`submitting the code by ${mode} reported an error; checking the page`);
    }
  } else s.step('the page submitted the code by itself');
  return waitForSignupOutcome(s, before, bases, sessionBase);
}
