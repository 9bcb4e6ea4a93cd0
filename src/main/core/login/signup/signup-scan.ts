import type { DomHelpers } from '../engine/dom-helpers.js';
import type { ScannedButton, ScannedField } from '../engine/form-scan.js';
import type { SignupFieldKeyword } from './signup-keywords.js';

/** What a field of a sign-up form is for. */
export type SignupFieldRole =
  'email' | 'username' | 'password' | 'firstName' | 'lastName' | 'fullName' | 'phone' | 'terms' | 'marketing' | 'other';

export interface SignupField extends ScannedField {
  role: SignupFieldRole;
  required: boolean;
}

export interface SignupForm {
  score: number;
  heading: string;
  /** Why it counts as a sign-up form (for the step trace). */
  notes: string[];
  /** Its visible fields in document order, passwords included. */
  fields: SignupField[];
  submit?: ScannedButton;
  /** A passkey sign-up: the form's "Create a passkey" / "Sign up with a passkey" control (clicked instead of submit). */
  passkey?: ScannedButton;
}

export interface SignupPageScan {
  url: string;
  /** The best sign-up form of the frame, if any. */
  form: SignupForm | null;
  /** Password forms not taken (login forms), for the step trace. */
  rejected: string[];
  /** "Sign up" / "Create account" controls, best first; looked for only without a sign-up form. */
  signUpLinks: ScannedButton[];
}

export interface SignupScanArgs {
  kw: Record<SignupFieldKeyword, string>;
  /**
   * A passkey sign-up (passkeys/passkey-keywords.ts): a control naming a passkey anchors a form as a password
   * field does, so a form with no password ("Email" + "Create a passkey") counts too.
   */
  passkey?: { passkey: string; manage: string };
}

/**
 * In-page (runs via frame.evaluate; self-contained apart from `h`): the sign-up form, the one the
 * login scanner skips. Visible password fields are grouped by their form (or the nearest container
 * with a button and another field), and a group counts as a sign-up by what a person sees:
 * `autocomplete="new-password"`, a confirmation field, a "Create your account" heading, a "Sign up"
 * button, a terms checkbox, name fields. Each field gets a role (email, user name, first/last/full
 * name, phone, terms or marketing checkbox, other) from its autocomplete, type and accessible name.
 * Without such a form, the controls that lead to one ("Sign up", "Create account") are returned.
 */
export function scanSignupPage(args: SignupScanArgs, h: DomHelpers): SignupPageScan {
  const { re } = h;
  const kw = {} as Record<SignupFieldKeyword, RegExp>;
  for (const [k, v] of Object.entries(args.kw)) kw[k as SignupFieldKeyword] = new RegExp(v, 'i');
  h.clearMarks();
  const all = h.allElements();
  const order = new Map<Element, number>();
  all.forEach((el, i) => order.set(el, i));
  const pos = (el: Element): number => order.get(el) ?? -1;
  const inputType = (el: Element): string => (el.getAttribute('type') || 'text').toLowerCase();
  const isCheckable = (el: Element): boolean => el.tagName === 'INPUT' && /^(checkbox|radio)$/.test(inputType(el));

  const shown = (el: Element): boolean => {
    if (h.isVisible(el)) return true;
    // Styled checkboxes hide the real input behind their label.
    const labels = (el as HTMLInputElement).labels;
    return isCheckable(el) && !!labels && Array.from(labels).some((l) => h.isVisible(l));
  };
  const fields = all.filter(
    (el) =>
      /^(INPUT|SELECT|TEXTAREA)$/.test(el.tagName) &&
      !/^(hidden|submit|button|image|reset|file|search|range|color)$/.test(inputType(el)) &&
      !el.closest('[role=search],search') &&
      shown(el),
  );
  const passwords = fields.filter((el) => el.tagName === 'INPUT' && inputType(el) === 'password');
  const passkeyRe = args.passkey && new RegExp(args.passkey.passkey, 'i');
  const manageRe = args.passkey && new RegExp(args.passkey.manage, 'i');
  const isPasskeyControl = (el: Element): boolean => {
    if (!passkeyRe || !manageRe || !el.matches(h.CLICKABLE) || !h.isVisible(el)) return false;
    const label = `${h.clickableText(el)} ${el.getAttribute('aria-label') ?? ''} ${el.getAttribute('title') ?? ''}`;
    return passkeyRe.test(label) && !manageRe.test(label) && label.length <= 120;
  };
  const passkeyControls = passkeyRe ? all.filter(isPasskeyControl) : [];

  const roleOf = (el: Element): SignupFieldRole => {
    const t = inputType(el);
    const ac = h.autocomplete(el);
    const desc = h.describe(el, false);
    if (el.tagName === 'INPUT' && t === 'password') return 'password';
    if (t === 'checkbox') {
      if (kw.marketing.test(desc) || re.newsletter.test(desc)) return 'marketing';
      return kw.terms.test(desc) ? 'terms' : 'other';
    }
    if (t === 'radio' || el.tagName === 'SELECT' || el.tagName === 'TEXTAREA') return 'other';
    if (/\bemail\b/.test(ac) || t === 'email') return 'email';
    if (/\busername\b/.test(ac)) return 'username';
    if (/\bgiven-name\b/.test(ac)) return 'firstName';
    if (/\bfamily-name\b/.test(ac)) return 'lastName';
    if (/(^|\s)name$/.test(ac)) return 'fullName';
    if (/\btel\b/.test(ac) || t === 'tel') return 'phone';
    if (kw.email.test(desc)) return 'email';
    if (kw.username.test(desc)) return 'username';
    if (!kw.notPersonName.test(desc)) {
      if (kw.firstName.test(desc)) return 'firstName';
      if (kw.lastName.test(desc)) return 'lastName';
      if (kw.fullName.test(desc)) return 'fullName';
    }
    return kw.phone.test(desc) ? 'phone' : 'other';
  };

  const fieldInfo = (el: Element): SignupField => {
    const input = el as HTMLInputElement;
    const t = inputType(el);
    const kind: ScannedField['kind'] =
      el.tagName === 'SELECT'
        ? 'select'
        : el.tagName === 'TEXTAREA'
          ? 'textarea'
          : t === 'password'
            ? 'password'
            : /^(checkbox|radio|email|tel|number)$/.test(t)
              ? (t as ScannedField['kind'])
              : h.isTextLike(el)
                ? 'text'
                : 'other';
    return {
      ...h.fieldInfo(el, kind),
      role: roleOf(el),
      required: input.required || el.getAttribute('aria-required') === 'true',
    };
  };

  const DIALOG = 'dialog,[role=dialog],[aria-modal=true]';
  /** The password's (or passkey control's) form, or the nearest container that also holds a button and another field. */
  const scopeFor = (pw: Element): Element => {
    const form = (pw as HTMLInputElement).form;
    if (form) return form;
    const isButton = pw.matches(h.CLICKABLE);
    let node: Element = h.parentOf(pw) ?? document.body;
    for (let i = 0; i < 10; i++) {
      const others = fields.some((f) => f !== pw && inputType(f) !== 'password' && h.containsDeep(node, f));
      if (
        node.matches(DIALOG) ||
        (others && (isButton || node.querySelector('button,input[type=submit],[role=button]')))
      )
        break;
      const parent = h.parentOf(node);
      if (!parent || parent === document.documentElement) break;
      node = parent;
    }
    return node;
  };

  const pickSubmit = (scope: Element, anchor: Element): ScannedButton | undefined => {
    const set = new Set<Element>();
    for (const el of all) if (el.matches(h.CLICKABLE) && h.containsDeep(scope, el)) set.add(el);
    const form = (anchor as HTMLInputElement).form;
    if (form) for (const el of Array.from(form.elements)) if (/^(BUTTON|INPUT)$/.test(el.tagName)) set.add(el);
    let best: { el: Element; text: string; score: number } | undefined;
    for (const el of set) {
      if (el.tagName === 'INPUT' && !/^(submit|button|image)$/.test(inputType(el))) continue;
      if (!h.isVisible(el)) continue;
      const text = h.clickableText(el);
      const owner = (el as HTMLButtonElement).form;
      const isSubmit =
        !!owner &&
        ((el.tagName === 'BUTTON' && (el as HTMLButtonElement).type === 'submit') ||
          (el.tagName === 'INPUT' && /^(submit|image)$/.test(inputType(el))));
      let s = isSubmit ? 3 : 0;
      if (re.signup.test(text)) s += 5;
      if (re.next.test(text)) s += 2;
      if (re.login.test(text) && !re.signup.test(text)) s -= 6;
      if (re.oauth.test(text) || re.forgot.test(text) || re.search.test(text)) s -= 10;
      if (text.length < 25 && re.cancel.test(text) && !re.signup.test(text)) s -= 8;
      if (el.tagName === 'A' && !isSubmit) s -= 1;
      s += pos(el) > pos(anchor) ? 1 : -3;
      if (s > 0 && (!best || s > best.score)) best = { el, text, score: s };
    }
    return best
      ? { id: h.mark(best.el), text: best.text, score: best.score, isLink: best.el.tagName === 'A' }
      : undefined;
  };

  const scopeText = (scope: Element): string =>
    [scope.id, typeof scope.className === 'string' ? scope.className : '', scope.getAttribute('action')]
      .filter(Boolean)
      .join(' ');

  const forms: SignupForm[] = [];
  const rejected: string[] = [];
  const seen = new Set<Element>();
  for (const anchor of [...passwords, ...passkeyControls]) {
    const scope = scopeFor(anchor);
    if (seen.has(scope)) continue;
    seen.add(scope);
    const inScope = fields.filter((f) => h.containsDeep(scope, f) || (f as HTMLInputElement).form === scope);
    const pws = inScope.filter((f) => inputType(f) === 'password');
    const inForm = (el: Element) => h.containsDeep(scope, el) || (el as HTMLButtonElement).form === scope;
    const passkeyEl = passkeyControls.find(inForm);
    // A passkey form needs a field to fill: a lone "Sign in with a passkey" button is not a sign-up.
    if (!pws.length && !inScope.some((f) => !isCheckable(f))) continue;
    const notes: string[] = [];
    let score = 0;
    if (passkeyEl && !pws.length) {
      score += 3;
      notes.push(`passkey control '${h.clickableText(passkeyEl)}'`);
    }
    if (pws.some((p) => h.autocomplete(p).includes('new-password'))) {
      score += 5;
      notes.push('new-password field');
    }
    if (pws.length >= 2) {
      score += 4;
      notes.push(`${pws.length} password fields`);
    }
    if (pws.slice(1).some((p) => re.confirm.test(h.describe(p, false)))) score += 3;
    if (pws.every((p) => h.autocomplete(p).includes('current-password'))) score -= 4;
    const heading = h.headingFor(scope, order, all);
    if (re.signup.test(heading) && !re.login.test(heading)) {
      score += 4;
      notes.push(`heading '${heading}'`);
    } else if (re.login.test(heading) && !re.signup.test(heading)) score -= 5;
    const meta = scopeText(scope);
    if (re.signup.test(meta)) score += 2;
    else if (re.login.test(meta)) score -= 2;
    const infos = inScope.slice(0, 40).map(fieldInfo);
    if (infos.some((f) => f.role === 'terms')) score += 2;
    if (infos.some((f) => f.role === 'firstName' || f.role === 'lastName' || f.role === 'fullName')) score += 2;
    const submit = pickSubmit(scope, pws[pws.length - 1] ?? anchor);
    if (submit && re.signup.test(submit.text)) {
      score += 4;
      notes.push(`button '${submit.text}'`);
    } else if (submit && re.login.test(submit.text)) score -= 5;
    const passkey = passkeyEl && {
      id: h.mark(passkeyEl),
      text: h.clickableText(passkeyEl),
      score: 0,
      isLink: passkeyEl.tagName === 'A',
    };
    if (score >= 4) forms.push({ score, heading, notes, fields: infos, submit, ...(passkey ? { passkey } : {}) });
    else
      rejected.push(
        `skipped a ${pws.length ? 'password' : 'passkey'} form${heading ? ` under heading '${heading}'` : ''} (a login form, score ${score})`,
      );
  }
  forms.sort((a, b) => b.score - a.score);

  const signUpLinks: ScannedButton[] = [];
  if (!forms.length) {
    for (const el of all) {
      if (!el.matches(h.CLICKABLE) || !h.isVisible(el)) continue;
      const text = h.clickableText(el);
      if (!text || text.length > 60) continue;
      const href = el.tagName === 'A' ? el.getAttribute('href') || '' : '';
      let s = 0;
      if (re.signup.test(text)) s += 6;
      if (/sign-?_?up|regist|join|create|new-?account|onboard|enrol/i.test(href)) s += 3;
      if (re.login.test(text) && !re.signup.test(text)) s -= 10;
      if (re.oauth.test(text) || re.forgot.test(text) || re.newsletter.test(text) || re.search.test(text)) s -= 10;
      if (el.closest('header,nav,[role=navigation],[role=banner]')) s -= 1; // a form's own link is closer to it
      if (s >= 6) signUpLinks.push({ id: h.mark(el), text, score: s, isLink: el.tagName === 'A' });
    }
    signUpLinks.sort((a, b) => b.score - a.score);
  }
  return { url: location.href, form: forms[0] ?? null, rejected, signUpLinks: signUpLinks.slice(0, 5) };
}
