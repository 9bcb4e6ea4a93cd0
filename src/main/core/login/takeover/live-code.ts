// POST /api/login/{id}/code: a one-time code a person gave (an agent asked its user, MCP form elicitation) typed into
// the live page of a login that waits for a person at its second factor — as the person would type it there — and
// what the page answered to it, read from the page's own events.
import type { Page } from 'playwright-core';
import { AppError } from '../../errors.js';
import { FormFinder, markedLocator } from '../engine/form-finder.js';
import { takeSnapshot } from '../engine/page-snapshot.js';

/** How long a typed code's page gets to submit by itself (boxes that send the last digit) before we press submit. */
const AUTO_SUBMIT_MS = 300;
/**
 * The most a page gets to answer a code (its error shown, or the prompt gone). The answer is taken as soon as the
 * page changes to say it; this bound only ends the wait on a page that says nothing.
 */
export const CODE_ANSWER_MS = 10_000;

/**
 * What the page did with the code. rejected: it still asks for a code and shows a new error (its words, the code
 * masked); went_on: the code prompt is gone (the login goes on: signed in, or a next step); silent: neither
 * within CODE_ANSWER_MS.
 */
export type CodeAnswer = { kind: 'rejected'; message: string } | { kind: 'went_on' } | { kind: 'silent' };

export interface TypedCode {
  /** What the code went into (the prompt's heading, secret-free). */
  field: string;
  answer: CodeAnswer;
}

/**
 * Finds the page's code prompt with the engine's own scan (one field, or a row of one-character boxes, in any
 * frame), types the code key by key (pages listen for key events, not values), and submits it with the prompt's
 * button, else Enter — unless the page navigated by itself after the last key. Then waits for the page's answer.
 * A page without a prompt is a 409: the person may have moved on.
 */
export async function typeCodeIntoPage(page: Page, code: string): Promise<TypedCode> {
  const digits = code.replace(/[\s-]/g, '');
  const finder = new FormFinder();
  const located = await finder.scanCodePrompt(page).catch(() => undefined);
  if (!located)
    throw new AppError(
      409,
      'no_code_field',
      'The live page shows no field for a one-time code (look at it on the page).',
    );
  const { frame, prompt } = located;
  const ids = prompt.fieldIds;
  const before = page.url();
  const shownBefore = new Set(await errorLines(page));
  let navigated = false;
  const onNavigated = (f: unknown) => {
    if (f === page.mainFrame()) navigated = true;
  };
  page.on('framenavigated', onNavigated);
  try {
    if (ids.length === 1) {
      const field = markedLocator(frame, ids[0]!);
      await field.fill('');
      await field.pressSequentially(digits);
    } else {
      for (const [i, id] of ids.entries()) if (digits[i]) await markedLocator(frame, id).pressSequentially(digits[i]!);
    }
    await page.waitForURL((u) => u.toString() !== before, { timeout: AUTO_SUBMIT_MS }).catch(() => undefined);
    if (page.url() === before) {
      const last = markedLocator(frame, ids[ids.length - 1]!);
      const stillThere = await last.isVisible().catch(() => false);
      if (stillThere) {
        if (prompt.submit) await markedLocator(frame, prompt.submit.id).click({ timeout: 5000 });
        else await last.press('Enter');
      }
    }
    const answer = await pageAnswer(page, finder, digits, () => (navigated ? new Set() : shownBefore));
    return { field: prompt.heading || (ids.length > 1 ? `${ids.length} code boxes` : 'the code field'), answer };
  } finally {
    page.off('framenavigated', onNavigated);
  }
}

/** The error-like lines the page shows now (the engine's outcome signals: alerts, error-styled text, toasts). */
async function errorLines(page: Page): Promise<string[]> {
  const snap = await takeSnapshot({ page, context: page.context() }).catch(() => undefined);
  return snap ? [...snap.signals.messages, ...snap.signals.observed] : [];
}

/**
 * Looks at the page each time it changes (a load, a DOM mutation), never on a timer: a new error beside a prompt
 * still shown is a rejection, a prompt gone is the login going on. `known`: lines that were there before the code
 * (none once the page was replaced: a re-rendered page repeats the same error for a second wrong code).
 */
async function pageAnswer(page: Page, finder: FormFinder, code: string, known: () => Set<string>): Promise<CodeAnswer> {
  const until = Date.now() + CODE_ANSWER_MS;
  for (;;) {
    if (page.isClosed()) return { kind: 'went_on' };
    const ready = await page.evaluate(() => document.readyState !== 'loading').catch(() => false);
    if (ready) {
      const prompt = await finder.scanCodePrompt(page).catch(() => undefined);
      if (!prompt) return { kind: 'went_on' };
      const seen = known();
      const fresh = (await errorLines(page)).find((line) => !seen.has(line));
      if (fresh) return { kind: 'rejected', message: fresh.split(code).join('…') };
    }
    const left = until - Date.now();
    if (left <= 0) return { kind: 'silent' };
    await nextChange(page, left);
  }
}

/** Resolves at the page's next change: a new document, or a mutation of this one (at most `ms`). */
async function nextChange(page: Page, ms: number): Promise<void> {
  let onLoad!: () => void;
  const loaded = new Promise<void>((resolve) => {
    onLoad = resolve;
    page.once('domcontentloaded', onLoad);
  });
  const mutated = page
    .evaluate(
      (wait) =>
        new Promise<void>((resolve) => {
          // No named function in here (page-functions-tsx.test.ts): the timer and the observer each end the wait.
          // A toast is judged visible a moment after it is added (page-signals' observer waits as long).
          const timer = setTimeout(() => {
            observer.disconnect();
            setTimeout(resolve, 160);
          }, wait);
          const observer = new MutationObserver(() => {
            observer.disconnect();
            clearTimeout(timer);
            setTimeout(resolve, 160);
          });
          observer.observe(document.documentElement, {
            childList: true,
            subtree: true,
            characterData: true,
            attributes: true,
          });
        }),
      ms,
    )
    // The document went away (a navigation): the load event says when the next one is there.
    .catch(() => loaded);
  try {
    await Promise.race([loaded, mutated]);
  } finally {
    page.off('domcontentloaded', onLoad);
  }
}
