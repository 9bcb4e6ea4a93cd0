import type { DomHelpers } from './dom-helpers.js';
import type { ScannedButton } from './form-scan.js';

/**
 * In-page (runs via frame.evaluate; self-contained apart from `h`), for a page without a usable
 * login form: the controls that lead to one. "Sign in"/"Log in" links and buttons (never "Sign
 * up"; a sign-in link hidden in a collapsed menu is returned with its href), and controls that
 * reveal a login form which is in the page but hidden (a tab, a disclosure button, a summary).
 */
export function findSignInControls(_args: Record<string, never>, h: DomHelpers): ScannedButton[] {
  const { re } = h;
  // With a modal dialog open, everything outside it is inert.
  const modal =
    document.querySelector('dialog:modal') ??
    Array.from(document.querySelectorAll('[aria-modal=true]')).find(
      (m) => h.isVisible(m) && !!m.querySelector('input[type=password]'),
    ) ??
    null;
  const inModal = (el: Element): boolean => !modal || h.containsDeep(modal, el);
  /**
   * Controls that reveal a
   * login form which is in the page but hidden: a tab whose panel holds the password field ("Online
   * banking" next to "Open an account"), a disclosure button (`aria-controls`/`aria-expanded`), a
   * `<summary>` of a closed `<details>`. The control names its panel, so no wording is needed;
   * sign-in wording and being the selected control only adjust the order.
   */
  const findRevealControls = (): { el: Element; button: ScannedButton }[] => {
    const hiddenPasswords = Array.from(document.querySelectorAll('input[type=password]')).filter(
      (el) => !h.isVisible(el) && !h.autocomplete(el).includes('new-password'),
    );
    if (!hiddenPasswords.length) return [];
    const holdsHiddenPassword = (panel: Element | null): boolean =>
      !!panel && hiddenPasswords.some((p) => h.containsDeep(panel, p));
    const out: { el: Element; button: ScannedButton }[] = [];
    for (const el of h.allElements()) {
      if (!el.matches('[aria-controls],summary') || !h.isVisible(el)) continue;
      const panels =
        el.tagName === 'SUMMARY'
          ? [
              el.parentElement?.tagName === 'DETAILS' && !(el.parentElement as HTMLDetailsElement).open
                ? el.parentElement
                : null,
            ]
          : (el.getAttribute('aria-controls') ?? '')
              .split(/\s+/)
              .map((id) => (id ? document.getElementById(id) : null));
      if (!panels.some(holdsHiddenPassword)) continue;
      const text = h.clickableText(el);
      if (h.re.signup.test(text) && !h.re.login.test(text)) continue;
      let score = 8;
      if (h.re.login.test(text)) score += 2;
      if (el.getAttribute('aria-selected') === 'true' || el.getAttribute('aria-expanded') === 'true') score -= 2;
      out.push({ el, button: { id: h.mark(el), text: text || 'unnamed control', score, isLink: el.tagName === 'A' } });
    }
    return out;
  };

  const signInLinks: ScannedButton[] = [];
  for (const el of h.allElements()) {
    if (!el.matches(h.CLICKABLE) || !inModal(el)) continue;
    const text = h.clickableText(el);
    if (text.length > 60) continue;
    const href = el.tagName === 'A' ? el.getAttribute('href') || '' : '';
    let s = 0;
    if (re.login.test(text)) s += 6;
    if (/log-?in|sign-?in|signin|login|auth|session|sso|account/i.test(href)) s += 3;
    if (re.signup.test(text)) s -= s >= 6 ? 3 : 20;
    if (re.oauth.test(text) || re.forgot.test(text)) s -= 10;
    if (/\b(my )?account\b|profile|konto|cuenta|compte/i.test(text)) s += 2;
    if (text.length <= 20 && re.login.test(text)) s += 1;
    if (el.closest('header,nav,[role=navigation],[role=banner]')) s += 1;
    if (s < 5) continue;
    if (h.isVisible(el)) signInLinks.push({ id: h.mark(el), text, score: s, isLink: el.tagName === 'A' });
    else if (el.tagName === 'A' && s >= 8 && /^https?:/.test((el as HTMLAnchorElement).href)) {
      signInLinks.push({
        id: h.mark(el),
        text,
        score: s - 4,
        isLink: true,
        hiddenHref: (el as HTMLAnchorElement).href,
      });
    }
  }
  for (const control of findRevealControls()) if (inModal(control.el)) signInLinks.push(control.button);
  return signInLinks.sort((a, b) => b.score - a.score).slice(0, 5);
}
