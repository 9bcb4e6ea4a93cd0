import type { Page } from 'playwright-core';
import { safeUrl } from '../login-types.js';
import { findPasskeyControls, passkeyControlLocator } from './passkey-buttons.js';
import type { StoredPasskey } from './passkey-types.js';
import { findSettingsLinks, waitForQuietPage } from './settings-pages.js';
import type { VirtualAuthenticator } from './virtual-authenticator.js';

/** Pages looked at for an "add a passkey" control: the start page, then settings pages linked from it. */
const MAX_PAGES = 5;
/** How long the authenticator is given to make the credential after the click. */
export const CREATE_MS = 10_000;

/** The first credential the page made in the authenticator, waited for up to `ms`. */
export async function waitForCredential(
  authenticator: VirtualAuthenticator,
  ms = CREATE_MS,
): Promise<StoredPasskey | undefined> {
  const until = Date.now() + ms;
  for (;;) {
    const [made] = await authenticator.created(new Set());
    if (made || Date.now() >= until) return made;
    await new Promise((r) => setTimeout(r, 150));
  }
}

export interface PasskeyOnSite {
  passkey?: StoredPasskey;
  /** The page the passkey was made on (its origin is where the passkey is used). */
  madeOn?: string;
  /** The pages looked at (safe URLs, for the error when none made a passkey). */
  looked: string[];
}

/**
 * A signed-in account's "create a passkey" flow, where people find it: a control on `start`, else on the
 * security / settings / account pages linked from it (same origin, at most MAX_PAGES). Each "create / add a
 * passkey" control is clicked once; the first credential the authenticator makes is the answer, after the
 * page has posted it to the site. Used by POST /api/credentials/{id}/passkeys and by a passkey sign-up
 * whose sign-up form made no passkey itself.
 */
export async function createPasskeyOnSite(
  page: Page,
  authenticator: VirtualAuthenticator,
  start: string,
  onStep: (line: string) => void = () => {},
): Promise<PasskeyOnSite> {
  const queue = [start];
  const seen = new Set<string>();
  const tried = new Set<string>();
  while (queue.length && seen.size < MAX_PAGES) {
    const url = queue.shift()!;
    if (seen.has(url)) continue;
    seen.add(url);
    if (page.url() !== url)
      await page.goto(url, { waitUntil: 'domcontentloaded', timeout: 30_000 }).catch(() => undefined);
    await waitForQuietPage(page);
    for (const control of (await findPasskeyControls(page)).filter((c) => c.kind === 'create')) {
      // Tried once per page: a link "Add a passkey" often leads to a page whose button is also "Add a passkey".
      const where = page.url().split('#')[0];
      if (tried.has(`${where}\n${control.text}`)) continue;
      tried.add(`${where}\n${control.text}`);
      onStep(`clicking '${control.text}' on ${safeUrl(page.url())}`);
      await passkeyControlLocator(control)
        .click({ timeout: 5000 })
        .catch(() => undefined);
      // A control that led to another page (a link) made nothing here: that page is looked at next, at once,
      // rather than after the full wait for a credential (its controls are the ones that count now).
      const navigated = page.url().split('#')[0] !== where;
      const made = await waitForCredential(authenticator, navigated ? 0 : CREATE_MS);
      if (made) {
        const madeOn = page.url();
        // The page posts the new credential to the site: let that finish before the browser goes.
        await waitForQuietPage(page);
        return { passkey: made, madeOn, looked: [...seen].map(safeUrl) };
      }
      if (navigated) {
        if (!seen.has(page.url())) queue.unshift(page.url());
        break;
      }
    }
    for (const link of await findSettingsLinks(page)) if (!seen.has(link)) queue.push(link);
  }
  return { looked: [...seen].map(safeUrl) };
}
