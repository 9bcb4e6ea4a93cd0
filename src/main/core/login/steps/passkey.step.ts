import type { BrowserContext, Page } from 'playwright-core';
import type { Snapshot } from '../engine/outcome-detector.js';
import type { LogSink } from '../../logger.js';
import type { PasskeyUse } from '../passkeys/passkey-types.js';
import { findPasskeyControls, passkeyControlLocator, type PasskeyControl } from '../passkeys/passkey-buttons.js';
import { VirtualAuthenticator } from '../passkeys/virtual-authenticator.js';
import { LoginFlowError } from '../login-types.js';
import { finishLogin } from './password.step.js';
import type { LoginStep, StepContext, StepResult } from './step-context.js';

const MAX_PASSKEY_CLICKS = 3;
/** How long a pending navigator.credentials.get() (a conditional request at page load) is given to be answered. */
const PENDING_GET_MS = 3000;
/** After a click on a passkey control: how long the page has to ask the authenticator. */
const PROMPT_MS = 5000;

/** The page's WebAuthn requests: how many it made and how many wait for an answer (PASSKEY_WATCH_SCRIPT). */
const WATCH_KEY = 'as.webauthn.requests';

/**
 * Counts the page's navigator.credentials.get() calls, and those still waiting for an answer, so the flow
 * knows the page asked for a passkey (a conditional request at load shows nothing on the page).
 */
export const PASSKEY_WATCH_SCRIPT = `(() => {
  const c = navigator.credentials;
  if (!c || typeof c.get !== 'function') return;
  const seen = { calls: 0, pending: 0 };
  window[Symbol.for(${JSON.stringify(WATCH_KEY)})] = seen;
  const get = c.get.bind(c);
  c.get = function (options) {
    seen.calls++;
    seen.pending++;
    const p = get(options);
    p.then(() => seen.pending--, () => seen.pending--);
    return p;
  };
})();`;

/** The look before a passkey ceremony: what the outcome is judged against. */
interface Before {
  snap: Snapshot;
  navBase: number;
  requestBase: number;
  activityBase: number;
  at: number;
}

/**
 * A passkey login's state on its page: the virtual authenticator holding the saved login's passkeys,
 * the passkey controls on the page at the last look, and what the page was before the ceremony.
 */
export class PasskeyLogin {
  controls: PasskeyControl[] = [];
  private judged = 0;
  /** The document (navigation count) whose pending WebAuthn request was already waited for. */
  private waitedOn = -1;
  private readonly clicked = new Set<string>();
  private before?: Before;

  constructor(readonly authenticator: VirtualAuthenticator) {}

  /** After the login: the counters as the authenticator left them go to the vault; the authenticator goes. */
  async finish(use: PasskeyUse, log: LogSink): Promise<void> {
    try {
      await use.saveSignCounts(await this.authenticator.signCounts());
    } catch (err) {
      log.error({ err: err instanceof Error ? err.name : 'error' }, 'passkey counters not saved');
    } finally {
      await this.authenticator.dispose();
    }
  }

  /** Remembers the page as it is now: a ceremony from here on is judged against it. */
  async markBefore(ctx: StepContext): Promise<void> {
    this.before = {
      snap: await ctx.detector.snapshot(),
      navBase: ctx.net.navigationCount(),
      requestBase: ctx.net.requestCount(),
      activityBase: ctx.net.activityCount(),
      at: Date.now(),
    };
  }

  /** Before each step: let a pending WebAuthn request be answered, then look at the authenticator and the page. */
  async look(ctx: StepContext): Promise<void> {
    const nav = ctx.net.navigationCount();
    if (this.waitedOn !== nav) {
      this.waitedOn = nav;
      await this.waitForPageRequest(ctx);
    }
    await this.authenticator.look();
    this.controls = this.answered() ? [] : (await findPasskeyControls(ctx.page)).filter((c) => c.kind === 'sign-in');
  }

  /**
   * Once per document: a request the page made by itself is given time to be answered. A field marked for
   * passkey autofill (autocomplete "webauthn") says a conditional request is coming, though the page's
   * script may make it a moment after the form shows.
   */
  private async waitForPageRequest(ctx: StepContext): Promise<void> {
    const until = Date.now() + ctx.deadline.cap(PENDING_GET_MS);
    const hinted = await autofillField(ctx);
    while (Date.now() < until && (await this.authenticator.look()) === this.judged) {
      const { calls, pending } = await pageRequests(ctx);
      if (!pending && (!hinted || calls > 0)) return;
      await ctx.net.waitForActivity(Math.min(100, ctx.deadline.remaining()), 10);
    }
  }

  answered(): boolean {
    return this.authenticator.asserted > this.judged;
  }

  nextControl(): PasskeyControl | undefined {
    if (this.clicked.size >= MAX_PASSKEY_CLICKS) return undefined;
    return this.controls.find((c) => !this.clicked.has(c.text));
  }

  /** The authenticator signed for the page: judge what the site made of it. */
  async judge(ctx: StepContext): Promise<StepResult> {
    this.judged = this.authenticator.asserted;
    ctx.step('the passkey answered the site’s WebAuthn request');
    const before = this.before ?? (await this.markBeforeNow(ctx));
    const outcome = await ctx.detector.waitForOutcome(before.snap, {
      phase: 'link',
      navBase: before.navBase,
      requestBase: before.requestBase,
      activityBase: before.activityBase,
      submittedAt: before.at,
    });
    if (outcome.kind === 'failure') {
      ctx.step(`the site did not sign in with the passkey: ${outcome.evidence.join('; ')}`);
      throw new LoginFlowError(outcome.reason, outcome.message.replace('rejected the login', 'rejected the passkey'));
    }
    if (outcome.kind !== 'success')
      throw new LoginFlowError('invalid_credentials', 'Signing in with the passkey had no visible effect');
    ctx.step(`login succeeded with the passkey (${outcome.evidence.join('; ')})`);
    return finishLogin(ctx, outcome.page);
  }

  private async markBeforeNow(ctx: StepContext): Promise<Before> {
    await this.markBefore(ctx);
    return this.before!;
  }

  /** Clicks a passkey control and waits for the page to ask the authenticator. */
  async click(ctx: StepContext, control: PasskeyControl): Promise<StepResult> {
    this.clicked.add(control.text);
    await this.markBefore(ctx);
    await ctx.filler.click(passkeyControlLocator(control));
    ctx.step(`clicked '${control.text}'`);
    const until = Date.now() + ctx.deadline.cap(PROMPT_MS);
    while (Date.now() < until) {
      if ((await this.authenticator.look()) > this.judged) return this.judge(ctx);
      await ctx.net.waitForActivity(Math.min(100, ctx.deadline.remaining()), 10);
    }
    ctx.step('the page did not ask for a passkey after the click');
    return { kind: 'next' };
  }
}

async function pageRequests(ctx: StepContext): Promise<{ calls: number; pending: number }> {
  return ctx.page
    .evaluate((key) => {
      const seen = (window as unknown as Record<symbol, { calls: number; pending: number } | undefined>)[
        Symbol.for(key)
      ];
      return { calls: seen?.calls ?? 0, pending: seen?.pending ?? 0 };
    }, WATCH_KEY)
    .catch(() => ({ calls: 0, pending: 0 }));
}

/** A field of the page marked for passkey autofill (conditional UI): autocomplete="username webauthn". */
async function autofillField(ctx: StepContext): Promise<boolean> {
  for (const frame of ctx.page.frames()) {
    const found = await frame
      .evaluate(() =>
        Array.from(document.querySelectorAll('input[autocomplete]')).some((el) =>
          /\bwebauthn\b/i.test(el.getAttribute('autocomplete') ?? ''),
        ),
      )
      .catch(() => false);
    if (found) return true;
  }
  return false;
}

/**
 * The passkey steps of a login with loginMethod "passkey", ahead of the others: the authenticator
 * answered a request the page made by itself (conditional UI at load, a prompt after the username or
 * the password) → judge it; else a "Sign in with a passkey" control → click it. Identifier and
 * password steps follow as usual (the username first, or a site that falls back to its password).
 */
export function passkeySteps(state: PasskeyLogin): LoginStep[] {
  return [
    {
      name: 'passkey answered',
      applies: () => state.answered(),
      run: (_scan, ctx) => state.judge(ctx),
    },
    {
      name: 'passkey control',
      applies: () => state.nextControl() !== undefined,
      run: (_scan, ctx) => state.click(ctx, state.nextControl()!),
    },
  ];
}

/**
 * loginMethod "passkey": a virtual authenticator with the saved login's passkeys on the login page
 * (before it opens), and the watch of the page's WebAuthn requests. The vault gave only passkeys whose
 * RP ID fits the saved login's origins; Chromium itself lets a page use one only on its RP ID's origins.
 */
export async function attachPasskeys(
  ctx: BrowserContext,
  page: Page,
  use: PasskeyUse,
  step: (line: string) => void,
): Promise<PasskeyLogin> {
  if (!use.passkeys.length && use.refusedRpIds.length)
    throw new LoginFlowError(
      'credential_origin_mismatch',
      `The saved login's passkeys are for ${use.refusedRpIds.join(', ')}, which is not among its origins: not used`,
    );
  let authenticator: VirtualAuthenticator;
  try {
    await page.addInitScript(PASSKEY_WATCH_SCRIPT);
    authenticator = await VirtualAuthenticator.attach(ctx, page, use.passkeys);
  } catch (err) {
    throw new LoginFlowError(
      'login_form_not_found',
      `Passkeys need Chromium's DevTools protocol (a virtual authenticator): ${err instanceof Error ? err.message.split('\n')[0] : 'not available'}`,
    );
  }
  step(
    `virtual authenticator ready with ${use.passkeys.length} passkey(s) for ${[...new Set(use.passkeys.map((p) => p.rpId))].join(', ') || 'no site'}`,
  );
  return new PasskeyLogin(authenticator);
}
