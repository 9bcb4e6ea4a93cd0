import type { Frame, Locator, Page } from 'playwright-core';
import { PASSKEY_KEYWORDS } from './passkey-keywords.js';

export type PasskeyControlKind = 'sign-in' | 'create';

/** A visible control that names a passkey: where it is and what it says. */
export interface PasskeyControl {
  frame: Frame;
  /** The value of its data-as-passkey mark (the click finds it by that). */
  mark: string;
  text: string;
  kind: PasskeyControlKind;
}

let scans = 0;

/**
 * Marks and lists the visible buttons and links whose text, aria-label or title names a passkey
 * (a security key, WebAuthn …), in every frame and open shadow root: "Sign in with a passkey",
 * "Use a passkey", "Create a passkey" … A control that removes or explains one is left out.
 */
export async function findPasskeyControls(page: Page): Promise<PasskeyControl[]> {
  const scan = `p${++scans}`;
  const found: PasskeyControl[] = [];
  for (const frame of page.frames()) {
    const controls = await frame
      .evaluate(
        ({ words, scan }) => {
          const passkey = new RegExp(words.passkey, 'i');
          const create = new RegExp(words.create, 'i');
          const manage = new RegExp(words.manage, 'i');
          const out: { mark: string; text: string; kind: 'sign-in' | 'create' }[] = [];
          const selector =
            'button, a[href], [role="button"], [role="link"], input[type="button"], input[type="submit"]';
          const roots: (Document | ShadowRoot)[] = [document];
          for (let i = 0; i < roots.length; i++) {
            for (const el of Array.from(roots[i].querySelectorAll('*'))) {
              if (el.shadowRoot) roots.push(el.shadowRoot);
              if (!el.matches(selector)) continue;
              const h = el as HTMLElement;
              const rect = h.getBoundingClientRect();
              const style = getComputedStyle(h);
              if (!rect.width || !rect.height || style.visibility === 'hidden' || style.display === 'none') continue;
              if ((h as HTMLButtonElement).disabled) continue;
              const label = [
                h instanceof HTMLInputElement ? h.value : h.innerText,
                h.getAttribute('aria-label') ?? '',
                h.getAttribute('title') ?? '',
              ]
                .join(' ')
                .replace(/\s+/g, ' ')
                .trim();
              if (!passkey.test(label) || manage.test(label) || label.length > 120) continue;
              const mark = `${scan}-${out.length}`;
              h.setAttribute('data-as-passkey', mark);
              out.push({ mark, text: label.slice(0, 80), kind: create.test(label) ? 'create' : 'sign-in' });
            }
          }
          return out;
        },
        { words: PASSKEY_KEYWORDS, scan },
      )
      .catch(() => []);
    for (const c of controls) found.push({ ...c, frame });
  }
  return found;
}

export function passkeyControlLocator(control: PasskeyControl): Locator {
  return control.frame.locator(`[data-as-passkey="${control.mark}"]`);
}
