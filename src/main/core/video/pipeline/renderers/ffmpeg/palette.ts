// A render's colours from the words people use for them: "warm sunset", "pastel", "#ff6600, navy", "neon". The
// palette role's text is read first, then the style's; with no colour words at all the colours come from a hash of
// the headline (stable: the same text gets the same colours).

export type Rgb = readonly [number, number, number];

export interface Palette {
  /** Three background colours for the moving gradient. */
  background: [Rgb, Rgb, Rgb];
  /** Shapes, bars and the rule under the headline. */
  accent: Rgb;
  /** Text colour (white on dark backgrounds, near-black on light ones). */
  ink: Rgb;
  /** Whether the backgrounds are light (pastel, studio white): text is dark then. */
  light: boolean;
  /** The hue (degrees) the palette is about: its first colour's, else the accent's. */
  hue: number;
  /** What the colours came from: the words matched, or `hash`. */
  source: string;
}

const hex = (h: string): Rgb => [parseInt(h.slice(0, 2), 16), parseInt(h.slice(2, 4), 16), parseInt(h.slice(4, 6), 16)];

/** Named looks: several colours each (first = the one the palette is about), and whether they read as light. */
const NAMED: { words: RegExp; colors: string[]; light?: boolean }[] = [
  { words: /sunset|dusk glow|golden hour/i, colors: ['ff6b35', 'f7c548', 'c0392b', '5b1f3b'] },
  { words: /pastel|watercolou?r|soft colou?rs?|candy/i, colors: ['f7b7c8', 'b8e0d2', 'aec6e8', 'fdf1a8'], light: true },
  { words: /neon|cyberpunk|synthwave|vaporwave|electric/i, colors: ['ff2bd6', '00e5ff', '7b2cff', '12002b'] },
  { words: /ocean|sea\b|marine|aqua|coastal/i, colors: ['0a7abf', '00b4d8', '03045e', '90e0ef'] },
  { words: /icy|winter|cold|cool tones?|frost/i, colors: ['5fa8d3', 'cae9ff', '1b4965', '62b6cb'] },
  { words: /forest|jungle|nature|botanical|leafy/i, colors: ['2d6a4f', '74c69d', '081c15', 'b7e4c7'] },
  { words: /earth|desert|autumn|fall colou?rs|terracotta|rustic/i, colors: ['c2673c', 'e0a458', '4a2c1d', 'a47551'] },
  { words: /neutral|beige|sand|linen|nude/i, colors: ['c9a882', '8c6d52', 'efe4d6', '4b3b2f'] },
  {
    words: /black[\s-]*(and|&)[\s-]*white|\bb&w\b|noir|monochrome|gr[ae]yscale/i,
    colors: ['8a8a8a', 'd0d0d0', '1a1a1a'],
  },
  { words: /sepia|vintage|retro|old[\s-]film|nostalgic/i, colors: ['b08a5a', 'e3c9a0', '4e3524', '8b6b45'] },
  {
    words: /35\s?mm|cinematic|film look|teal (and|&) orange|blockbuster/i,
    colors: ['1f6f7a', 'e07a3f', '0c1a20', 'f2b880'],
  },
  { words: /night|midnight|moonlit|dusk|nocturnal/i, colors: ['2b2d6e', '5a4e8c', '0b0c24', 'f0a07a'] },
  { words: /studio|bright|clean|minimal|modern|white/i, colors: ['e9ecef', 'ced4da', 'f8f9fa', 'ef233c'], light: true },
  { words: /warm|golden|summer|sunny|cozy|cosy/i, colors: ['e8823a', 'f2c14e', '9c3d1c', 'f7e1b5'] },
];

/** Colour names people write (CSS names and a few common ones). */
const COLOR_NAMES: Record<string, string> = {
  red: 'e63946',
  crimson: 'dc143c',
  scarlet: 'ff2400',
  ruby: '9b111e',
  burgundy: '800020',
  maroon: '800000',
  orange: 'ff7f11',
  coral: 'ff7f50',
  peach: 'ffb38a',
  salmon: 'fa8072',
  amber: 'ffbf00',
  gold: 'd4a017',
  yellow: 'ffd60a',
  mustard: 'e1ad01',
  cream: 'f3e9d2',
  ivory: 'fffff0',
  beige: 'd8c3a5',
  brown: '8b5a2b',
  tan: 'd2b48c',
  olive: '6b8e23',
  lime: '9ef01a',
  green: '2a9d8f',
  emerald: '50c878',
  mint: '98ff98',
  teal: '008080',
  turquoise: '40e0d0',
  cyan: '00bcd4',
  aqua: '00ffff',
  sky: '87ceeb',
  blue: '1f6feb',
  cobalt: '0047ab',
  sapphire: '0f52ba',
  navy: '1b2a4a',
  indigo: '4b0082',
  violet: '8f00ff',
  purple: '7b2cbf',
  lavender: 'b497d6',
  lilac: 'c8a2c8',
  magenta: 'ff00ff',
  pink: 'ff69b4',
  rose: 'ff66a1',
  fuchsia: 'ff00a0',
  black: '111111',
  charcoal: '36454f',
  gray: '808080',
  grey: '808080',
  silver: 'c0c0c0',
  white: 'f5f5f5',
};

/** Colours written out in the text, in the order written: #rgb / #rrggbb codes and colour names. */
export function colorsIn(text: string): Rgb[] {
  const found: { at: number; rgb: Rgb }[] = [];
  for (const m of text.matchAll(/#([0-9a-f]{6}|[0-9a-f]{3})\b/gi)) {
    const h = m[1]!.length === 3 ? [...m[1]!].map((c) => c + c).join('') : m[1]!;
    found.push({ at: m.index, rgb: hex(h) });
  }
  for (const m of text.matchAll(/[a-z]+/gi)) {
    const name = COLOR_NAMES[m[0].toLowerCase()];
    if (name) found.push({ at: m.index, rgb: hex(name) });
  }
  return found.sort((a, b) => a.at - b.at).map((f) => f.rgb);
}

export function rgbToHsl([r, g, b]: Rgb): [number, number, number] {
  const [rn, gn, bn] = [r / 255, g / 255, b / 255];
  const max = Math.max(rn, gn, bn);
  const min = Math.min(rn, gn, bn);
  const l = (max + min) / 2;
  if (max === min) return [0, 0, l];
  const d = max - min;
  const s = l > 0.5 ? d / (2 - max - min) : d / (max + min);
  const h = max === rn ? (gn - bn) / d + (gn < bn ? 6 : 0) : max === gn ? (bn - rn) / d + 2 : (rn - gn) / d + 4;
  return [h * 60, s, l];
}

export function hslToRgb(h: number, s: number, l: number): Rgb {
  const a = s * Math.min(l, 1 - l);
  const f = (n: number) => {
    const k = (n + h / 30) % 12;
    return Math.round(255 * (l - a * Math.max(-1, Math.min(k - 3, 9 - k, 1))));
  };
  return [f(0), f(8), f(4)];
}

/** `0xRRGGBB` (ffmpeg's colour syntax), with `@alpha` when given. */
export function ffColor(rgb: Rgb, alpha?: number): string {
  const text = `0x${rgb.map((v) => v.toString(16).padStart(2, '0')).join('')}`;
  return alpha === undefined ? text : `${text}@${alpha}`;
}

/** The same hue and saturation at another lightness. */
const atLightness = (rgb: Rgb, l: number): Rgb => {
  const [h, s] = rgbToHsl(rgb);
  return hslToRgb(h, s, l);
};

function fromColors(colors: Rgb[], light: boolean, source: string): Palette {
  const [first, second = first, third = second] = colors;
  const [hue] = rgbToHsl(first!);
  const accent = [...colors].sort((a, b) => rgbToHsl(b)[1] - rgbToHsl(a)[1])[0]!;
  const [, accentS, accentL] = rgbToHsl(accent);
  // Dark backgrounds keep white text readable; light ones (pastel, studio) take dark text instead.
  const background: [Rgb, Rgb, Rgb] = light
    ? [atLightness(first!, 0.86), atLightness(second, 0.78), atLightness(third, 0.9)]
    : [atLightness(first!, 0.2), atLightness(second, 0.34), atLightness(third, 0.26)];
  return {
    background,
    accent: light || accentS < 0.1 ? accent : atLightness(accent, Math.min(0.62, Math.max(0.5, accentL))),
    ink: light ? [22, 22, 28] : [255, 255, 255],
    light,
    hue,
    source,
  };
}

/**
 * The palette for a render. `paletteText` (the palette role) is read first, then `styleText` (style and motion words
 * such as "golden hour"): colour codes and names written out win, then a named look; then the colours of the
 * subject picture (`pictureColors`, picture-colors.ts); `seed` picks a hue otherwise.
 */
export function paletteFor(
  paletteText: string,
  styleText: string,
  seed: number,
  pictureColors: readonly Rgb[] = [],
): Palette {
  for (const text of [paletteText, styleText]) {
    if (!text.trim()) continue;
    const written = colorsIn(text);
    if (written.length) {
      const light = written.every((c) => rgbToHsl(c)[2] > 0.7);
      return fromColors(written, light, text);
    }
    const named = NAMED.find((n) => n.words.test(text));
    if (named) return fromColors(named.colors.map(hex), named.light === true, text);
  }
  // The picture's own colours, its most colourful first (a grey third would make a grey palette of a red bicycle).
  if (pictureColors.length)
    return fromColors(
      [...pictureColors].sort((a, b) => rgbToHsl(b)[1] - rgbToHsl(a)[1]),
      false,
      'picture',
    );
  const hue = seed % 360;
  return fromColors(
    [hslToRgb(hue, 0.6, 0.5), hslToRgb((hue + 40) % 360, 0.6, 0.5), hslToRgb((hue + 200) % 360, 0.5, 0.4)],
    false,
    'hash',
  );
}
