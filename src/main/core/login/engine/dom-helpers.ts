import type { KeywordName, KeywordSources } from './form-keywords.js';
import type { ScannedField } from './scanned-field.js';

/**
 * DOM helpers shared by the in-page scripts. This function is serialized with `toString()` and
 * run inside the page, so it must not reference anything outside its own body.
 */
export function domHelpers(kw: KeywordSources, markAttr: string, scanId: string) {
  const re = {} as Record<KeywordName, RegExp>;
  for (const key of Object.keys(kw) as KeywordName[]) re[key] = new RegExp(kw[key], 'i');
  let markCounter = 0;

  const collapse = (s: string | null | undefined, max = 300): string =>
    (s ?? '').replace(/\s+/g, ' ').trim().slice(0, max);

  const parentOf = (node: Node): Element | null => {
    if (node instanceof Element && node.parentElement) return node.parentElement;
    const parent = node.parentNode;
    if (parent && parent instanceof ShadowRoot) return parent.host;
    return parent instanceof Element ? parent : null;
  };

  /** All elements in document order, descending into open shadow roots. */
  const allElements = (root: Document | ShadowRoot | Element = document): Element[] => {
    const out: Element[] = [];
    const walk = (node: Document | ShadowRoot | Element): void => {
      for (const el of Array.from(node.querySelectorAll('*'))) {
        out.push(el);
        if (el.shadowRoot) walk(el.shadowRoot);
      }
    };
    walk(root);
    return out;
  };

  const containsDeep = (ancestor: Element, el: Element): boolean => {
    for (let n: Element | null = el; n; n = parentOf(n)) if (n === ancestor) return true;
    return false;
  };

  const ancestors = (el: Element): Element[] => {
    const out: Element[] = [];
    for (let n: Element | null = el; n; n = parentOf(n)) out.push(n);
    return out;
  };

  const treeDistance = (a: Element, b: Element): number => {
    const pa = ancestors(a);
    const pb = ancestors(b);
    const setB = new Set(pb);
    const i = pa.findIndex((n) => setB.has(n));
    if (i < 0) return 99;
    return i + pb.indexOf(pa[i]);
  };

  // A look (one in-page script) runs synchronously, so its answers hold until it returns: the
  // ancestors that clip or hide are shared by most elements a scan asks about, and scans ask about
  // many. endLook() turns the memo off for callbacks that outlive the look (the toast observer).
  let memo = true;
  const visibleCache = new Map<Element, boolean>();
  const hidesContent = new Map<Element, boolean>();
  const endLook = (): void => {
    memo = false;
    visibleCache.clear();
    hidesContent.clear();
  };

  /** aria-hidden, or a tiny overflow-hidden wrapper (screen-reader-only / honeypot tricks). */
  const ancestorHides = (n: Element, el: Element): boolean => {
    if (n.getAttribute('aria-hidden') === 'true') return true;
    // overflow on <body> (and <html>) clips nothing here: it applies to the viewport, and an app
    // whose content is all absolutely positioned (ExtJS, dashboards) has a body 0 px high.
    if (n === el || !(n instanceof HTMLElement) || n === document.body || n === document.documentElement) return false;
    let hides = memo ? hidesContent.get(n) : undefined;
    if (hides === undefined) {
      const s = getComputedStyle(n);
      hides = false;
      if (s.overflow === 'hidden' || s.overflowX === 'hidden' || s.overflowY === 'hidden') {
        const nr = n.getBoundingClientRect();
        hides = nr.width < 3 || nr.height < 3;
      }
      if (memo) hidesContent.set(n, hides);
    }
    return hides;
  };

  const isVisible = (el: Element): boolean => {
    if (!memo) return computeVisible(el);
    let v = visibleCache.get(el);
    if (v === undefined) visibleCache.set(el, (v = computeVisible(el)));
    return v;
  };

  const computeVisible = (el: Element): boolean => {
    if (!el.isConnected) return false;
    const anyEl = el as Element & { checkVisibility?: (o: object) => boolean };
    if (
      typeof anyEl.checkVisibility === 'function' &&
      !anyEl.checkVisibility({ checkOpacity: true, checkVisibilityCSS: true })
    )
      return false;
    const style = getComputedStyle(el);
    if (style.display === 'none' || style.visibility === 'hidden' || style.visibility === 'collapse') return false;
    if (Number(style.opacity) < 0.05) return false;
    const r = el.getBoundingClientRect();
    if (r.width < 3 || r.height < 3) return false;
    const docW = Math.max(document.documentElement.scrollWidth, window.innerWidth);
    const docH = Math.max(document.documentElement.scrollHeight, window.innerHeight);
    const left = r.left + window.scrollX;
    const top = r.top + window.scrollY;
    if (left + r.width <= 0 || top + r.height <= 0 || left >= docW || top >= docH) return false;
    if (style.clipPath === 'inset(50%)' || /rect\(0(px)?,? 0(px)?,? 0(px)?,? 0(px)?\)/.test(style.clip)) return false;
    let depth = 0;
    for (let n: Element | null = el; n && depth < 25; n = parentOf(n), depth++) if (ancestorHides(n, el)) return false;
    return true;
  };

  const textOf = (el: Element, max = 300): string => {
    const h = el as HTMLElement;
    return collapse(typeof h.innerText === 'string' ? h.innerText : el.textContent, max);
  };

  const byIdText = (ids: string | null, from?: Element): string => {
    if (!ids) return '';
    const rootNode = from?.getRootNode();
    const root = rootNode instanceof ShadowRoot ? rootNode : document;
    return ids
      .split(/\s+/)
      .map((id) => root.getElementById(id))
      .filter((x): x is HTMLElement => !!x)
      .map((x) => collapse(x.textContent, 120))
      .join(' ');
  };

  /** Visible text right before the field (e.g. `<div>Username</div><input>` without <label>). */
  const precedingText = (el: Element): string => {
    let node: Element | null = el;
    for (let level = 0; level < 3 && node; level++) {
      let sib: Node | null = node.previousSibling;
      let hops = 0;
      while (sib && hops < 4) {
        const t = collapse(sib.textContent, 80);
        if (t) {
          // Headings, other fields and long paragraphs are not this field's label.
          if (
            sib instanceof Element &&
            (sib.querySelector('input,select,textarea,button,h1,h2,h3') || /^H[1-3]$/.test(sib.tagName))
          )
            return '';
          return t.length <= 60 ? t : '';
        }
        sib = sib.previousSibling;
        hops++;
      }
      node = parentOf(node);
      if (node && node.querySelectorAll('input,select,textarea').length > 1) return '';
    }
    return '';
  };

  const labelText = (el: Element): string => {
    const parts: string[] = [];
    const labels = (el as HTMLInputElement).labels;
    if (labels) for (const l of Array.from(labels)) parts.push(collapse(l.textContent, 120));
    parts.push(byIdText(el.getAttribute('aria-labelledby'), el));
    const joined = parts.filter(Boolean).join(' ');
    return joined || precedingText(el);
  };

  /** Everything a human or a password manager would read to know what a field is for. */
  const describe = (el: Element, withHints = true): string => {
    const attrs = [
      'name',
      'id',
      'placeholder',
      'aria-label',
      'title',
      'data-testid',
      'data-test',
      'formcontrolname',
      'ng-model',
      'v-model',
    ];
    const parts = attrs.map((a) => el.getAttribute(a) ?? '');
    parts.push(labelText(el));
    // Hint/error texts (aria-describedby) help name a field but may mention other fields.
    if (withHints) parts.push(byIdText(el.getAttribute('aria-describedby'), el));
    // Split camelCase and snake_case so "userName" / "user_name" match word patterns.
    return collapse(
      parts
        .filter(Boolean)
        .join(' | ')
        .replace(/([a-z])([A-Z])/g, '$1 $2')
        .replace(/[_\-.[\]]+/g, ' '),
      400,
    );
  };

  const clickableText = (el: Element): string => {
    const input = el as HTMLInputElement;
    let t = '';
    if (el.tagName === 'INPUT') t = input.value || el.getAttribute('aria-label') || el.getAttribute('alt') || '';
    else t = textOf(el, 80) || el.getAttribute('aria-label') || el.getAttribute('title') || '';
    if (!t) {
      const img = el.querySelector('img[alt],svg[aria-label]');
      t = img?.getAttribute('alt') || img?.getAttribute('aria-label') || '';
    }
    return collapse(t, 80);
  };

  const CLICKABLE =
    'a[href],button,input[type=submit],input[type=button],input[type=image],[role=button],[role=link],[role=menuitem],[role=tab],[onclick],summary';

  const isTextLike = (el: Element): el is HTMLInputElement => {
    if (el.tagName !== 'INPUT') return false;
    const t = (el.getAttribute('type') || 'text').toLowerCase();
    return (
      ['text', 'email', 'tel', 'number', 'url', ''].includes(t) ||
      ![
        'password',
        'hidden',
        'checkbox',
        'radio',
        'submit',
        'button',
        'image',
        'reset',
        'file',
        'range',
        'color',
        'date',
        'datetime-local',
        'month',
        'week',
        'time',
        'search',
      ].includes(t)
    );
  };

  const autocomplete = (el: Element): string => (el.getAttribute('autocomplete') || '').toLowerCase();

  const isEditable = (el: Element): boolean => {
    const i = el as HTMLInputElement;
    return !i.disabled && !i.readOnly && el.getAttribute('aria-disabled') !== 'true';
  };

  /** The element a scan marked with `id`, also inside open shadow roots. */
  const findMarked = (id: string): Element | null => {
    const sel = `[${markAttr}="${CSS.escape(id)}"]`;
    const find = (root: Document | ShadowRoot): Element | null => {
      const hit = root.querySelector(sel);
      if (hit) return hit;
      for (const el of Array.from(root.querySelectorAll('*'))) {
        const deep = el.shadowRoot ? find(el.shadowRoot) : null;
        if (deep) return deep;
      }
      return null;
    };
    return find(document);
  };

  /** The focused element, looking into open shadow roots. */
  const activeElement = (): Element | null => {
    let a = document.activeElement;
    while (a?.shadowRoot?.activeElement) a = a.shadowRoot.activeElement;
    return a;
  };

  /** What a scan reports about a field (marked, so a locator can find it again), as `kind`. */
  const fieldInfo = (el: Element, kind: ScannedField['kind'], score = 0): ScannedField => {
    const input = el as HTMLInputElement;
    const checkable = kind === 'checkbox' || kind === 'radio';
    let inert = false;
    for (let n: Element | null = el; n && !inert; n = parentOf(n)) inert = n.hasAttribute('inert');
    return {
      id: mark(el),
      kind,
      name: el.getAttribute('name') || '',
      htmlId: el.id || '',
      label: collapse(labelText(el), 120),
      placeholder: el.getAttribute('placeholder') || '',
      ariaLabel: el.getAttribute('aria-label') || '',
      autocomplete: autocomplete(el),
      descriptor: describe(el),
      editable: isEditable(el),
      inert,
      hasValue: checkable ? input.checked : !!input.value,
      optionValue: checkable ? input.value : undefined,
      score,
    };
  };

  const clearMarks = (): void => {
    for (const el of allElements()) if (el.hasAttribute(markAttr)) el.removeAttribute(markAttr);
  };

  const mark = (el: Element): string => {
    const existing = el.getAttribute(markAttr);
    if (existing && existing.startsWith(scanId)) return existing;
    const id = `${scanId}-${++markCounter}`;
    el.setAttribute(markAttr, id);
    return id;
  };

  /** Nearest preceding heading (or legend) text: "Sign in to Acme" vs "Create your account". */
  const headingFor = (scope: Element, order: Map<Element, number>, all: Element[]): string => {
    const own = scope.querySelector('h1,h2,h3,h4,legend,[role=heading]');
    if (own && isVisible(own)) return textOf(own, 120);
    const pos = order.get(scope) ?? 0;
    for (let i = pos - 1; i >= 0 && i > pos - 400; i--) {
      const el = all[i];
      if (/^(H1|H2|H3|H4|LEGEND)$/.test(el.tagName) || el.getAttribute('role') === 'heading') {
        if (isVisible(el)) return textOf(el, 120);
      }
    }
    return '';
  };

  /**
   * A control that never submits a login form, whatever its text: a menu or select trigger (aria-haspopup, a
   * combobox), a switch, checkbox or tab, a language / country / region picker, a "remember me" control. Why it is
   * not, or null. A language select drawn as a button says "English": it is still a select.
   */
  const LANGUAGE_NAMES =
    /^(english|deutsch|français|francais|español|espanol|italiano|português|portugues|nederlands|polski|svenska|dansk|norsk|suomi|čeština|magyar|türkçe|русский|українська|日本語|中文|简体中文|繁體中文|한국어|العربية|עברית|ελληνικά|english \(\w+\)|en|de|fr|es|it|pt|nl|ja|zh)(\s*[▾▼⌄]|\s*expand_more|\s*arrow_drop_down)?$/i;
  const isDisabled = (el: Element): boolean =>
    !!(el as HTMLButtonElement).disabled || el.getAttribute('aria-disabled') === 'true';

  const notASubmit = (el: Element, text: string): string | null => {
    const popup = el.getAttribute('aria-haspopup');
    if (popup && popup !== 'false') return 'opens a menu';
    const role = el.getAttribute('role') || '';
    if (/^(switch|checkbox|radio|combobox|listbox|option|tab|menuitemcheckbox|menuitemradio)$/.test(role))
      return `a ${role}`;
    if (el.hasAttribute('aria-checked')) return 'a toggle';
    // "Sign in", "Continue": a control that says it submits is judged by the scan's scores, not by its class.
    if (re.login.test(text) || re.next.test(text)) return null;
    const named = [el.getAttribute('aria-label'), el.getAttribute('title'), el.id, el.getAttribute('class')]
      .filter(Boolean)
      .join(' ');
    if (/\b(lang(uage)?|locale|country|region)([-_]|\b)/i.test(named) || LANGUAGE_NAMES.test(text))
      return 'a language or country picker';
    if (re.remember.test(text) || re.remember.test(named)) return 'a remember-me control';
    return null;
  };

  return {
    re,
    notASubmit,
    isDisabled,
    collapse,
    parentOf,
    allElements,
    containsDeep,
    treeDistance,
    isVisible,
    textOf,
    labelText,
    describe,
    clickableText,
    CLICKABLE,
    isTextLike,
    autocomplete,
    isEditable,
    clearMarks,
    endLook,
    findMarked,
    activeElement,
    fieldInfo,
    mark,
    headingFor,
  };
}

export type DomHelpers = ReturnType<typeof domHelpers>;
