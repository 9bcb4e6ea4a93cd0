import type { DomHelpers } from './dom-helpers.js';

export type { FieldKind, ScannedField } from './scanned-field.js';
import type { FieldKind, ScannedField } from './scanned-field.js';

export interface ScannedButton {
  id: string;
  text: string;
  score: number;
  isLink: boolean;
  /** Set for sign-in links that are not visible (collapsed menus): the engine navigates to it. */
  hiddenHref?: string;
}

export interface FormCandidate {
  kind: 'password' | 'identifier';
  score: number;
  password?: ScannedField;
  usernameCandidates: ScannedField[];
  submit?: ScannedButton;
  fields: ScannedField[];
  heading: string;
  notes: string[];
}

export interface FrameScan {
  url: string;
  forms: FormCandidate[];
  rejected: string[];
  pageFields: ScannedField[];
  visiblePasswordCount: number;
  hiddenPasswordCount: number;
}

/**
 * In-page login form finder (runs via frame.evaluate; self-contained apart from `h`).
 * Groups visible password fields by their form (or, without <form>, by the largest ancestor that
 * does not swallow another password group), scores each group like a password manager would,
 * picks the username as the best-scored visible text field before the password, and falls back
 * to identifier-first (two-step) forms (sign-in links: see sign-in-scan.ts).
 */
export function scanLoginForm(_args: Record<string, never>, h: DomHelpers): FrameScan {
  const { re } = h;
  const EMAIL_NAME = /e[- ]?mail|correo|courriel|posta elettronica|メール|邮箱|почт/i;
  h.clearMarks();
  const all = h.allElements();
  const order = new Map<Element, number>();
  all.forEach((el, i) => order.set(el, i));
  const pos = (el: Element): number => order.get(el) ?? -1;

  const inputType = (el: Element): string => (el.getAttribute('type') || 'text').toLowerCase();
  // A PIN-style one-time-code field may be type=password: it is a second factor, not the login password.
  const isOneTimeCode = (el: Element): boolean =>
    h.autocomplete(el).includes('one-time-code') ||
    /(verification|security|sms|one.?time|authenticat\w*|2fa|mfa) ?code|\botp\b/i.test(h.describe(el, false));
  const isPassword = (el: Element): boolean =>
    el.tagName === 'INPUT' &&
    (inputType(el) === 'password' || (h.isTextLike(el) && h.autocomplete(el).includes('current-password'))) &&
    !isOneTimeCode(el);
  const fieldsAll = all.filter((el) => /^(INPUT|SELECT|TEXTAREA)$/.test(el.tagName));
  const passwords = fieldsAll.filter(isPassword);
  const visPw = passwords.filter((el) => h.isVisible(el));
  const textInputs = fieldsAll.filter((el) => h.isTextLike(el) && h.isVisible(el));
  /** A site search box (by type, role, landmark or name) is never a username or identifier field. */
  const isSearchBox = (el: Element): boolean =>
    inputType(el) === 'search' ||
    el.getAttribute('role') === 'searchbox' ||
    !!el.closest('[role=search],form[role=search],search') ||
    re.search.test(h.describe(el, false));
  /** Its accessible name (label, aria-labelledby, aria-label, placeholder, nearby text) says e-mail. */
  const emailNamed = (el: Element): boolean => EMAIL_NAME.test(h.describe(el, false));

  const kindOf = (el: Element): FieldKind => {
    if (el.tagName === 'SELECT') return 'select';
    if (el.tagName === 'TEXTAREA') return 'textarea';
    if (isPassword(el)) return 'password';
    const t = inputType(el);
    if (t === 'checkbox' || t === 'radio' || t === 'email' || t === 'tel' || t === 'number') return t;
    return h.isTextLike(el) ? 'text' : 'other';
  };

  const fieldInfo = (el: Element, score = 0): ScannedField => h.fieldInfo(el, kindOf(el), score);

  const fillableVisible = (el: Element): boolean => {
    const k = kindOf(el);
    if (k === 'other' || k === 'password') return false;
    if (k === 'checkbox' || k === 'radio') {
      const labels = (el as HTMLInputElement).labels;
      return h.isVisible(el) || (!!labels && Array.from(labels).some((l) => h.isVisible(l)));
    }
    return h.isVisible(el);
  };

  // With a modal dialog open, everything outside it is inert.
  // (An aria-modal element only counts when it holds the login itself: consent dialogs use it too.)
  const modal =
    document.querySelector('dialog:modal') ??
    Array.from(document.querySelectorAll('[aria-modal=true]')).find(
      (m) => h.isVisible(m) && !!m.querySelector('input[type=password]'),
    ) ??
    null;
  const inModal = (el: Element): boolean => !modal || h.containsDeep(modal, el);
  const DIALOG = 'dialog,[role=dialog],[role=alertdialog],[aria-modal=true]';

  const smallForm = (form: HTMLFormElement): boolean =>
    visPw.filter((p) => (p as HTMLInputElement).form === form).length <= 3 &&
    textInputs.filter((t) => (t as HTMLInputElement).form === form).length <= 8;

  /** The form, or the largest container that does not also hold another password group. */
  const scopeFor = (anchor: Element, peers: Element[]): Element => {
    const form = (anchor as HTMLInputElement).form;
    if (form && smallForm(form)) return form;
    let node: Element = h.parentOf(anchor) ?? document.body;
    for (;;) {
      if ((form && node === form) || node.matches(DIALOG)) break;
      const parent = h.parentOf(node);
      if (!parent || parent === document.documentElement) break;
      const intruder = peers.some((p) => p !== anchor && h.containsDeep(parent, p) && !h.containsDeep(node, p));
      const useful =
        textInputs.some((t) => t !== anchor && h.containsDeep(node, t)) ||
        !!node.querySelector('button,input[type=submit]');
      if (intruder && useful) break;
      node = parent;
    }
    return node;
  };

  const scopeText = (scope: Element): string => {
    const f = scope as HTMLFormElement;
    return [
      scope.id,
      typeof f.className === 'string' ? f.className : '',
      scope.getAttribute('name'),
      scope.getAttribute('action'),
      scope.getAttribute('aria-label'),
    ]
      .filter(Boolean)
      .join(' ');
  };

  /**
   * A control that belongs to one field rather than to the form: a show/hide-password eye, a clear
   * button. By what it says (aria-pressed, aria-controls naming the field, show/hide/visibility in
   * its name, class or icon text) or by where it is (not a submit, in the field's own wrapper).
   */
  const isFieldControl = (el: Element, field: Element, isSubmitType: boolean, text: string): boolean => {
    if (re.login.test(text) || re.next.test(text)) return false;
    const controls = (el.getAttribute('aria-controls') || '').split(/\s+/);
    if (el.hasAttribute('aria-pressed') || (field.id && controls.includes(field.id))) return true;
    const named = [el.getAttribute('aria-label'), el.getAttribute('title'), el.id, el.getAttribute('class')]
      .filter(Boolean)
      .join(' ');
    if (re.fieldToggle.test(named) || (text.length < 25 && re.fieldToggle.test(text))) return true;
    if (isSubmitType) return false;
    // The smallest container (up to 3 levels up) holding both holds no other field: the field's wrapper.
    let node = h.parentOf(el);
    for (let i = 0; node && i < 3; i++, node = h.parentOf(node)) {
      if (!h.containsDeep(node, field)) continue;
      const box = node;
      return fieldsAll.filter((f) => h.containsDeep(box, f) && (h.isTextLike(f) || isPassword(f))).length === 1;
    }
    return false;
  };

  /** Design-system buttons: custom elements such as <ds-button>, <sl-button>, <ion-button>, <md-filled-button>. */
  const isCustomButton = (el: Element): boolean => el.tagName.includes('-') && /button|btn/i.test(el.tagName);

  const pickSubmit = (scope: Element, anchor: Element, mode: 'password' | 'identifier'): ScannedButton | undefined => {
    const set = new Set<Element>(Array.from(scope.querySelectorAll(`${h.CLICKABLE}`)));
    const form = (anchor as HTMLInputElement).form;
    if (form) for (const el of Array.from(form.elements)) if (/^(BUTTON|INPUT)$/.test(el.tagName)) set.add(el);
    // Shadow DOM: clickables not reachable by querySelectorAll.
    for (const el of all) if ((el.matches(h.CLICKABLE) || isCustomButton(el)) && h.containsDeep(scope, el)) set.add(el);
    const formHasSubmit =
      !!form &&
      Array.from(form.elements).some(
        (el) =>
          (el.tagName === 'BUTTON' && (el as HTMLButtonElement).type === 'submit') ||
          (el.tagName === 'INPUT' && /^(submit|image)$/.test(inputType(el))),
      );
    let best: { el: Element; text: string; score: number } | undefined;
    for (const el of set) {
      if (el.tagName === 'INPUT' && !/^(submit|button|image)$/.test(inputType(el))) continue;
      if (h.containsDeep(el, anchor) || !h.isVisible(el)) continue; // an [onclick] wrapper is no button
      const text = h.clickableText(el);
      if (!inModal(el)) continue;
      // type=submit only means something inside a form.
      const owner = (el as HTMLButtonElement).form;
      const isSubmitType =
        !!owner &&
        ((el.tagName === 'BUTTON' && (el as HTMLButtonElement).type === 'submit') ||
          (el.tagName === 'INPUT' && /^(submit|image)$/.test(inputType(el))));
      // A show-password eye next to the field is never the submit (clicking it makes the field a text field).
      if (mode === 'password' && isFieldControl(el, anchor, isSubmitType, text)) continue;
      if (!isSubmitType && h.notASubmit(el, text)) continue;
      // Disabled while the field is still empty: the submit the page enables once it is filled.
      const enablesWhenFilled = h.isDisabled(el) && !(anchor as HTMLInputElement).value;
      let s = isSubmitType ? 3 : enablesWhenFilled ? 3 : 0;
      // A form with a submit control of its own: its type="button" controls do something else.
      if (formHasSubmit && owner === form && !isSubmitType && el.getAttribute('type') === 'button') s -= 2;
      // Design-system controls: <div role="button">, links styled as buttons, custom button elements.
      const looksLikeButton =
        el.getAttribute('role') === 'button' ||
        /\b(btn|button)\b/i.test(String(el.getAttribute('class'))) ||
        isCustomButton(el);
      if (el.tagName === 'A' && !looksLikeButton) s -= 1;
      if (!isSubmitType && looksLikeButton) s += 1;
      if (re.login.test(text)) s += mode === 'password' ? 5 : 4;
      if (re.next.test(text)) s += mode === 'password' ? 2 : 4;
      if (re.signup.test(text) && !re.login.test(text)) s -= 10;
      if (re.forgot.test(text) || re.oauth.test(text) || re.newsletter.test(text) || re.search.test(text)) s -= 10;
      if (text.length < 25 && re.cancel.test(text) && !re.login.test(text)) s -= 8;
      if (!text && !isSubmitType && !enablesWhenFilled) s -= 3;
      s += pos(el) > pos(anchor) ? 1 : -3;
      s -= Math.max(0, h.treeDistance(anchor, el) - 3) * 0.75;
      if (h.isDisabled(el) && !enablesWhenFilled) s -= 1;
      if (s > 0 && (!best || s > best.score)) best = { el, text, score: s };
    }
    return best
      ? { id: h.mark(best.el), text: best.text, score: best.score, isLink: best.el.tagName === 'A' }
      : undefined;
  };

  const hasClickable = (scope: Element, pattern: RegExp): boolean =>
    Array.from(scope.querySelectorAll('a,button,[role=button],[role=link]')).some((el) =>
      pattern.test(h.clickableText(el)),
    );

  const hasCheckbox = (scope: Element, pattern: RegExp): boolean =>
    Array.from(scope.querySelectorAll('input[type=checkbox]')).some((el) => pattern.test(h.describe(el)));

  const forms: FormCandidate[] = [];
  const rejected: string[] = [];
  const seenScopes = new Set<Element>();
  const fieldsIn = (scope: Element, exclude: Set<Element>): ScannedField[] =>
    fieldsAll
      .filter((el) => !exclude.has(el) && h.containsDeep(scope, el) && fillableVisible(el))
      .slice(0, 40)
      .map((el) => fieldInfo(el));

  // ---- password groups ----
  for (const pw of visPw) {
    if (!inModal(pw)) continue;
    const scope = scopeFor(pw, visPw);
    if (seenScopes.has(scope)) continue;
    seenScopes.add(scope);
    const pws = visPw.filter((p) => h.containsDeep(scope, p));
    const notes: string[] = [];
    let score = 10;
    if (pws.some((p) => h.autocomplete(p).includes('current-password'))) score += 4;
    if (pws.length >= 2) {
      score -= 6;
      notes.push(`${pws.length} password fields`);
    }
    const confirmField = pws.some((p) => re.confirm.test(h.describe(p, false)));
    if (confirmField) {
      score -= 6;
      notes.push('confirm-password field');
    }
    const heading = h.headingFor(scope, order, all);
    const signupHeading = re.signup.test(heading) && !re.login.test(heading);
    if (re.login.test(heading)) score += 3;
    if (signupHeading) {
      score -= 5;
      notes.push(`heading '${heading}'`);
    }
    const meta = scopeText(scope);
    if (re.login.test(meta)) score += 2;
    if (re.signup.test(meta) && !re.login.test(meta)) score -= 3;
    if (hasClickable(scope, re.forgot)) score += 2;
    if (hasCheckbox(scope, re.remember)) score += 1;
    const terms = hasCheckbox(scope, /terms|agree|privacy|conditions|newsletter/i);
    if (terms) score -= 2;
    const target = pws[0];
    const submit = pickSubmit(scope, pws[pws.length - 1], 'password');
    const loginButton = !!submit && re.login.test(submit.text);
    const signupButton = !!submit && re.signup.test(submit.text) && !loginButton;
    if (loginButton) score += 4;
    if (signupButton) {
      score -= 8;
      notes.push(`button '${submit.text}'`);
    }
    // autocomplete="new-password" is one attribute (some login forms set it to stop autofill): it
    // weighs much only with the rest of a sign-up form around it, the whole form decides.
    if (pws.some((p) => h.autocomplete(p).includes('new-password'))) {
      const signupForm = pws.length >= 2 || confirmField || signupHeading || signupButton || terms;
      score -= signupForm ? 8 : 2;
      notes.push('new-password field');
    }

    const inScopeText = textInputs.filter((t) => h.containsDeep(scope, t));
    const before = inScopeText.filter((t) => pos(t) < pos(target)).reverse();
    const users: ScannedField[] = [];
    for (const el of inScopeText) {
      if (isSearchBox(el)) continue;
      const ac = h.autocomplete(el);
      const desc = h.describe(el);
      const t = inputType(el);
      const rank = before.indexOf(el);
      let s = 0;
      if (/\busername\b/.test(ac)) s += 6;
      else if (/\bemail\b/.test(ac)) s += 4;
      if (ac.includes('one-time-code')) s -= 10;
      if (t === 'email') s += 3;
      if (t === 'tel') s += 1;
      if (re.username.test(desc)) s += 3;
      if (emailNamed(el)) s += 1;
      if (re.otp.test(desc)) s -= 6;
      if (re.captcha.test(desc)) s -= 10;
      if (re.newsletter.test(desc)) s -= 6;
      s += rank >= 0 ? Math.max(-2, 3 - rank) : -2;
      if (!h.isEditable(el)) s -= 3;
      users.push(fieldInfo(el, s));
    }
    users.sort((a, b) => b.score - a.score);
    if (inScopeText.length > users.filter((u) => u.score > 0).length + 3) score -= 2;
    if (users.length && users[0].score > 0) score += 1;

    const exclude = new Set<Element>([...pws]);
    const cand: FormCandidate = {
      kind: 'password',
      score,
      password: fieldInfo(target, score),
      usernameCandidates: users.slice(0, 6),
      submit,
      fields: fieldsIn(scope, exclude),
      heading,
      notes,
    };
    if (score < 5) rejected.push(`skipped likely sign-up/change-password form (${notes.join(', ') || 'low score'})`);
    else forms.push(cand);
  }

  // ---- identifier-first (two-step) forms: only when no password form is visible ----
  if (!forms.length) {
    const identifierInputs = textInputs.filter((el) => !isSearchBox(el));
    for (const el of identifierInputs) {
      if (!h.isEditable(el) || !inModal(el)) continue;
      const ac = h.autocomplete(el);
      const desc = h.describe(el);
      const t = inputType(el);
      let s = 0;
      if (/\busername\b/.test(ac)) s += 6;
      else if (/\bemail\b/.test(ac)) s += 3;
      if (ac.includes('webauthn')) s += 2;
      if (ac.includes('one-time-code') || re.otp.test(desc)) s -= 12;
      if (t === 'email') s += 2;
      if (t === 'tel') s += 1;
      if (re.username.test(desc)) s += 3;
      // An e-mail name is strong evidence even with autocomplete="off" (design-system inputs).
      if (emailNamed(el) && t !== 'email') s += 2;
      if (re.newsletter.test(desc) || re.captcha.test(desc)) s -= 8;
      const form = (el as HTMLInputElement).form;
      let scope: Element;
      if (form && smallForm(form)) scope = form;
      else {
        let node: Element = h.parentOf(el) ?? document.body;
        for (let i = 0; i < 6 && !node.querySelector('button,input[type=submit],[role=button]'); i++)
          node = h.parentOf(node) ?? node;
        scope = node;
      }
      const text = h.textOf(scope, 1500);
      if (re.newsletter.test(text)) s -= 8;
      const heading = h.headingFor(scope, order, all);
      if (re.login.test(heading) || re.login.test(scopeText(scope))) s += 4;
      if (re.signup.test(heading) && !re.login.test(heading)) s -= 6;
      const submit = pickSubmit(scope, el, 'identifier');
      if (submit && (re.next.test(submit.text) || re.login.test(submit.text))) s += 3;
      // The only field on a sign-in page with a Continue/Next control: the identifier step.
      const lone = identifierInputs.filter((x) => inModal(x)).length === 1;
      if (lone && submit && re.next.test(submit.text) && re.login.test(heading)) s += 2;
      if (submit && (re.signup.test(submit.text) || re.newsletter.test(submit.text)) && !re.login.test(submit.text))
        s -= 8;
      if (passwords.some((p) => h.containsDeep(scope, p))) s += 3;
      const others = textInputs.filter((x) => x !== el && h.containsDeep(scope, x)).length;
      if (others >= 2) s -= 3 * (others - 1);
      if (scope.querySelector('textarea')) s -= 4;
      if (s < 7) {
        if (s > 2) rejected.push(`skipped text field '${h.collapse(desc, 40)}' (score ${s})`);
        continue;
      }
      forms.push({
        kind: 'identifier',
        score: s,
        usernameCandidates: [fieldInfo(el, s)],
        submit,
        fields: fieldsIn(scope, new Set([el])),
        heading,
        notes: [],
      });
    }
  }
  forms.sort((a, b) => b.score - a.score);

  const pageFields = fieldsAll
    .filter(fillableVisible)
    .slice(0, 40)
    .map((el) => fieldInfo(el));
  return {
    url: location.href,
    forms: forms.slice(0, 5),
    rejected,
    pageFields,
    visiblePasswordCount: visPw.length,
    hiddenPasswordCount: passwords.length - visPw.length,
  };
}
