// Text contrast of the window's palette, checked from the theme tokens themselves (styles.css for light,
// theme.css for dark): every text colour on every surface it is painted on reaches WCAG AA (4.5:1), so a new
// token value that fails is caught before anyone opens the window.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../../helpers/repo-root.js';
import { contrast } from '../../helpers/contrast.js';

/** The custom properties of the first rule whose selector is `selector` in a CSS file. */
function tokens(file: string, selector: string): Record<string, string> {
  const css = fs.readFileSync(path.join(REPO_ROOT, 'src/renderer', file), 'utf8');
  const start = css.indexOf(`${selector} {`);
  if (start < 0) throw new Error(`${selector} not in ${file}`);
  const block = css.slice(start, css.indexOf('}', start));
  return Object.fromEntries([...block.matchAll(/--([\w-]+):\s*(#[0-9a-f]{6})\s*;/gi)].map((m) => [m[1], m[2]]));
}

const light = tokens('styles.css', ':root');
const dark = { ...light, ...tokens('theme.css', ":root[data-theme='dark']") };

/** [text token, background token]: where each text colour is painted. */
const PAIRS: [string, string][] = [
  ...['text', 'text-2', 'text-3'].flatMap((t) => ['bg', 'surface', 'surface-2'].map((b) => [t, b] as [string, string])),
  ['success', 'success-soft'],
  ['warning', 'warning-soft'],
  ['danger', 'danger-soft'],
  ['danger', 'danger-field'],
  ['success', 'surface'],
  ['danger', 'surface'],
  ['sidebar-text', 'sidebar'],
  ['sidebar-text', 'sidebar-2'],
  ['sidebar-muted', 'sidebar'],
  ['on-primary', 'primary-fill'],
  ['on-primary', 'primary-fill-hover'],
];

describe('theme tokens reach 4.5:1 for text', () => {
  it('the ratio is computed as WCAG defines it', () => {
    expect(contrast('#000000', '#ffffff')).toBeCloseTo(21, 5);
    expect(contrast('#777777', '#ffffff')).toBeCloseTo(4.48, 2);
  });

  for (const [name, palette] of [
    ['light', light],
    ['dark', dark],
  ] as const) {
    it.each(PAIRS)(`${name}: --%s on --%s`, (text, background) => {
      expect(palette[text], `--${text}`).toBeDefined();
      expect(palette[background], `--${background}`).toBeDefined();
      expect(contrast(palette[text], palette[background])).toBeGreaterThanOrEqual(4.5);
    });
  }
});
