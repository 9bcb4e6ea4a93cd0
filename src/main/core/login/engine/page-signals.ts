import type { DomHelpers } from './dom-helpers.js';

export interface SignalArgs {
  /** Marker of the field we filled last (password or identifier): is it still there and filled? */
  watchMarker?: string;
}

export interface PageSignals {
  url: string;
  /** Description of a visible, interactive CAPTCHA, if any. */
  captcha: string | null;
  /** Lockout / rate-limit text, if any. */
  locked: string | null;
  /** A refusal of the browser as automated (a bot wall's words), if any. */
  botWall: string | null;
  /** Visible one-time-code inputs (count). */
  otpInputs: number;
  /** MFA prompt text (only reported when no password field is visible). */
  mfaText: string | null;
  /** Candidate error lines: alerts, live regions, error-styled elements, lines near a form, short pages. */
  messages: string[];
  /** Error texts seen by the mutation observer (transient toasts). */
  observed: string[];
  /** Visible password fields that are not new-password fields. */
  loginPasswords: number;
  watchedState: 'absent' | 'hidden' | 'visible-empty' | 'visible-filled';
  /**
   * How the form around the watched field looks, values left out (its controls' disabled / busy
   * state, button labels, which elements are there and shown): a page that reacted to a submit (a disabled
   * button, "Signing in…", a spinner) changes it before its request may show up. null: no field.
   */
  watchedFormState: string | null;
  /** Required or invalid fields blocking native form submission (names/labels only). */
  invalidFields: string[];
  bodyTextLength: number;
  /**
   * The page could be a "Stay signed in?" / "Trust this browser?" interstitial (a short page asking
   * it, no field to type into): the stay-signed-in step looks closer only then.
   */
  stayPrompt: boolean;
  /** document.readyState of this frame ('loading' right after a navigation committed). */
  readyState: string;
  /**
   * This document is about to be replaced: ms since it started a cross-document navigation (script
   * redirect, form submit; see NAVIGATION_WATCH_SCRIPT), or 0 for a pending `<meta http-equiv=refresh>`
   * of up to 10 s. null when neither.
   */
  leavingSinceMs: number | null;
  /**
   * Looks like a hand-over page rather than a destination: an auto-posting form (only hidden
   * fields, nothing to click - SAML/OIDC form_post) or next to no text ("Redirecting…").
   */
  bridge: boolean;
  /**
   * localStorage and sessionStorage of this frame's origin as [origin, key, length:checksum, area]
   * (values never leave the page).
   */
  storage: Array<[string, string, string, 'local' | 'session']>;
  /** Text of a visible control only a signed-in page has (Log out, Sign out), or of a logout link anywhere. */
  signedInUi: string | null;
}

/**
 * Init script (runs at the start of every document): remembers when the main document starts a
 * cross-document navigation (location.replace during parsing, an auto-submitted form, ...), so
 * an intermediate page that is already on its way out is not judged before its request shows up.
 */
export const NAVIGATION_WATCH_SCRIPT = `(() => {
  try {
    const nav = window.navigation;
    if (!nav || window.top !== window) return;
    let at = 0;
    nav.addEventListener('navigate', (e) => {
      if (!e.destination.sameDocument && !e.downloadRequest) at = Date.now();
    });
    Object.defineProperty(window, '__agentStudioNavAt', { get: () => at, configurable: true });
  } catch {}
})();`;

/**
 * In-page: collects evidence for the outcome of a login attempt. Never returns field values.
 * One round trip per frame: it also (re)arms the error-toast observer of this document and reads
 * localStorage checksums.
 */
export function scanPageSignals(args: SignalArgs, h: DomHelpers): PageSignals {
  const { re } = h;
  const win = window as unknown as Record<string, unknown>;

  // Records texts of nodes added from now on that look like errors, so toasts that vanish before
  // the next look are still seen. Installed once per document.
  if (!win['__agentStudioLoginObserverInstalled'] && document.documentElement) {
    win['__agentStudioLoginObserverInstalled'] = true;
    const log: string[] = [];
    win['__agentStudioLoginObserved'] = log;
    const consider = (node: Node): void => {
      const el = node instanceof Element ? node : node.parentElement;
      if (!el) return;
      const t = h.collapse(el.textContent, 300);
      if (!t || t.length > 300 || !(h.re.error.test(t) || h.re.locked.test(t)) || log.includes(t)) return;
      // Judge visibility a moment later (toasts fade in); hidden templates never count.
      setTimeout(() => {
        if (h.isVisible(el) && !log.includes(t)) log.push(t);
      }, 150);
    };
    const obs = new MutationObserver((records) => {
      for (const r of records) {
        if (r.type === 'characterData') consider(r.target);
        for (const n of Array.from(r.addedNodes)) consider(n);
      }
    });
    obs.observe(document.documentElement, { childList: true, subtree: true, characterData: true });
  }

  const leaving = (): number | null => {
    const at = Number(win['__agentStudioNavAt'] ?? 0);
    if (at > 0) return Math.max(0, Date.now() - at);
    const refresh = document.querySelector('meta[http-equiv="refresh" i]');
    const delay = refresh ? parseFloat(refresh.getAttribute('content') || '') : NaN;
    return delay >= 0 && delay <= 10 ? 0 : null;
  };

  const storage: PageSignals['storage'] = [];
  const readArea = (area: 'local' | 'session'): void => {
    try {
      const store = area === 'local' ? localStorage : sessionStorage;
      for (let i = 0; i < store.length; i++) {
        const k = store.key(i);
        if (k === null) continue;
        const v = store.getItem(k) ?? '';
        let sum = 0;
        for (let j = 0; j < v.length; j++) sum = (sum * 31 + v.charCodeAt(j)) | 0;
        storage.push([location.origin, k, `${v.length}:${sum}`, area]);
      }
    } catch {
      // opaque origins and sandboxed frames have no web storage
    }
  };
  readArea('local');
  readArea('session');

  const all = h.allElements();
  const visible = (el: Element): boolean => h.isVisible(el);

  // CAPTCHA: only visible, interactive widgets count. Invisible reCAPTCHA (v3 badge, size=invisible)
  // and "protected by reCAPTCHA" notices do not block a login.
  let captcha: string | null = null;
  const passive = (el: Element): boolean =>
    !!el.closest('.grecaptcha-badge,[data-size=invisible],[data-badge]') ||
    el.getAttribute('data-size') === 'invisible';
  const bigEnough = (el: Element, w: number, hgt: number): boolean => {
    const r = el.getBoundingClientRect();
    return r.width >= w && r.height >= hgt;
  };
  for (const el of all) {
    if (captcha) break;
    if (el.tagName === 'IFRAME') {
      const src = (el.getAttribute('src') || '') + ' ' + (el.getAttribute('title') || '');
      if (!/recaptcha|hcaptcha|challenges\.cloudflare|turnstile|arkoselabs|funcaptcha|geetest|captcha/i.test(src))
        continue;
      if (/size=invisible/.test(src) || passive(el) || !visible(el) || !bigEnough(el, 30, 30)) continue;
      captcha = `captcha frame '${h.collapse(el.getAttribute('title') || src.replace(/\?.*$/, ''), 60)}'`;
    } else if (
      el.matches('.g-recaptcha,.h-captcha,.cf-turnstile,#FunCaptcha,#arkose,[data-sitekey],[data-hcaptcha-widget-id]')
    ) {
      if (passive(el) || !visible(el) || !bigEnough(el, 30, 15)) continue;
      captcha = `captcha widget (${el.tagName.toLowerCase()}${el.id ? '#' + el.id : ''})`;
    } else if (el.matches('img[src*=captcha i],img[alt*=captcha i],input[name*=captcha i],input[id*=captcha i]')) {
      // Classic image/text CAPTCHAs: a picture of characters and a field to type them.
      if (passive(el) || !visible(el) || !bigEnough(el, 20, 10)) continue;
      captcha = `captcha ${el.tagName === 'IMG' ? 'image' : 'input'}`;
    }
  }

  // Texts worth reading: alerts, live regions, error-ish containers, headings, small forms, short pages.
  const prominent: Element[] = [];
  const errorish =
    '[role=alert],[role=alertdialog],[role=status],[aria-live]:not([aria-live=off]),[class*=error i],[class*=alert i],[class*=danger i],[class*=invalid i],[class*=warning i],[class*=flash i],[class*=toast i],[class*=snack i],[class*=notif i],[class*=message i],[class*=feedback i],[class*=notice i],[class*=red- i],[class*=-red i],[class*=danger i],[class*=err i],[id*=error i],[id*=alert i],[id*=message i],[data-error],output,.help-block,small';
  for (const el of all) if (el.matches(errorish) && visible(el)) prominent.push(el);
  const headings = all.filter((el) => /^(H1|H2|H3|H4|LEGEND)$/.test(el.tagName) && visible(el));
  const bodyText = document.body ? h.textOf(document.body, 20000) : '';
  const texts = new Set<string>();
  for (const el of prominent) {
    const t = h.textOf(el, 300);
    if (t && t.length <= 300) texts.add(t);
  }
  for (const el of headings) texts.add(h.textOf(el, 200));
  for (const form of Array.from(document.querySelectorAll('form'))) {
    if (!visible(form)) continue;
    for (const el of Array.from(form.querySelectorAll('p,span,div,li,strong,b,em'))) {
      if (el.children.length > 2 || !visible(el)) continue;
      const t = h.textOf(el, 300);
      if (t && t.length <= 240) texts.add(t);
    }
  }
  if (document.body && bodyText.length < 5000) {
    const rawLines = ((document.body as HTMLElement).innerText || '').split('\n');
    for (const l of rawLines) {
      const t = h.collapse(l, 240);
      if (t.length >= 3) texts.add(t);
    }
  }
  // aria-invalid fields point at their error via aria-describedby / aria-errormessage.
  for (const el of all) {
    if (el.getAttribute('aria-invalid') !== 'true') continue;
    for (const attr of ['aria-describedby', 'aria-errormessage']) {
      for (const id of (el.getAttribute(attr) || '').split(/\s+/).filter(Boolean)) {
        const target = document.getElementById(id);
        if (target && visible(target)) texts.add(h.textOf(target, 240));
      }
    }
  }
  // A question with its answer link is help, not an error: "Wrong address? Use a different email",
  // "Didn't get the email? Try again" (the short unpunctuated fragment after it is the link's label).
  const withoutHelp = (t: string): string => t.replace(/[^.!?]*\?(\s+[^.!?]{1,40}$)?/g, ' ');
  const messages = [...texts].filter((t) => {
    const u = withoutHelp(t);
    return re.error.test(u) || re.locked.test(u) || re.captchaText.test(t);
  });

  let locked: string | null = null;
  for (const t of texts)
    // Every hedged mention taken out ("… or blocked, or locked"): what is left decides.
    if (re.locked.test(t.replace(new RegExp(re.lockHedge.source, 'gi'), ' '))) {
      locked = t;
      break;
    }
  let botWall: string | null = null;
  for (const t of texts)
    if (t.length < 240 && re.botWall.test(t)) {
      botWall = t;
      break;
    }
  if (!captcha)
    for (const t of texts)
      if (re.captchaText.test(t) && t.length < 200) {
        captcha = `captcha text '${t}'`;
        break;
      }

  const inputs = all.filter((el) => el.tagName === 'INPUT') as HTMLInputElement[];
  // A code field may be type=password (PIN-style); it is a second factor, not a login password.
  const isOtp = (el: HTMLInputElement): boolean =>
    h.autocomplete(el).includes('one-time-code') ||
    (el.type === 'password'
      ? /(verification|security|sms|one.?time|authenticat\w*|2fa|mfa) ?code|\botp\b/i
      : re.otp
    ).test(h.describe(el));
  const otpInputs = inputs.filter(
    (el) =>
      visible(el) &&
      el.type !== 'hidden' &&
      el.getAttribute('data-agent-studio-login') !== args.watchMarker &&
      isOtp(el),
  ).length;
  const visPw = inputs.filter((el) => el.type === 'password' && visible(el));
  const loginPasswords = visPw.filter(
    (el) =>
      !h.autocomplete(el).includes('new-password') &&
      (el.getAttribute('data-agent-studio-login') === args.watchMarker || !isOtp(el)),
  ).length;
  // The prompt as a person needs it: the instruction that says where the code comes from ("Enter the code from your
  // authenticator app"), after the page's heading ("Two-step verification") when there is one.
  let mfaText: string | null = null;
  if (!loginPasswords) {
    const headingTexts = new Set(headings.map((el) => h.textOf(el, 200)));
    const said = [...texts].filter((t) => re.mfa.test(t) && t.length < 300);
    const SOURCE =
      /authenticator|\bapp\b|sms|text message|phone|e-?mail|inbox|sent|security key|device|handy|correo|téléphone|アプリ/i;
    const instruction =
      said.find((t) => !headingTexts.has(t) && SOURCE.test(t)) ?? said.find((t) => !headingTexts.has(t));
    const heading = said.find((t) => headingTexts.has(t));
    mfaText =
      heading && instruction && !instruction.includes(heading)
        ? `${heading}: ${instruction}`
        : (instruction ?? heading ?? null);
  }

  let watchedState: PageSignals['watchedState'] = 'absent';
  let watchedFormState: string | null = null;
  // The form (or, for a form-less widget, the nearest container with a button) and what its
  // controls show; a checksum, so no text leaves the page.
  const formState = (field: HTMLInputElement): string => {
    let root: Element = field.form ?? field;
    while (!field.form && root.parentElement && !root.querySelector('button,[role=button],input[type=submit]'))
      root = root.parentElement;
    // Classes are left out: focus and hover styling change them without any submit.
    const parts: string[] = [root.getAttribute('aria-busy') ?? ''];
    for (const el of Array.from(root.querySelectorAll('*'))) {
      const c = el as HTMLButtonElement;
      parts.push(
        `${el.tagName}|${c.disabled ? 'd' : ''}|${el.getAttribute('aria-busy') ?? ''}|${el.getAttribute('aria-disabled') ?? ''}|${visible(el) ? 'v' : ''}`,
      );
      if (el.matches('button,[role=button],input[type=submit],input[type=button]')) parts.push(h.clickableText(el));
    }
    let sum = 0;
    const text = parts.join('\n');
    for (let j = 0; j < text.length; j++) sum = (sum * 31 + text.charCodeAt(j)) | 0;
    return `${parts.length}:${sum}`;
  };
  if (args.watchMarker) {
    const w = all.find((el) => el.getAttribute('data-agent-studio-login') === args.watchMarker) as
      HTMLInputElement | undefined;
    if (w) watchedState = !visible(w) ? 'hidden' : w.value ? 'visible-filled' : 'visible-empty';
    if (w) watchedFormState = formState(w);
  }

  // A signed-in page: a visible Log out / Sign out control, or a logout link anywhere (menus hide it).
  let signedInUi: string | null = null;
  for (const el of all) {
    if (!el.matches('a,button,[role=button],[role=menuitem],[role=link],input[type=submit],input[type=button]'))
      continue;
    const href = el.getAttribute('href') || '';
    const byHref = /^[^?#]*\b(log_?out|sign_?out|log_?off|signoff|abmelden)\b/i.test(
      href.replace(/^[a-z]+:\/\/[^/]+/i, ''),
    );
    const text = h.clickableText(el);
    if (byHref || (text.length <= 40 && re.logout.test(text) && visible(el))) {
      signedInUi = h.collapse(text || href, 60);
      break;
    }
  }

  const autoPost = Array.from(document.forms).some((f) => {
    const els = Array.from(f.elements) as HTMLInputElement[];
    return els.some((e) => e.type === 'hidden') && !els.some((e) => e.type !== 'hidden' && visible(e));
  });
  // Next to no text and nothing to type into - unless it is the site's signed-in page (a short one).
  const bridge =
    autoPost ||
    (!!document.body &&
      bodyText.length < 150 &&
      !signedInUi &&
      !inputs.some((el) => el.type !== 'hidden' && visible(el)));

  const invalidFields: string[] = [];
  for (const form of Array.from(document.querySelectorAll('form'))) {
    if (!visible(form) || !form.querySelector('input[type=password]')) continue;
    for (const el of Array.from(form.elements) as HTMLInputElement[]) {
      if (typeof el.checkValidity === 'function' && el.willValidate && !el.checkValidity() && !form.noValidate) {
        invalidFields.push(h.collapse(el.getAttribute('name') || h.labelText(el) || el.id || el.type, 60));
      }
    }
  }

  const typeable = all.some(
    (el) =>
      (el.tagName === 'TEXTAREA' ||
        (el.tagName === 'INPUT' && (h.isTextLike(el) || (el as HTMLInputElement).type === 'password'))) &&
      visible(el),
  );
  const stayPrompt = !!bodyText && bodyText.length <= 2000 && re.staySignedIn.test(bodyText) && !typeable;

  const observed = Array.isArray(win['__agentStudioLoginObserved'])
    ? (win['__agentStudioLoginObserved'] as string[]).slice(-20)
    : [];
  return {
    url: location.href,
    captcha,
    locked,
    botWall,
    otpInputs,
    mfaText,
    messages: messages.slice(0, 20),
    observed,
    loginPasswords,
    watchedState,
    watchedFormState,
    invalidFields: invalidFields.slice(0, 10),
    bodyTextLength: bodyText.length,
    stayPrompt,
    readyState: document.readyState,
    leavingSinceMs: leaving(),
    bridge,
    storage,
    signedInUi,
  };
}
