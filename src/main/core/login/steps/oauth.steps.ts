import type { Page } from 'playwright-core';
import { markedLocator, type PageScan } from '../engine/form-finder.js';
import { scanProviderChoice, type ProviderChoice } from '../engine/idp-scan.js';
import { nextScanId, runInFrame } from '../engine/page-script.js';
import { LoginFlowError, safeUrl } from '../login-types.js';
import { finishLogin } from './password.step.js';
import type { LoginStep, StepContext, StepResult } from './step-context.js';

const MAX_IDP_CLICKS = 2;
const MAX_CHOICES = 4;
/** How long a click on the provider button may take to open a popup or start a navigation. */
const POPUP_WAIT_MS = 3000;

/** Runs the identity provider's pages in a popup window until it closes (set by the flow). */
export type PopupRunner = (popup: Page) => Promise<void>;

const origin = (url: string): string => {
  try {
    return new URL(url).origin;
  } catch {
    return '';
  }
};

/** A step that runs only on the identity provider's own origins (the provider's password is typed only there). */
export function onlyOnProvider(step: LoginStep): LoginStep {
  return { ...step, applies: (scan, ctx) => ctx.onProvider() && step.applies(scan, ctx) };
}

/** In a popup window: a login form anywhere but on the provider's origins is refused. */
export const unexpectedInPopupStep: LoginStep = {
  name: 'unexpected identity provider',
  applies: (scan, ctx) => !!scan.form && !ctx.onProvider(),
  run: (scan, ctx) => {
    ctx.count('idp-clicks');
    return unexpectedProviderStep.run(scan, ctx);
  },
};

/** Origins that belong to the site: where the login started and the pages seen before the provider. */
function siteOrigins(ctx: StepContext): Set<string> {
  const set = ctx.memo('site origins');
  if (!set.size) set.add(origin(ctx.deps.req.url));
  return set;
}

function providerVisited(ctx: StepContext): boolean {
  return ctx.memo('provider visited').size > 0;
}

/** Notes what the page is, for the oauth steps: a site page before the provider, or the provider. */
export function noteOauthPage(ctx: StepContext): void {
  if (ctx.onProvider()) ctx.memo('provider visited').add('yes');
  else if (!providerVisited(ctx) && ctx.counted('idp-clicks') === 0) siteOrigins(ctx).add(origin(ctx.page.url()));
}

/**
 * A login form on an origin that is neither the site nor the configured identity provider: the
 * provider's password is never typed there (a look-alike page, or a provider proxy that is not configured).
 */
export const unexpectedProviderStep: LoginStep = {
  name: 'unexpected identity provider',
  applies: (scan, ctx) =>
    !!scan.form && !ctx.onProvider() && ctx.counted('idp-clicks') > 0 && !siteOrigins(ctx).has(origin(ctx.page.url())),
  run(_scan: PageScan, ctx: StepContext): Promise<StepResult> {
    const where = origin(ctx.page.url());
    ctx.step(`a login form on ${where}, which is not the identity provider's configured origin`);
    throw new LoginFlowError(
      'unexpected_identity_provider',
      `The sign-in went to ${where}, which is not one of the identity provider's origins (login.oauth.${ctx.deps.req.oauth!.provider}.origins); the password was not typed there`,
    );
  },
};

/** On the site: press "Continue with Google" / "Sign in with GitHub" (a redirect, or a popup window). */
export function idpButtonStep(runPopup: PopupRunner): LoginStep {
  return {
    name: 'identity provider button',
    applies: (scan, ctx) =>
      !ctx.onProvider() && scan.idpButtons.length > 0 && ctx.counted('idp-clicks') < MAX_IDP_CLICKS,
    async run(scan: PageScan, ctx: StepContext): Promise<StepResult> {
      ctx.count('idp-clicks');
      const { frame, button } = scan.idpButtons[0];
      const loc = markedLocator(frame, button.id);
      await loc.evaluate((el) => el.closest('a')?.removeAttribute('target')).catch(() => {});
      const before = await ctx.detector.snapshot();
      const bases = {
        navBase: ctx.net.navigationCount(),
        requestBase: ctx.net.requestCount(),
        activityBase: ctx.net.activityCount(),
      };
      const popup = ctx.page.waitForEvent('popup', { timeout: ctx.deadline.cap(POPUP_WAIT_MS) }).catch(() => undefined);
      await ctx.filler.click(loc);
      ctx.step(`clicked '${button.text}' ${button.isLink ? 'link' : 'button'}`);
      // A redirect shows up as a navigation of this page; a popup as a new page.
      const opened = await Promise.race([
        popup,
        ctx.net.waitForActivity(POPUP_WAIT_MS, 0, bases.activityBase).then(async () => {
          const nav = ctx.net.navigationCount() > bases.navBase || ctx.net.documentPending();
          return nav ? undefined : popup;
        }),
      ]);
      if (!opened) return { kind: 'next' };
      ctx.step(`the identity provider opened in a popup window (${safeUrl(opened.url())})`);
      ctx.memo('provider visited').add('popup');
      await runPopup(opened);
      ctx.step('the popup window closed; back on the site');
      const outcome = await ctx.detector.waitForOutcome(before, { phase: 'link', ...bases });
      if (outcome.kind === 'failure') throw ctx.failure(outcome);
      if (outcome.kind !== 'success')
        throw new LoginFlowError('invalid_credentials', 'The site did not sign in after the identity provider');
      ctx.step(`login succeeded (${outcome.evidence.join('; ')})`);
      return finishLogin(ctx, outcome.page);
    },
  };
}

async function choiceOnPage(
  ctx: StepContext,
): Promise<{ frame: PageScan['idpButtons'][number]['frame']; choice: ProviderChoice } | undefined> {
  const id = nextScanId();
  for (const frame of ctx.page.frames()) {
    const choice = await runInFrame(frame, scanProviderChoice, { account: ctx.deps.req.username }, id);
    if (choice) return { frame, choice };
  }
  return undefined;
}

/** At the provider, a page without a form: pick the account in an account chooser, or grant access on consent. */
export const providerChoiceStep: LoginStep = {
  name: 'identity provider choice',
  applies: (scan, ctx) => ctx.onProvider() && !scan.form && !scan.codePrompt,
  async run(_scan: PageScan, ctx: StepContext): Promise<StepResult> {
    if (ctx.count('provider-choices') > MAX_CHOICES)
      throw new LoginFlowError('login_form_not_found', "The identity provider's pages kept asking; giving up");
    const found = await choiceOnPage(ctx);
    if (!found) {
      const blocked = await ctx.blockedOnPage();
      if (blocked) throw blocked;
      throw new LoginFlowError(
        'login_form_not_found',
        `Nothing to do on the identity provider's page ${safeUrl(ctx.page.url())} (no form, account or consent button)`,
      );
    }
    const before = ctx.page.url();
    await ctx.filler.click(markedLocator(found.frame, found.choice.id));
    // The next look must be at the page this leads to, not at the chooser or consent page again.
    await ctx.page
      .waitForURL((u) => u.href !== before, { timeout: ctx.deadline.cap(5000), waitUntil: 'commit' })
      .catch(() => ctx.deadline.check());
    ctx.step(
      found.choice.kind === 'account'
        ? "picked the account in the identity provider's account chooser"
        : `granted access on the identity provider's consent screen ('${found.choice.text}')`,
    );
    return { kind: 'next' };
  },
};

/** Back on the site after the provider: signed in unless the site shows a login (or the provider button) again. */
export const returnedFromProviderStep: LoginStep = {
  name: 'back from the identity provider',
  applies: (_scan, ctx) => providerVisited(ctx) && !ctx.onProvider(),
  async run(scan: PageScan, ctx: StepContext): Promise<StepResult> {
    if (scan.form || scan.idpButtons.length) {
      const snap = await ctx.detector.snapshot();
      const error = snap.signals.messages[0];
      throw new LoginFlowError(
        'invalid_credentials',
        error
          ? `The site did not sign in after the identity provider: '${error}'`
          : 'The site showed its sign-in page again after the identity provider',
      );
    }
    ctx.step(`back on the site at ${safeUrl(ctx.page.url())}, signed in`);
    return finishLogin(ctx);
  },
};
