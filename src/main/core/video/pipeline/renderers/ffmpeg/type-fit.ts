import { cleanCaptionText } from './captions.js';

// Setting a headline so the whole text fits its box: drawtext neither wraps nor measures for us, so lines are broken
// here by the fonts' real advance widths, balanced (no long line over a one-word orphan), and the size shrinks until
// every line fits. Nothing is cut off: past the smallest size the box grows down instead.

/**
 * Advance widths of printable ASCII (32-126) in hundredths of an em, read from the bundled DejaVu Sans fonts' hmtx
 * tables. Other characters count as the widest common letter (`OTHER`), so lines with them err on the short side.
 */
const ADVANCE = {
  regular: [
    32, 40, 46, 84, 64, 95, 78, 27, 39, 39, 50, 84, 32, 36, 32, 34, 64, 64, 64, 64, 64, 64, 64, 64, 64, 64, 34, 34, 84,
    84, 84, 53, 100, 68, 69, 70, 77, 63, 58, 77, 75, 29, 29, 66, 56, 86, 75, 79, 60, 79, 69, 63, 61, 73, 68, 99, 69, 61,
    69, 39, 34, 39, 84, 50, 50, 61, 63, 55, 63, 62, 35, 63, 63, 28, 28, 58, 28, 97, 63, 61, 63, 63, 41, 52, 39, 63, 59,
    82, 59, 59, 52, 64, 34, 64, 84,
  ],
  bold: [
    35, 46, 52, 84, 70, 100, 87, 31, 46, 46, 52, 84, 38, 42, 38, 37, 70, 70, 70, 70, 70, 70, 70, 70, 70, 70, 40, 40, 84,
    84, 84, 58, 100, 77, 76, 73, 83, 68, 68, 82, 84, 37, 37, 77, 64, 100, 84, 85, 73, 85, 77, 72, 68, 81, 77, 110, 77,
    72, 73, 46, 37, 46, 84, 50, 50, 67, 72, 59, 72, 68, 44, 72, 71, 34, 34, 67, 34, 104, 71, 69, 72, 72, 49, 60, 48, 71,
    65, 92, 65, 65, 58, 71, 37, 71, 84,
  ],
} as const;
const OTHER = { regular: 80, bold: 88 };

export type Weight = keyof typeof ADVANCE;

/** The width of `text` set at `fontSize` pixels. */
export function textWidth(text: string, fontSize: number, weight: Weight): number {
  let units = 0;
  for (const ch of text) {
    const code = ch.codePointAt(0)!;
    units += code >= 32 && code <= 126 ? ADVANCE[weight][code - 32]! : OTHER[weight];
  }
  return (units / 100) * fontSize;
}

export interface FittedText {
  lines: string[];
  fontSize: number;
  lineHeight: number;
  /** The height of the block of lines. */
  height: number;
}

export interface FitBox {
  width: number;
  height: number;
  /** The size to start from (the largest tried) and the smallest allowed. */
  maxSize: number;
  minSize: number;
  weight: Weight;
  /** Line height as a multiple of the font size. */
  leading?: number;
}

/** Splits a word wider than `width` into pieces that fit (a URL, a long compound). */
function splitLongWord(word: string, width: number, size: number, weight: Weight): string[] {
  const pieces: string[] = [];
  let piece = '';
  for (const ch of word) {
    if (piece && textWidth(piece + ch, size, weight) > width) {
      pieces.push(piece);
      piece = '';
    }
    piece += ch;
  }
  if (piece) pieces.push(piece);
  return pieces;
}

/** Greedy breaking at a target line width (never wider than `width`). */
function breakLines(words: string[], target: number, size: number, weight: Weight): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of words) {
    const next = line ? `${line} ${word}` : word;
    if (line && textWidth(next, size, weight) > target) {
      lines.push(line);
      line = word;
    } else line = next;
  }
  if (line) lines.push(line);
  return lines;
}

/**
 * Balanced lines: the fewest lines greedy breaking needs, then the narrowest target width that keeps that count, so
 * the lines come out of similar length ("Ride the / city" rather than "Ride the city and / go").
 */
export function balancedLines(text: string, width: number, size: number, weight: Weight): string[] {
  const words = cleanCaptionText(text)
    .split(' ')
    .filter(Boolean)
    .flatMap((w) => (textWidth(w, size, weight) > width ? splitLongWord(w, width, size, weight) : [w]));
  if (words.length === 0) return [];
  const greedy = breakLines(words, width, size, weight);
  if (greedy.length === 1) return greedy;
  let lo = Math.max(...words.map((w) => textWidth(w, size, weight)));
  let hi = width;
  for (let i = 0; i < 12; i++) {
    const mid = (lo + hi) / 2;
    if (breakLines(words, mid, size, weight).length <= greedy.length) hi = mid;
    else lo = mid;
  }
  return breakLines(words, hi, size, weight);
}

/**
 * The largest size (from maxSize down to minSize, about 6% a step) at which the whole text fits the box, its lines
 * balanced. A text too long for the box at minSize keeps minSize and every line: the block is then taller than the
 * box, and the caller places it by `height` (all of the text shown beats a tidy cut).
 */
export function fitText(text: string, box: FitBox): FittedText {
  const leading = box.leading ?? 1.2;
  let size = Math.max(box.minSize, box.maxSize);
  for (;;) {
    const lines = balancedLines(text, box.width, size, box.weight);
    const lineHeight = Math.round(size * leading);
    const height = lines.length * lineHeight;
    const smaller = Math.max(box.minSize, Math.floor(size * 0.94));
    if (height <= box.height || smaller >= size) return { lines, fontSize: size, lineHeight, height };
    size = smaller;
  }
}
