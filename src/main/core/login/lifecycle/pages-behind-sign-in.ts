import type { Page } from 'playwright-core';
import { KEYWORDS } from '../engine/form-keywords.js';

/** Words of a link to the part of a site only a signed-in visitor sees (compiled in Node with "i"). */
const ACCOUNT_WORDS =
  /\b((my )?(account|dashboard|profile|settings|console|workspace)|konto|cuenta|compte|conta|profil|einstellungen)\b|アカウント|账户|账号|계정/i;
const LOGIN = new RegExp(KEYWORDS.login, 'i');
const SIGNUP = new RegExp(KEYWORDS.signup, 'i');
const LOGOUT = new RegExp(KEYWORDS.logout, 'i');
const LOGIN_PATH = /(^|\/)([a-z]+[-_])?(log[-_]?in|sign[-_]?in)(\.\w+)?\/?$/i;

/**
 * A page behind a site's home page where the session shows:
 * - account: the account page or dashboard, which a signed-out visitor is sent away from;
 * - sign-in: the sign-in page, which most sites skip for a signed-in visitor (they send them on to the app).
 */
export interface PageBehindSignIn {
  kind: 'account' | 'sign-in';
  href: string;
}

/**
 * Same-origin links of a page that lead to where its session shows, account pages first, then its sign-in link
 * (at most one of each). A home page that looks the same signed in or not (a cached marketing page) says nothing
 * about a session; the page behind it does. Never a sign-up or sign-out link.
 */
export async function pagesBehindSignIn(page: Page): Promise<PageBehindSignIn[]> {
  const links = await page
    .evaluate(() =>
      Array.from(document.querySelectorAll('a[href]'))
        .slice(0, 400)
        .map((a) => ({
          href: (a as HTMLAnchorElement).href,
          text: `${(a as HTMLElement).innerText ?? ''} ${a.getAttribute('aria-label') ?? ''}`.trim().slice(0, 80),
        })),
    )
    .catch(() => [] as { href: string; text: string }[]);
  const here = new URL(page.url());
  const out: PageBehindSignIn[] = [];
  const pick = (kind: PageBehindSignIn['kind'], test: (l: { url: URL; text: string }) => boolean) => {
    for (const { href, text } of links) {
      let url: URL;
      try {
        url = new URL(href);
      } catch {
        continue;
      }
      if (url.origin !== here.origin || url.pathname === here.pathname) continue;
      const words = `${text} ${url.pathname}`;
      if (LOGOUT.test(words) || (SIGNUP.test(words) && !LOGIN.test(text))) continue;
      if (test({ url, text })) {
        out.push({ kind, href: `${url.origin}${url.pathname}` });
        return;
      }
    }
  };
  pick('account', ({ url, text }) => ACCOUNT_WORDS.test(text) || ACCOUNT_WORDS.test(url.pathname));
  pick('sign-in', ({ url, text }) => LOGIN.test(text) || LOGIN_PATH.test(url.pathname));
  return out;
}
