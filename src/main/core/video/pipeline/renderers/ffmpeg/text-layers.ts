import path from 'node:path';
import { bottomMargin, CAPTION_FONTS, type CaptionTextFile } from './captions.js';
import { filter } from './filter-syntax.js';
import { ffColor, type Palette } from './palette.js';
import type { SceneText } from './scene-plan.js';
import { fitText, type FittedText } from './type-fit.js';

// The headline, subtitle and body set on screen: fitted to the frame's safe area (type-fit.ts), and animated in
// (each line rises and fades in after the one before) and out (the last moments fade). A title card sets them large
// in the middle; over pictures they sit in the lower part on a dark band, the pictures above them.

export type TextLayout = 'poster' | 'lower';

export interface TextLayerInput {
  text: SceneText;
  layout: TextLayout;
  palette: Palette;
  width: number;
  height: number;
  seconds: number;
  fontsDir: string;
  workDir: string;
  /** A share of the height kept free at the bottom for burned-in timed captions. */
  reserveBottom?: number;
}

/** The frame's safe area: side margins, and top/bottom space that feed and story apps cover with their own UI. */
export function safeArea(width: number, height: number, reserveBottom = 0) {
  const ratio = height / width;
  const side = width * (ratio > 1 ? 0.08 : 0.07);
  const top = height * (ratio >= 1.6 ? 0.12 : ratio >= 1.1 ? 0.08 : 0.07);
  const bottom = height * (bottomMargin(width, height) + reserveBottom);
  return { left: side, right: width - side, top, bottom: height - bottom, width: width - 2 * side };
}

interface Block {
  fitted: FittedText;
  bold: boolean;
  color: string;
  /** Space above the block. */
  gap: number;
}

/** The blocks of text, fitted: sizes follow the frame's short side; each box is a share of the safe height. */
function fitBlocks(input: TextLayerInput, area: ReturnType<typeof safeArea>): Block[] {
  const { text, layout, palette } = input;
  const short = Math.min(input.width, input.height);
  const portrait = input.height > input.width;
  const tall = area.bottom - area.top;
  const poster = layout === 'poster';
  const ink = ffColor(poster ? palette.ink : [255, 255, 255]);
  const soft = ffColor(poster ? palette.ink : [255, 255, 255], 0.86);
  const blocks: Block[] = [];
  const has = { sub: !!text.subtitle, body: !!text.body };
  if (text.headline) {
    const share = poster ? (has.sub || has.body ? 0.5 : 0.7) : has.sub || has.body ? 0.24 : 0.32;
    const fitted = fitText(text.headline, {
      width: area.width,
      height: tall * share,
      maxSize: Math.round(short / (poster ? (portrait ? 6.5 : 7) : 11)),
      minSize: Math.max(12, Math.round(short / 30)),
      weight: 'bold',
      leading: 1.15,
    });
    blocks.push({ fitted, bold: true, color: ink, gap: 0 });
  }
  const headSize = blocks[0]?.fitted.fontSize ?? short / 9;
  if (text.subtitle) {
    const fitted = fitText(text.subtitle, {
      width: area.width * 0.92,
      height: tall * (poster ? 0.2 : 0.12),
      maxSize: Math.round(Math.max(short / 16, headSize * 0.6)),
      minSize: Math.max(11, Math.round(short / 36)),
      weight: 'regular',
      leading: 1.3,
    });
    blocks.push({ fitted, bold: false, color: soft, gap: headSize * 0.55 });
  }
  if (text.body) {
    const fitted = fitText(text.body, {
      width: area.width * 0.9,
      height: tall * (poster ? 0.3 : 0.2),
      maxSize: Math.round(short / 15),
      minSize: Math.max(11, Math.round(short / 40)),
      weight: 'regular',
      leading: 1.35,
    });
    blocks.push({ fitted, bold: false, color: soft, gap: blocks.length ? headSize * 0.5 : 0 });
  }
  return blocks;
}

const clip01 = (e: string) => `min(1,max(0,${e}))`;

/**
 * drawtext filters for the text roles (plus a dark band under them over pictures, and an accent rule under a title
 * card's headline), and the files drawtext reads the lines from (user text never enters the filtergraph).
 */
export function textLayers(input: TextLayerInput): { filters: string[]; files: CaptionTextFile[] } {
  const area = safeArea(input.width, input.height, input.reserveBottom);
  const blocks = fitBlocks(input, area);
  if (blocks.length === 0) return { filters: [], files: [] };
  const total = blocks.reduce((sum, b) => sum + b.gap + b.fitted.height, 0);
  const poster = input.layout === 'poster';
  const tall = area.bottom - area.top;
  // A title card's block sits a little above the middle; over pictures it rests on the bottom of the safe area.
  let y = poster ? area.top + Math.max(0, (tall - total) * 0.45) : area.top + Math.max(0, tall - total);
  const filters: string[] = [];
  const files: CaptionTextFile[] = [];
  if (!poster) {
    const pad = Math.round(Math.min(input.width, input.height) * 0.04);
    const top = Math.max(0, Math.round(y - pad));
    filters.push(
      filter('drawbox', {
        x: 0,
        y: top,
        w: input.width,
        h: Math.min(input.height - top, Math.round(total + 2 * pad)),
        color: 'black@0.5',
        t: 'fill',
      }),
    );
  }
  // Lines come in one after another over the first ~1.2 s, and fade out over the last 0.4 s of a longer video.
  const outStart = input.seconds >= 3 ? input.seconds - 0.45 : input.seconds + 1;
  const step = Math.min(
    0.14,
    1 /
      Math.max(
        1,
        blocks.reduce((n, b) => n + b.fitted.lines.length, 0),
      ),
  );
  let k = 0;
  blocks.forEach((block, b) => {
    y += block.gap;
    const { lines, fontSize, lineHeight } = block.fitted;
    const fontfile = path.join(input.fontsDir, block.bold ? CAPTION_FONTS.bold : CAPTION_FONTS.regular);
    lines.forEach((line, i) => {
      const file = { path: path.join(input.workDir, `text-${b}-${i}.txt`), text: line };
      files.push(file);
      const t0 = (0.2 + k * step).toFixed(2);
      const inP = clip01(`(t-${t0})/0.5`);
      const rise = Math.round(fontSize * 0.45);
      const top = Math.round(y + i * lineHeight + (lineHeight - fontSize) / 2);
      const shadow = poster && input.palette.light ? {} : { shadowcolor: 'black@0.45', shadowx: 2, shadowy: 2 };
      filters.push(
        filter('drawtext', {
          fontfile,
          textfile: file.path,
          expansion: 'none',
          fontsize: fontSize,
          fontcolor: block.color,
          x: '(w-text_w)/2',
          y: `${top}+${rise}*pow(1-${inP},2)`,
          alpha: `${inP}*${clip01(`(${outStart.toFixed(2)}+0.45-t)/0.45`)}`,
          ...shadow,
        }),
      );
      k++;
    });
    if (poster && b === 0 && block.bold) {
      const ruleW = Math.round(Math.min(area.width * 0.3, fontSize * 3));
      const ruleH = Math.max(2, Math.round(fontSize * 0.08));
      filters.push(
        filter('drawbox', {
          x: Math.round((input.width - ruleW) / 2),
          y: Math.round(y + block.fitted.height + fontSize * 0.12),
          w: ruleW,
          h: ruleH,
          color: ffColor(input.palette.accent),
          t: 'fill',
          enable: `between(t,${(0.2 + k * step).toFixed(2)},${outStart.toFixed(2)})`,
        }),
      );
    }
    y += block.fitted.height;
  });
  return { filters, files };
}
