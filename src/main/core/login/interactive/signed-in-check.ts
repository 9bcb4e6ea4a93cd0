import type { BrowserContext, Page } from 'playwright-core';
import { FormFinder } from '../engine/form-finder.js';
import { changedAuthCookies, cookieMap, type CookieMap } from '../engine/outcome-detector.js';

/**
 * Whether the person's window shows a finished login, so it can hand the session back without Done.
 * Kept simple, and strict on purpose: a false "signed in" would close the window on the person and
 * return a session that does not work, while a missed one only costs them a click on Done. So both
 * must hold:
 * - an auth cookie (the engine's rule: a session-like name, or a new httpOnly cookie) is new or has
 *   another value than when the window opened — the site issued a session;
 * - the page shows no password, identifier or code form (the engine's FormFinder) — the site is not
 *   asking for anything more (a wrong code, a second step).
 * Leaving the login page alone is not enough: a "Use a recovery code" or help link leaves it too.
 * A site that keeps its session only in localStorage is never detected: the person presses Done.
 */
export class SignedInCheck {
  private readonly finder = new FormFinder();

  private constructor(private readonly opened: CookieMap) {}

  /** Remembers the cookies the window starts with (the login's partial state). */
  static async start(ctx: BrowserContext): Promise<SignedInCheck> {
    return new SignedInCheck(cookieMap(await ctx.cookies()));
  }

  async looksSignedIn(ctx: BrowserContext, page: Page): Promise<boolean> {
    if (page.isClosed() || !/^https?:/i.test(page.url())) return false;
    // The cheap look first: the page scan runs only once the site has issued a session cookie.
    const cookies = cookieMap(await ctx.cookies());
    if (changedAuthCookies(this.opened, cookies).length === 0) return false;
    const scan = await this.finder.scan(page);
    return !scan.form && !scan.codePrompt && scan.visiblePasswordCount === 0;
  }
}
