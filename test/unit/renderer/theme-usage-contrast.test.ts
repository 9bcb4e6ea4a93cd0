// Contrast where the window's colours are really used, read from its style sheets (every .css under
// src/renderer): each rule that paints text gets its colour and background resolved through the theme tokens of
// both themes (styles.css :root for light, theme.css for dark, a dark rule overriding its light rule), and must
// reach 4.5:1 (WCAG 1.4.3); control borders and the focus ring must reach 3:1 against the surfaces they sit on
// (WCAG 1.4.11). A rule with no background of its own is checked on every surface of its part of the window.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../../helpers/repo-root.js';
import { contrast } from '../../helpers/contrast.js';

const RENDERER = path.join(REPO_ROOT, 'src/renderer');
const DARK = `[data-theme='dark']`;

interface Rule {
  file: string;
  selector: string;
  decls: Record<string, string>;
}

function cssFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const full = path.join(dir, e.name);
    if (e.isDirectory()) return cssFiles(full);
    return e.name.endsWith('.css') ? [full] : [];
  });
}

/** The rules of a sheet, those inside @media / @supports blocks included (a block's body is read as rules). */
function rulesOf(file: string): Rule[] {
  const css = fs.readFileSync(file, 'utf8').replace(/\/\*[\s\S]*?\*\//g, '');
  const rules: Rule[] = [];
  const walk = (text: string) => {
    let i = 0;
    while (i < text.length) {
      const open = text.indexOf('{', i);
      if (open < 0) break;
      const head = text.slice(i, open).trim();
      // The matching close brace (a block may nest rules).
      let depth = 1;
      let j = open + 1;
      for (; j < text.length && depth > 0; j++) {
        if (text[j] === '{') depth++;
        else if (text[j] === '}') depth--;
      }
      const body = text.slice(open + 1, j - 1);
      if (head.startsWith('@')) {
        if (/^@(media|supports)/.test(head)) walk(body);
      } else {
        const decls: Record<string, string> = {};
        for (const d of body.split(';')) {
          const at = d.indexOf(':');
          if (at > 0) decls[d.slice(0, at).trim()] = d.slice(at + 1).trim();
        }
        for (const selector of head.split(',').map((s) => s.trim().replace(/\s+/g, ' '))) {
          rules.push({ file: path.relative(RENDERER, file), selector, decls });
        }
      }
      i = j;
    }
  };
  walk(css);
  return rules;
}

const RULES = cssFiles(RENDERER).flatMap(rulesOf);
const tokensOf = (selector: string) =>
  Object.fromEntries(
    RULES.filter((r) => r.selector === selector)
      .flatMap((r) => Object.entries(r.decls))
      .filter(([k]) => k.startsWith('--'))
      .map(([k, v]) => [k.slice(2), v]),
  );
const LIGHT = tokensOf(':root');
const PALETTES = { light: LIGHT, dark: { ...LIGHT, ...tokensOf(`:root${DARK}`) } } as const;
type Theme = keyof typeof PALETTES;

/** A colour value as #rrggbb through the theme's tokens; null for anything not one solid colour. */
function resolve(value: string | undefined, theme: Theme): string | null {
  if (!value) return null;
  const v = value.replace(/\s*!important$/, '').trim();
  const ref = /^var\(--([\w-]+)\)$/.exec(v);
  if (ref) return resolve(PALETTES[theme][ref[1]], theme);
  const hex = /^#([0-9a-f]{3}|[0-9a-f]{6})$/i.exec(v);
  if (!hex) return null;
  const h = hex[1].length === 3 ? [...hex[1]].map((c) => c + c).join('') : hex[1];
  return `#${h.toLowerCase()}`;
}
/** The colour in a `border`/`outline` shorthand (`1px solid var(--x)`). */
const colourIn = (shorthand: string | undefined) =>
  shorthand?.match(/(var\(--[\w-]+\)|#[0-9a-f]{6}|#[0-9a-f]{3})/i)?.[1];

/** Surfaces a rule without its own background is painted on, by the part of the window it styles. */
function surfacesOf(selector: string, theme: Theme): string[] {
  const p = PALETTES[theme];
  if (/sidebar|nav-|brand|server-|\.version|api-status|icon-button|menu-button|\.dot/.test(selector)) {
    return [p.sidebar, p['sidebar-2']];
  }
  return [p.bg, p.surface, p['surface-2']];
}

/**
 * Rules left out, each with why: their text is not information (decorative, aria-hidden), or it sits on a
 * picture or a coloured fill that is checked with the rule that paints that fill.
 */
const NOT_TEXT: Record<string, string> = {
  '.empty-icon': 'a decorative glyph (aria-hidden); the empty state says it in words beside it',
  '.player-placeholder': 'text on the dark video placeholder, checked against its own gradient below',
  '.brand-mark': 'the logo letter on the logo gradient (aria-hidden)',
};
const skipped = (selector: string) =>
  Object.keys(NOT_TEXT).some((s) => selector === s || selector.startsWith(`${s} `)) ||
  /:disabled|::placeholder|::selection/.test(selector);

/** For the light theme, the rule itself; for dark, the rule with any `[data-theme='dark'] <same selector>` rule over it. */
function declsFor(rule: Rule, theme: Theme): Record<string, string> {
  if (theme === 'light') return rule.decls;
  const over = RULES.filter((r) => r.selector === `${DARK} ${rule.selector}`);
  return Object.assign({}, rule.decls, ...over.map((r) => r.decls));
}

interface Finding {
  where: string;
  ratio: number;
}

function textFindings(theme: Theme): Finding[] {
  const found: Finding[] = [];
  for (const rule of RULES) {
    const darkOnly = rule.selector.startsWith(DARK) || rule.selector.startsWith(`:root${DARK}`);
    if (darkOnly && theme === 'light') continue;
    if (rule.selector.startsWith(':root') || skipped(rule.selector.replace(`${DARK} `, ''))) continue;
    const decls = darkOnly ? rule.decls : declsFor(rule, theme);
    const fg = resolve(decls.color, theme);
    if (!fg) continue;
    const ownBg = resolve(decls['background-color'] ?? decls.background, theme);
    const bgs = ownBg ? [ownBg] : surfacesOf(rule.selector, theme);
    for (const bg of bgs) {
      const ratio = contrast(fg, bg);
      if (ratio < 4.5) found.push({ where: `${rule.file} ${rule.selector}: ${fg} on ${bg}`, ratio: +ratio.toFixed(2) });
    }
  }
  return found;
}

/**
 * Borders that make a control visible, and the focus ring: 3:1 against the surfaces around them. (A button's
 * border is not among them: its words identify it, so its border is decoration.)
 */
const UI_PARTS = [
  { part: 'text field, menu and text area border', selector: 'select', prop: 'border' },
  { part: 'focus ring', selector: ':focus-visible', prop: 'outline' },
  { part: 'focused field border', selector: 'input:focus', prop: 'border-color' },
];

function uiFindings(theme: Theme): Finding[] {
  const found: Finding[] = [];
  const p = PALETTES[theme];
  for (const { part, selector, prop } of UI_PARTS) {
    const rule = RULES.find((r) => r.selector === selector && r.decls[prop]);
    if (!rule) throw new Error(`no ${selector} rule with ${prop}`);
    const decls = declsFor(rule, theme);
    const darkOverride = RULES.find((r) => r.selector === `${DARK} ${selector}` && r.decls[`${prop}-color`]);
    const value = (theme === 'dark' && darkOverride?.decls[`${prop}-color`]) || colourIn(decls[prop]) || decls[prop];
    const colour = resolve(value, theme);
    if (!colour) throw new Error(`${selector} ${prop}: ${decls[prop]} is not a solid colour`);
    for (const bg of [p.bg, p.surface, p['surface-2']]) {
      const ratio = contrast(colour, bg);
      if (ratio < 3) found.push({ where: `${part} (${selector}): ${colour} on ${bg}`, ratio: +ratio.toFixed(2) });
    }
  }
  return found;
}

describe('contrast of the colours as the style sheets use them', () => {
  it('reads the sheets: tokens of both themes and the rules that paint text', () => {
    expect(Object.keys(LIGHT).length).toBeGreaterThan(20);
    expect(PALETTES.dark.bg).not.toBe(PALETTES.light.bg);
    expect(RULES.filter((r) => r.decls.color).length).toBeGreaterThan(100);
    expect(resolve('var(--text)', 'dark')).toBe(PALETTES.dark.text);
    expect(contrast('#777777', '#ffffff')).toBeCloseTo(4.48, 2);
  });

  for (const theme of ['light', 'dark'] as const) {
    it(`${theme}: every text colour reaches 4.5:1 on what it is painted on`, () => {
      expect(textFindings(theme)).toEqual([]);
    });
    it(`${theme}: control borders and the focus ring reach 3:1`, () => {
      expect(uiFindings(theme)).toEqual([]);
    });
  }

  it('the video placeholder’s text is readable on both ends of its gradient', () => {
    const rule = RULES.find((r) => r.selector === '.player-placeholder')!;
    const [from, to] = rule.decls.background.match(/#[0-9a-f]{6}/gi)!;
    for (const bg of [from, to]) expect(contrast(resolve(rule.decls.color, 'light')!, bg)).toBeGreaterThanOrEqual(4.5);
  });
});
