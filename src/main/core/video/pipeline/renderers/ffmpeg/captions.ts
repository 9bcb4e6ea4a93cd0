import path from 'node:path';
import { filter } from './filter-syntax.js';

/** The bundled caption fonts (resources/fonts, DejaVu Sans). */
export const CAPTION_FONTS = { regular: 'DejaVuSans.ttf', bold: 'DejaVuSans-Bold.ttf' } as const;

export type CaptionStyle = 'title' | 'lower-third';

/** A file drawtext reads its text from: user text never enters the filtergraph itself. */
export interface CaptionTextFile {
  path: string;
  text: string;
}

export interface CaptionLayout {
  fontSize: number;
  lineHeight: number;
  maxChars: number;
  maxLines: number;
  bold: boolean;
}

/**
 * Average advance of DejaVu Sans glyphs in em (measured on English prose, rounded up so a line rarely
 * overflows). drawtext does not wrap, so lines are broken here by character count.
 */
const AVG_ADVANCE_EM = { regular: 0.58, bold: 0.66 };

export function captionLayout(style: CaptionStyle, width: number, height: number): CaptionLayout {
  const title = style === 'title';
  const fontSize = Math.max(12, Math.round(height / (title ? 13 : 24)));
  const advance = fontSize * (title ? AVG_ADVANCE_EM.bold : AVG_ADVANCE_EM.regular);
  return {
    fontSize,
    lineHeight: Math.round(fontSize * (title ? 1.3 : 1.55)),
    maxChars: Math.max(8, Math.floor((width * (title ? 0.8 : 0.88)) / advance)),
    maxLines: title ? 5 : 3,
    bold: title,
  };
}

/** Control, format and bidi-override characters would draw as boxes or reorder text: they become spaces. */
const UNPRINTABLE = /[\u0000-\u001f\u007f-\u009f\u200b-\u200f\u2028-\u202e\u2060-\u2069\ufeff]/g;

export function cleanCaptionText(text: string): string {
  return text.normalize('NFC').replace(UNPRINTABLE, ' ').replace(/\s+/g, ' ').trim();
}

/** Greedy word wrap to `maxChars`; over-long words are split; a cut-off last line ends with an ellipsis. */
export function wrapCaption(text: string, maxChars: number, maxLines: number): string[] {
  const words = cleanCaptionText(text).split(' ').filter(Boolean);
  const lines: string[] = [];
  let line = '';
  const push = () => {
    if (line) lines.push(line);
    line = '';
  };
  for (let word of words) {
    while ([...word].length > maxChars) {
      push();
      const chars = [...word];
      lines.push(chars.slice(0, maxChars).join(''));
      word = chars.slice(maxChars).join('');
    }
    if (!word) continue;
    if (line && [...line].length + 1 + [...word].length > maxChars) push();
    line = line ? `${line} ${word}` : word;
  }
  push();
  if (lines.length <= maxLines) return lines;
  const kept = lines.slice(0, maxLines);
  const last = [...kept[maxLines - 1]!];
  kept[maxLines - 1] = `${last
    .slice(0, Math.max(1, maxChars - 1))
    .join('')
    .trimEnd()}…`;
  return kept;
}

export interface CaptionInput {
  text: string;
  style: CaptionStyle;
  width: number;
  height: number;
  fontsDir: string;
  workDir: string;
  /** Distinguishes the text files of several captions in one render. */
  name: string;
}

/**
 * drawtext filters (one per line, each centred) plus the text files they read. The caption fades in, so
 * the first frames show the picture; a lower-third line sits on a translucent box for legibility on any
 * background, a title card's lines are large, bold and shadowed.
 */
export function captionFilters(input: CaptionInput): { filters: string[]; files: CaptionTextFile[] } {
  const layout = captionLayout(input.style, input.width, input.height);
  const lines = wrapCaption(input.text, layout.maxChars, layout.maxLines);
  if (lines.length === 0) return { filters: [], files: [] };
  const block = lines.length * layout.lineHeight;
  const top =
    input.style === 'title'
      ? Math.round((input.height - block) / 2)
      : Math.round(input.height - block - input.height * 0.06);
  const fontfile = path.join(input.fontsDir, layout.bold ? CAPTION_FONTS.bold : CAPTION_FONTS.regular);
  const files: CaptionTextFile[] = [];
  const filters = lines.map((text, i) => {
    const file = { path: path.join(input.workDir, `caption-${input.name}-${i}.txt`), text };
    files.push(file);
    const style =
      input.style === 'title'
        ? { shadowcolor: 'black@0.55', shadowx: 3, shadowy: 3 }
        : { box: 1, boxcolor: 'black@0.5', boxborderw: Math.round(layout.fontSize * 0.32) };
    return filter('drawtext', {
      fontfile,
      textfile: file.path,
      // No %{...} expansion: the text is shown exactly as written.
      expansion: 'none',
      fontsize: layout.fontSize,
      fontcolor: 'white',
      x: '(w-text_w)/2',
      y: top + i * layout.lineHeight,
      alpha: `min(1,max(0,(t-${(0.25 + i * 0.12).toFixed(2)})/0.7))`,
      ...style,
    });
  });
  return { filters, files };
}
