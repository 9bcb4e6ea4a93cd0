import type { Frame } from 'playwright-core';
import { markedLocator, type PageScan } from '../engine/form-finder.js';
import { unreachableCode } from '../engine/net-errors.js';
import { LoginFlowError, safeUrl } from '../login-types.js';
import type { LoginStep, StepContext, StepResult } from './step-context.js';

const MAX_SIGNIN_CLICKS = 3;

type SignInLink = PageScan['signInLinks'][number];

const linkKey = (l: SignInLink): string => `${l.button.text}|${l.button.isLink}|${l.button.hiddenHref ?? ''}`;

function followedBy(ctx: StepContext): Set<string> {
  return ctx.memo('sign-in links followed');
}

function nextLink(scan: PageScan, ctx: StepContext): SignInLink | undefined {
  const done = followedBy(ctx);
  if (done.size >= MAX_SIGNIN_CLICKS) return undefined;
  return scan.signInLinks.find((l) => !done.has(linkKey(l)));
}

/** Whether any sign-in link was followed (for the "no login form" message). */
export function followedSignInLinks(ctx: StepContext): number {
  return followedBy(ctx).size;
}

async function clickSignIn(ctx: StepContext, frame: Frame, id: string, text: string, isLink: boolean): Promise<void> {
  const loc = markedLocator(frame, id);
  // Keep the flow in this tab: a sign-in link with target=_blank would open a page we do not watch.
  await loc.evaluate((el) => el.closest('a')?.removeAttribute('target')).catch(() => {});
  await ctx.filler.click(loc);
  // No waiting here: the flow watches the page until a form shows up or the page settles.
  ctx.step(`clicked '${text}' ${isLink ? 'link' : 'button'}`);
}

/** A sign-in link exists but sits in a collapsed menu: go where it points. */
async function followHiddenLink(ctx: StepContext, href: string, text: string): Promise<void> {
  try {
    await ctx.page.goto(href, { waitUntil: 'domcontentloaded', timeout: ctx.deadline.cap(30_000) });
  } catch (err) {
    ctx.deadline.check();
    const code = unreachableCode(err instanceof Error ? err.message : String(err));
    if (code) throw new LoginFlowError('site_unreachable', `Could not open the sign-in page: ${code}`);
  }
  ctx.step(`followed hidden '${text}' link to ${safeUrl(ctx.page.url())}`);
}

/** A landing page without a form but with a "Sign in"/"Log in" link or button (never "Sign up"). */
export const signInLinkStep: LoginStep = {
  name: 'sign-in link',
  applies: (scan, ctx) => nextLink(scan, ctx) !== undefined,
  async run(scan: PageScan, ctx: StepContext): Promise<StepResult> {
    const link = nextLink(scan, ctx)!;
    followedBy(ctx).add(linkKey(link));
    if (link.button.hiddenHref) await followHiddenLink(ctx, link.button.hiddenHref, link.button.text);
    else await clickSignIn(ctx, link.frame, link.button.id, link.button.text, link.button.isLink);
    return { kind: 'next' };
  },
};
