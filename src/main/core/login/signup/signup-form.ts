import type { Frame } from 'playwright-core';
import type { FormCandidate, ScannedButton } from '../engine/form-finder.js';
import { markedLocator } from '../engine/form-finder.js';
import { lastActiveAt, pageActivity } from '../engine/page-activity.js';
import { nextScanId, runInFrame } from '../engine/page-script.js';
import { fillSignupForm } from './signup-filler.js';
import { actionBases, lookNow, waitForSignupOutcome, type SignupLook, type SignupOutcome } from './signup-judge.js';
import { SIGNUP_FIELD_KEYWORDS } from './signup-keywords.js';
import { PASSKEY_KEYWORDS } from '../passkeys/passkey-keywords.js';
import { CREATE_MS, waitForCredential } from '../passkeys/passkey-on-site.js';
import type { StoredPasskey } from '../passkeys/passkey-types.js';
import { scanSignupPage, type SignupForm, type SignupPageScan, type SignupScanArgs } from './signup-scan.js';
import { SignupFlowError, type SignupContext } from './signup-types.js';

export interface LocatedSignupForm {
  frame: Frame;
  form: SignupForm;
}

/** How long the network and the DOM must stay unchanged before a page without a sign-up form counts as settled. */
const QUIET_MS = 800;
/** The longest a page that keeps changing is watched for a sign-up form. */
const SETTLE_BOUND_MS = 15_000;
/** Sign-up links followed at most (a landing page, then a login page, then the form). */
const MAX_HOPS = 2;

async function scanFrames(
  s: SignupContext,
): Promise<{ form?: LocatedSignupForm; links: { frame: Frame; button: ScannedButton }[]; rejected: string[] }> {
  const id = nextScanId();
  const scans = await Promise.all(
    s.page.frames().map(async (frame) => ({
      frame,
      scan: await runInFrame<SignupScanArgs, SignupPageScan>(
        frame,
        scanSignupPage,
        { kw: SIGNUP_FIELD_KEYWORDS, ...(s.req.passkey ? { passkey: PASSKEY_KEYWORDS } : {}) },
        id,
      ),
    })),
  );
  let form: LocatedSignupForm | undefined;
  const links: { frame: Frame; button: ScannedButton }[] = [];
  const rejected: string[] = [];
  for (const { frame, scan } of scans) {
    if (!scan) continue;
    rejected.push(...scan.rejected);
    if (scan.form && (!form || scan.form.score > form.form.score)) form = { frame, form: scan.form };
    for (const button of scan.signUpLinks) links.push({ frame, button });
  }
  links.sort((a, b) => b.button.score - a.button.score);
  return { form, links, rejected };
}

/**
 * The sign-up form of the page, looked for until the page has settled; without one, follows the best
 * "Sign up" / "Create account" control (a login page's link to the sign-up page), at most MAX_HOPS times.
 */
export async function findSignupForm(s: SignupContext): Promise<LocatedSignupForm> {
  const followed = new Set<string>();
  const reported = new Set<string>();
  let start = Date.now();
  let consentTried = false;
  for (;;) {
    s.deadline.check();
    const found = await scanFrames(s);
    for (const r of found.rejected) {
      if (reported.has(r)) continue;
      reported.add(r);
      s.step(r);
    }
    if (found.form) {
      const { form } = found.form;
      s.step(
        `found the sign-up form${form.heading ? ` under heading '${form.heading}'` : ''} (score ${form.score}: ${form.notes.join(', ')})`,
      );
      return found.form;
    }
    const elapsed = Date.now() - start;
    if (elapsed < SETTLE_BOUND_MS) {
      const settled =
        elapsed > 1000 &&
        s.net.isSettled(QUIET_MS, start) &&
        (await pageActivity(s.page).then((a) => !a.busy && Date.now() - lastActiveAt(a) >= QUIET_MS));
      if (!settled) {
        await s.net.waitForActivity(Math.min(250, s.deadline.remaining()), 30);
        continue;
      }
    }
    // A consent dialog may hide the page: accept it once and look again.
    if (!consentTried) {
      consentTried = true;
      if (await s.filler.dismissConsent()) continue;
    }
    const link = found.links.find((l) => !followed.has(l.button.text));
    if (!link || followed.size >= MAX_HOPS) {
      throw new SignupFlowError(
        'signup_form_not_found',
        followed.size
          ? 'No sign-up form found, also after following sign-up links'
          : 'No sign-up form (new-password field) or "Sign up" / "Create account" link found on the page',
      );
    }
    followed.add(link.button.text);
    s.step(`following sign-up ${link.button.isLink ? 'link' : 'control'} '${link.button.text}'`);
    await s.filler.click(markedLocator(link.frame, link.button.id));
    await s.net.waitForActivity(Math.min(1000, s.deadline.remaining()), 0);
    start = Date.now();
  }
}

/** After the passkey control's click: the credential the page asked for, or none once the page went quiet. */
async function waitForNewPasskey(s: SignupContext): Promise<StoredPasskey | undefined> {
  const clicked = Date.now();
  for (;;) {
    const made = await waitForCredential(s.authenticator!, 0);
    const waited = Date.now() - clicked;
    // The ceremony is a request for options, the authenticator's answer, a request to verify: a page quiet for
    // a second after the click is not asking for a passkey (it showed an error, or needs something else).
    if (made || waited > Math.min(CREATE_MS, s.deadline.remaining()) || (waited > 1500 && s.net.isQuiet(1000)))
      return made;
    await new Promise((r) => setTimeout(r, 150));
  }
}

/**
 * Fills the form and submits it (button, then Enter, then requestSubmit when nothing happened), then
 * judges the page. `sessionBase` is the look before the first submit.
 */
export async function submitSignupForm(
  s: SignupContext,
  located: LocatedSignupForm,
): Promise<{ outcome: SignupOutcome; sessionBase: SignupLook }> {
  let current = located;
  let watch;
  try {
    watch = await fillSignupForm(s, current.frame, current.form);
  } catch (err) {
    s.deadline.check();
    if (err instanceof SignupFlowError) throw err;
    // The form re-rendered under us (a script replaced it): find it again, once.
    s.step('the sign-up form changed while being filled; looking again');
    current = await findSignupForm(s);
    watch = await fillSignupForm(s, current.frame, current.form);
  }
  const { frame, form } = current;
  const candidate: FormCandidate = {
    kind: 'password',
    score: form.score,
    usernameCandidates: [],
    submit: form.submit,
    fields: [],
    heading: form.heading,
    notes: form.notes,
  };
  // A passkey form is sent by its passkey control: the site asks the authenticator for a new credential.
  const modes = form.passkey
    ? (['passkey'] as const)
    : form.submit
      ? (['button', 'enter', 'request'] as const)
      : (['enter', 'request'] as const);
  let sessionBase: SignupLook | undefined;
  let outcome: SignupOutcome = { kind: 'unsubmitted' };
  for (const mode of modes) {
    if (mode !== modes[0]) s.step('no reaction to the submit; trying another way');
    const before = await lookNow(s);
    sessionBase ??= before;
    const bases = actionBases(s);
    try {
      if (mode === 'passkey') {
        await s.filler.clickMarked(frame, form.passkey!.id);
        s.step(`clicked the passkey control '${form.passkey!.text}'`);
      } else s.step(await s.filler.submit(frame, candidate, markedLocator(frame, watch.id), mode));
    } catch {
      s.deadline.check();
      s.step(`submit by ${mode} reported an error; checking the page`);
    }
    if (mode === 'passkey' && s.authenticator) {
      const made = await waitForNewPasskey(s);
      if (made) s.madePasskey = { passkey: made, madeOn: frame.url() };
      s.step(made ? 'the authenticator made a passkey for the site' : 'the page did not ask for a new passkey');
    }
    outcome = await waitForSignupOutcome(s, before, bases, sessionBase);
    if (outcome.kind !== 'unsubmitted') break;
  }
  return { outcome, sessionBase: sessionBase! };
}
