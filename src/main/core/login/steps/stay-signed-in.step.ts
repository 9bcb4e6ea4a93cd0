import type { Page } from 'playwright-core';
import type { Deadline } from '../engine/deadline.js';
import type { DomHelpers } from '../engine/dom-helpers.js';
import type { FormFiller } from '../engine/form-filler.js';
import { markedLocator } from '../engine/form-finder.js';
import type { NetworkTracker } from '../engine/network-tracker.js';
import { nextScanId, runInFrame } from '../engine/page-script.js';

export interface StayPrompt {
  /** Marker id of the affirmative button. */
  id: string;
  /** The question, as shown (for the step trace). */
  prompt: string;
  text: string;
}

/**
 * In-page: recognizes a post-login interstitial that asks whether to keep the session ("Stay
 * signed in?", "Trust this browser?", "Save your login info?") and marks its affirmative button.
 * Identity providers (Microsoft, several SSO products, social sites) show it AFTER accepting the
 * password and only hand the session to the site once it is answered. Only a short page with no
 * visible credential/text field and a question matching the pattern counts, so a normal landing
 * page (or a form) is never mistaken for one.
 */
export function findStaySignedInPrompt(_args: Record<string, never>, h: DomHelpers): StayPrompt | null {
  const all = h.allElements();
  const typed = all.filter(
    (el) =>
      (el.tagName === 'INPUT' && h.isTextLike(el)) ||
      (el.tagName === 'INPUT' && (el as HTMLInputElement).type === 'password') ||
      el.tagName === 'TEXTAREA',
  );
  if (typed.some((el) => h.isVisible(el))) return null;
  const body = document.body ? h.textOf(document.body, 4000) : '';
  if (!body || body.length > 2000) return null;
  const question = h.re.staySignedIn.exec(body);
  if (!question) return null;
  let best: { el: Element; text: string; score: number } | undefined;
  for (const el of all) {
    if (!el.matches(h.CLICKABLE) || !h.isVisible(el) || (el as HTMLButtonElement).disabled) continue;
    const text = h.clickableText(el);
    if (!h.re.affirm.test(text)) continue;
    let score = 1;
    const isSubmit =
      (el.tagName === 'BUTTON' && (el as HTMLButtonElement).type === 'submit') ||
      (el.tagName === 'INPUT' && (el as HTMLInputElement).type === 'submit');
    if (isSubmit && (el as HTMLButtonElement).form) score += 2;
    if (el.tagName === 'A') score -= 1;
    if (!best || score > best.score) best = { el, text, score };
  }
  return best ? { id: h.mark(best.el), prompt: question[0], text: best.text } : null;
}

export interface StayPromptDeps {
  page: Page;
  deadline: Deadline;
  net: NetworkTracker;
  filler: FormFiller;
  step: (s: string) => void;
  /** Waits (bounded) for in-flight requests to finish. */
  settle: () => Promise<void>;
}

/**
 * After a successful login: answers a "Stay signed in?" / "Trust this browser?" interstitial with
 * yes (what a user keeping the session does; the site may only receive the session afterwards),
 * then waits for the navigation chain it starts. At most two such prompts in a row. Resolves
 * whether it clicked anything (the page, and maybe the session, changed).
 */
export async function answerStayPrompt(deps: StayPromptDeps): Promise<boolean> {
  const { page, deadline, net } = deps;
  let answered = false;
  for (let i = 0; i < 2; i++) {
    const frame = page.mainFrame();
    const found = await runInFrame(frame, findStaySignedInPrompt, {}, nextScanId());
    if (!found) return answered;
    const navBase = net.navigationCount();
    const started = Date.now();
    try {
      answered = true;
      await deps.filler.click(markedLocator(frame, found.id));
    } catch {
      deadline.check();
      return answered;
    }
    deps.step(`answered '${found.prompt}' with '${found.text}'`);
    const until = started + Math.min(6000, deadline.remaining() / 2);
    while (
      Date.now() < until &&
      !(net.isQuiet(500) && (net.navigationCount() > navBase || Date.now() - started > 1500))
    ) {
      await net.waitForActivity(Math.min(250, Math.max(0, until - Date.now())), 10);
      deadline.check();
    }
    await deps.settle();
  }
  return answered;
}
