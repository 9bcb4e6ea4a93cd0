import type { DomHelpers } from './dom-helpers.js';
import type { ScannedButton } from './form-scan.js';

/** Where the page says the code comes from; decides which CodeSource answers it. */
export type CodeChannel = 'authenticator' | 'email' | 'sms';

export interface CodePrompt {
  /** Marker ids of the inputs: one field, or one-character boxes in order. */
  fieldIds: string[];
  /** Total length the site expects (boxes, or maxlength of the single field), when it says. */
  length?: number;
  submit?: ScannedButton;
  channel: CodeChannel | null;
  heading: string;
  score: number;
}

/**
 * In-page (runs via frame.evaluate; self-contained apart from `h`): a prompt for a one-time code,
 * on a page without a password field. A single field (`autocomplete="one-time-code"`, a code
 * label in several languages, numeric input of 4-8 characters) or a row of 4-8 one-character
 * boxes. The surrounding text says where the code comes from (authenticator app, email, SMS).
 */
export function scanCodePrompt(_args: Record<string, never>, h: DomHelpers): CodePrompt | null {
  const { re } = h;
  const CODE_WORDS =
    /code|otp|one.?time|passcode|pin\b|token|verif|bestätig|sicherheits|einmal|código|verificación|vérification|codice|verificatie|認証|確認|コード|验证码|驗證碼|인증/i;
  const AUTHENTICATOR =
    /authenticator|authentication app|authenticat\w* app|\btotp\b|2fa app|two.?factor app|authenticator-app|authentifizierungs-?app|app d.authentification|aplicación de autenticación|認証アプリ|身份验证器/i;
  const SMS =
    /\bsms\b|text message|texted|we (sent|texted) (a|the|your) code to (your )?(phone|mobile|number|\+|•|\*|\d)|to your (phone|mobile)|phone number ending|\bhandy\b|mobiltelefon|teléfono|téléphone|携帯|短信|手机/i;
  const EMAIL =
    /e-?mail|inbox|mailbox|we (sent|emailed) (a|the|your) code to [^ ]*@|courriel|correo|メール|邮件|邮箱|posteingang/i;
  const inputType = (el: Element): string => (el.getAttribute('type') || 'text').toLowerCase();
  const isCodeInput = (el: Element): boolean =>
    el.tagName === 'INPUT' &&
    h.isVisible(el) &&
    h.isEditable(el) &&
    /^(text|tel|number|password|)$/.test(inputType(el)) &&
    !el.closest('[role=search],search');
  const all = h.allElements();
  if (all.some((el) => el.tagName === 'INPUT' && inputType(el) === 'password' && h.isVisible(el) && !isOtpNamed(el)))
    return null;
  const inputs = all.filter(isCodeInput);
  if (!inputs.length || inputs.length > 12) return null;

  function isOtpNamed(el: Element): boolean {
    return h.autocomplete(el).includes('one-time-code') || CODE_WORDS.test(h.describe(el, false));
  }
  const maxLen = (el: Element): number => Number(el.getAttribute('maxlength') || 0);

  /** Rows of one-character boxes: consecutive inputs with maxlength 1 under one parent. */
  const boxes = inputs.filter((el) => maxLen(el) === 1);
  let fields: Element[] = [];
  if (boxes.length >= 4 && boxes.length <= 8) {
    // One row: a near common ancestor (a few levels up) holds all of them.
    let row = h.parentOf(boxes[0]);
    let shared = false;
    for (let i = 0; i < 3 && row && !shared; i++, row = h.parentOf(row))
      shared = boxes.every((b) => h.containsDeep(row!, b));
    if (shared) fields = boxes;
  }
  let score = fields.length ? 6 : 0;
  if (!fields.length) {
    let best: { el: Element; s: number } | undefined;
    for (const el of inputs) {
      const ac = h.autocomplete(el);
      const desc = h.describe(el);
      let s = 0;
      if (ac.includes('one-time-code')) s += 8;
      if (CODE_WORDS.test(desc)) s += 5;
      if (re.otp.test(desc)) s += 2;
      const mode = el.getAttribute('inputmode') || '';
      if (mode === 'numeric' || inputType(el) === 'tel' || inputType(el) === 'number') s += 1;
      const ml = maxLen(el);
      if (ml >= 4 && ml <= 10) s += 2;
      if (/\[0-9\]|\\d/.test(el.getAttribute('pattern') || '')) s += 1;
      if (re.username.test(desc) && !CODE_WORDS.test(desc)) s -= 6;
      if (re.search.test(desc) || re.newsletter.test(desc)) s -= 8;
      if (!best || s > best.s) best = { el, s };
    }
    if (!best) return null;
    fields = [best.el];
    score = best.s;
  }
  // The text around the prompt: its container up to a heading, or the page's main text.
  let scope: Element = fields[0];
  for (let i = 0; i < 8; i++) {
    const p = h.parentOf(scope);
    if (!p || p === document.body) break;
    scope = p;
    if (scope.matches('form,dialog,[role=dialog],main,section,article') && h.textOf(scope, 600).length > 20) break;
  }
  const order = new Map<Element, number>();
  all.forEach((el, i) => order.set(el, i));
  const heading = h.headingFor(scope, order, all);
  const text = `${heading} ${h.textOf(scope, 1500)} ${document.title}`;
  if (CODE_WORDS.test(text) || re.mfa.test(text)) score += 3;
  if (fields.length === 1 && inputs.length > 3) score -= 3;
  if (score < 6) return null;
  const channel: CodeChannel | null = AUTHENTICATOR.test(text)
    ? 'authenticator'
    : SMS.test(text)
      ? 'sms'
      : EMAIL.test(text)
        ? 'email'
        : null;

  // The control that submits it: a submit button of its form, else a Verify/Continue/Submit control nearby.
  const anchor = fields[fields.length - 1];
  const form = (anchor as HTMLInputElement).form;
  const controls = Array.from((form ?? scope).querySelectorAll(h.CLICKABLE)).filter(
    (el) => h.isVisible(el) && (el.tagName !== 'INPUT' || /^(submit|button|image)$/.test(inputType(el))),
  );
  const VERIFY =
    /verif|confirm|submit|continue|next|sign.?in|log.?in|done|weiter|bestätig|anmelden|continuar|vérifier|continuer|確認|送信|次へ|验证|提交/i;
  let submit: ScannedButton | undefined;
  for (const el of controls) {
    const t = h.clickableText(el);
    let s = 0;
    if ((el as HTMLButtonElement).type === 'submit' && !!(el as HTMLButtonElement).form) s += 3;
    if (VERIFY.test(t)) s += 3;
    if (/resend|send again|new code|another|cancel|back|try another|erneut|neu senden|reenviar|renvoyer/i.test(t))
      s -= 10;
    if (s > 0 && (!submit || s > submit.score))
      submit = { id: h.mark(el), text: t, score: s, isLink: el.tagName === 'A' };
  }
  const length = fields.length > 1 ? fields.length : maxLen(fields[0]) >= 4 ? maxLen(fields[0]) : undefined;
  return { fieldIds: fields.map((f) => h.mark(f)), length, submit, channel, heading, score };
}
