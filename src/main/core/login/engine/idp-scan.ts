import type { DomHelpers } from './dom-helpers.js';
import type { ScannedButton } from './form-scan.js';

export type IdentityProvider = 'google' | 'github';

/**
 * In-page (runs via frame.evaluate; self-contained apart from `h`): the controls that start a
 * sign-in with the given identity provider — "Continue with Google", "Sign in with GitHub", a
 * button that only shows the provider's logo (alt/aria-label/title), a link whose href points at
 * the provider or at the site's own /auth/<provider> route. Best first.
 */
export function scanIdentityProviderButtons(args: { provider: IdentityProvider }, h: DomHelpers): ScannedButton[] {
  const name = args.provider === 'google' ? /google/i : /git\s?hub/i;
  const out: ScannedButton[] = [];
  for (const el of h.allElements()) {
    if (!el.matches(h.CLICKABLE) || !h.isVisible(el)) continue;
    const text = h.clickableText(el);
    const imgAlt = Array.from(el.querySelectorAll('img[alt],svg[aria-label],[title]'))
      .map((i) => i.getAttribute('alt') || i.getAttribute('aria-label') || i.getAttribute('title') || '')
      .join(' ');
    const label = `${text} ${el.getAttribute('aria-label') || ''} ${el.getAttribute('title') || ''} ${imgAlt}`;
    const href = el.tagName === 'A' ? el.getAttribute('href') || '' : '';
    const action = (el as HTMLButtonElement).form?.getAttribute('action') || '';
    let s = 0;
    if (name.test(label)) s += 6;
    if (name.test(href) || name.test(action) || name.test(el.id) || name.test(String(el.getAttribute('class')))) s += 3;
    if (s === 0) continue;
    if (/sign.?in|log.?in|continue|with|connect|anmelden|continuer|continuar|iniciar|accedi|ログイン/i.test(label))
      s += 2;
    if (/sign.?up|register|create/i.test(label) && !/sign.?in|log.?in|continue/i.test(label)) s -= 3;
    if (text.length > 60) s -= 4;
    if (s >= 5) out.push({ id: h.mark(el), text: h.collapse(text || label, 60), score: s, isLink: el.tagName === 'A' });
  }
  return out.sort((a, b) => b.score - a.score).slice(0, 3);
}

export interface ProviderChoice {
  kind: 'account' | 'consent';
  id: string;
  text: string;
}

/**
 * In-page, on an identity provider's page without a login form: the account to pick in an
 * account chooser ("Choose an account": the entry that names the login's account), or the
 * control that grants access on a consent / authorize screen (Allow, Continue, Authorize …;
 * never Cancel or Deny).
 */
export function scanProviderChoice(args: { account: string }, h: DomHelpers): ProviderChoice | null {
  const account = args.account.toLowerCase();
  const clickables = h.allElements().filter((el) => el.matches(h.CLICKABLE) && h.isVisible(el));
  if (account) {
    for (const el of clickables) {
      const text = h.clickableText(el).toLowerCase();
      const own = `${text} ${(el.getAttribute('data-identifier') || '').toLowerCase()}`;
      if (own.includes(account) && text.length < 200)
        return { kind: 'account', id: h.mark(el), text: h.collapse(h.clickableText(el), 60) };
    }
  }
  const GRANT =
    /^(allow|allow access|continue|authori[sz]e\b.*|accept|grant|grant access|yes|approve|confirm|agree|zulassen|erlauben|autoriser|continuer|permitir|continuar|consenti|許可|续|允许|授权)$/i;
  const DENY = /cancel|deny|decline|reject|not now|no thanks|abbrechen|annuler|cancelar|拒否|取消/i;
  let best: { el: Element; text: string; score: number } | undefined;
  for (const el of clickables) {
    const text = h.clickableText(el);
    if (!text || text.length > 60 || DENY.test(text)) continue;
    let s = 0;
    if (GRANT.test(text.trim())) s += 6;
    if ((el as HTMLButtonElement).type === 'submit' && (el as HTMLButtonElement).form) s += 1;
    if (/primary|green|btn-primary|submit/i.test(String(el.getAttribute('class')))) s += 1;
    if (s >= 6 && (!best || s > best.score)) best = { el, text, score: s };
  }
  return best ? { kind: 'consent', id: h.mark(best.el), text: h.collapse(best.text, 60) } : null;
}
