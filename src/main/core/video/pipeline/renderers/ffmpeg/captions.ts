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

/**
 * Sizes follow the frame's short side (so a 9:16 caption is as large as a 16:9 one of the same resolution,
 * not squeezed to fit the height); a portrait frame gets narrower lines (its sides carry the apps' buttons)
 * and more of them.
 */
export function captionLayout(style: CaptionStyle, width: number, height: number): CaptionLayout {
  const title = style === 'title';
  const portrait = height > width;
  const short = Math.min(width, height);
  const fontSize = Math.max(12, Math.round(short / (title ? (portrait ? 11 : 13) : portrait ? 20 : 24)));
  const advance = fontSize * (title ? AVG_ADVANCE_EM.bold : AVG_ADVANCE_EM.regular);
  const lineWidth = width * safeWidth(style, width, height);
  return {
    fontSize,
    lineHeight: Math.round(fontSize * (title ? 1.3 : 1.55)),
    maxChars: Math.max(8, Math.floor(lineWidth / advance)),
    maxLines: title ? (portrait ? 8 : width < height * 1.2 ? 6 : 5) : portrait ? 4 : 3,
    bold: title,
  };
}

/** The share of the width text may use. */
function safeWidth(style: CaptionStyle, width: number, height: number): number {
  if (height > width) return style === 'title' ? 0.8 : 0.82;
  return style === 'title' ? 0.8 : 0.88;
}

/**
 * The space kept free under a lower-third caption, as a share of the height: feed and story apps draw
 * their own text and buttons over the bottom of portrait videos (about the lowest 15-20% of a 9:16 frame).
 */
export function bottomMargin(width: number, height: number): number {
  const ratio = height / width;
  if (ratio >= 1.6) return 0.16; // 9:16
  if (ratio >= 1.1) return 0.1; // 4:5
  if (ratio >= 0.9) return 0.08; // 1:1
  return 0.06;
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
  /** A share of the height at the bottom kept free (timed captions are drawn there): a title centres above it. */
  reserveBottom?: number;
}

/**
 * drawtext filters (one per line, each centred) plus the text files they read. The caption fades in, so
 * the first frames show the picture; a lower-third line sits on a translucent box for legibility on any
 * background, a title card's lines are large, bold and shadowed.
 */
export function captionFilters(input: CaptionInput): { filters: string[]; files: CaptionTextFile[] } {
  const layout = captionLayout(input.style, input.width, input.height);
  const room = input.height * (1 - (input.reserveBottom ?? 0));
  const fits = Math.max(1, Math.floor((room * 0.9) / layout.lineHeight));
  const lines = wrapCaption(input.text, layout.maxChars, Math.min(layout.maxLines, fits));
  if (lines.length === 0) return { filters: [], files: [] };
  const block = lines.length * layout.lineHeight;
  const top =
    input.style === 'title'
      ? Math.round((room - block) / 2)
      : Math.round(input.height - block - input.height * bottomMargin(input.width, input.height));
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

export interface SubtitleInput {
  cues: readonly { start: number; end: number; text: string }[];
  width: number;
  height: number;
  /** Cues starting at or after this are not drawn (the video is over). */
  durationSec: number;
  fontsDir: string;
  workDir: string;
}

/** The share of the height that timed captions may use at the bottom (their most lines and the safe margin). */
export function subtitleReserve(width: number, height: number): number {
  const layout = captionLayout('lower-third', width, height);
  return bottomMargin(width, height) + (layout.maxLines * layout.lineHeight) / height + 0.02;
}

const secondsText = (n: number) => String(Math.round(n * 1000) / 1000);

/**
 * Timed captions (a captions variable's SRT/WebVTT cues) as drawtext filters: each cue is wrapped for the frame
 * (its own line breaks kept), sits on a translucent box above the bottom safe margin, and is shown exactly from
 * its start to its end (`enable`, to the frame: a frame at t is drawn when start <= t < end). Cue text is read
 * from files, never from the filtergraph.
 */
export function subtitleFilters(input: SubtitleInput): { filters: string[]; files: CaptionTextFile[] } {
  const layout = captionLayout('lower-third', input.width, input.height);
  const fontfile = path.join(input.fontsDir, CAPTION_FONTS.regular);
  const filters: string[] = [];
  const files: CaptionTextFile[] = [];
  input.cues.forEach((cue, c) => {
    if (cue.start >= input.durationSec) return;
    const lines = cue.text
      .split('\n')
      .flatMap((l) => wrapCaption(l, layout.maxChars, layout.maxLines))
      .slice(0, layout.maxLines);
    const block = lines.length * layout.lineHeight;
    const top = Math.round(input.height - block - input.height * bottomMargin(input.width, input.height));
    const enable = `gte(t,${secondsText(cue.start)})*lt(t,${secondsText(cue.end)})`;
    lines.forEach((text, i) => {
      const file = { path: path.join(input.workDir, `subtitle-${c}-${i}.txt`), text };
      files.push(file);
      filters.push(
        filter('drawtext', {
          fontfile,
          textfile: file.path,
          expansion: 'none',
          fontsize: layout.fontSize,
          fontcolor: 'white',
          x: '(w-text_w)/2',
          y: top + i * layout.lineHeight,
          box: 1,
          boxcolor: 'black@0.6',
          boxborderw: Math.round(layout.fontSize * 0.32),
          enable,
        }),
      );
    });
  });
  return { filters, files };
}
