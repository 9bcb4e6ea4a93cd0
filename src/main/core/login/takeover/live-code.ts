// POST /api/login/{id}/code: a one-time code a person gave (an agent asked its user, MCP form elicitation) typed into
// the live page of a login that waits for a person at its second factor — as the person would type it there.
import type { Page } from 'playwright-core';
import { AppError } from '../../errors.js';
import { FormFinder, markedLocator } from '../engine/form-finder.js';

/** How long a typed code's page gets to submit by itself (boxes that send the last digit) before we press submit. */
const AUTO_SUBMIT_MS = 300;

/**
 * Finds the page's code prompt with the engine's own scan (one field, or a row of one-character boxes, in any
 * frame), types the code key by key (pages listen for key events, not values), and submits it with the prompt's
 * button, else Enter — unless the page navigated by itself after the last key. Answers what the code went into
 * (the prompt's heading, secret-free). A page without a prompt is a 409: the person may have moved on.
 */
export async function typeCodeIntoPage(page: Page, code: string): Promise<{ field: string }> {
  const digits = code.replace(/[\s-]/g, '');
  const located = await new FormFinder().scanCodePrompt(page).catch(() => undefined);
  if (!located)
    throw new AppError(
      409,
      'no_code_field',
      'The live page shows no field for a one-time code (look at it on the page).',
    );
  const { frame, prompt } = located;
  const ids = prompt.fieldIds;
  const before = page.url();
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
  return { field: prompt.heading || (ids.length > 1 ? `${ids.length} code boxes` : 'the code field') };
}
