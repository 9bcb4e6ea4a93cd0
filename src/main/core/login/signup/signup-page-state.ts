import type { DomHelpers } from '../engine/dom-helpers.js';

/** What a page says after a sign-up step, as texts (never field values). */
export interface SignupPageState {
  url: string;
  readyState: string;
  /** Headings, alerts, notices, short texts inside forms, every line of a short page. */
  texts: string[];
  /** Texts of error-styled elements and of the messages that invalid fields point at. */
  errors: string[];
  /** A sign-up form is visible (a new-password field, or two password fields). */
  signupForm: boolean;
  /** Fields the browser's own validation holds back (required, type, pattern): their name or label. */
  invalidFields: string[];
}

/** In-page (runs via frame.evaluate; self-contained apart from `h`): the texts a sign-up is judged by. */
export function readSignupPageState(_args: Record<string, never>, h: DomHelpers): SignupPageState {
  const all = h.allElements();
  const texts = new Set<string>();
  const errors = new Set<string>();
  const add = (set: Set<string>, raw: string): void => {
    const t = h.collapse(raw, 400);
    if (t.length >= 3 && t.length <= 300) set.add(t);
  };
  const ERRORISH =
    '[role=alert],[aria-live=assertive],[class*=error i],[class*=invalid i],[class*=danger i],[id*=error i],[data-error]';
  const NOTICE =
    '[role=status],[aria-live=polite],[class*=alert i],[class*=notice i],[class*=flash i],[class*=toast i],[class*=message i],h1,h2,h3,h4,legend';
  for (const el of all) {
    if (/^(INPUT|SELECT|TEXTAREA|OPTION|SCRIPT|STYLE)$/.test(el.tagName)) continue;
    const errorish = el.matches(ERRORISH);
    if (!errorish && !el.matches(NOTICE)) continue;
    if (!h.isVisible(el)) continue;
    const t = h.textOf(el, 400);
    if (errorish) add(errors, t);
    add(texts, t);
  }
  // Fields marked invalid point at their message.
  for (const el of all) {
    if (el.getAttribute('aria-invalid') !== 'true') continue;
    for (const attr of ['aria-describedby', 'aria-errormessage']) {
      for (const id of (el.getAttribute(attr) || '').split(/\s+/).filter(Boolean)) {
        const target = document.getElementById(id);
        if (target && h.isVisible(target)) add(errors, h.textOf(target, 400));
      }
    }
  }
  for (const form of Array.from(document.querySelectorAll('form'))) {
    if (!h.isVisible(form)) continue;
    for (const el of Array.from(form.querySelectorAll('p,span,div,li,strong,small'))) {
      if (el.children.length > 2 || !h.isVisible(el)) continue;
      add(texts, h.textOf(el, 400));
    }
  }
  const body = document.body ? (document.body as HTMLElement).innerText || '' : '';
  if (body.length < 8000) for (const line of body.split('\n')) add(texts, line);

  const passwords = all.filter(
    (el) => el.tagName === 'INPUT' && (el as HTMLInputElement).type === 'password' && h.isVisible(el),
  );
  const signupForm = passwords.length >= 2 || passwords.some((p) => h.autocomplete(p).includes('new-password'));
  const invalidFields: string[] = [];
  for (const p of passwords) {
    const form = (p as HTMLInputElement).form;
    if (!form || form.noValidate) continue;
    for (const el of Array.from(form.elements) as HTMLInputElement[]) {
      if (typeof el.checkValidity !== 'function' || !el.willValidate || el.checkValidity()) continue;
      const name = h.collapse(h.labelText(el) || el.getAttribute('name') || el.id || el.type, 60);
      if (!invalidFields.includes(name)) invalidFields.push(name);
    }
  }
  return {
    url: location.href,
    readyState: document.readyState,
    texts: [...texts].slice(0, 120),
    errors: [...errors].slice(0, 20),
    signupForm,
    invalidFields: invalidFields.slice(0, 10),
  };
}
