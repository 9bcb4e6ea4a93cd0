// The local renderer's drafts of every built-in template in every aspect ratio, read back from their frames: the
// headline is on screen whole (Tesseract OCR of the middle frame), the prompt's boilerplate is not, the palette's hue
// is there (colour statistics), and the picture moves (start and end frames differ). Real ffmpeg, real Tesseract;
// short drafts at 360p, two renders at a time (the suite shares two cores).
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
// @ts-expect-error: a plain .mjs script (the frame sheets' samples), no declarations needed here
import { makeSampleMedia } from '../../../../scripts/local-renderer/samples.mjs';
// @ts-expect-error: a plain .mjs script
import { sampleJob } from '../../../../scripts/local-renderer-sheets.mjs';
import { createLogger } from '../../../../src/main/core/logger.js';
import { filter } from '../../../../src/main/core/video/pipeline/renderers/ffmpeg/filter-syntax.js';
import { LocalRenderer } from '../../../../src/main/core/video/pipeline/renderers/ffmpeg/local-renderer.js';
import { rgbToHsl } from '../../../../src/main/core/video/pipeline/renderers/ffmpeg/palette.js';
import {
  paletteSourceImage,
  pictureColors,
} from '../../../../src/main/core/video/pipeline/renderers/ffmpeg/picture-colors.js';
import type { Rgb } from '../../../../src/main/core/video/pipeline/renderers/ffmpeg/palette.js';
import { planScene } from '../../../../src/main/core/video/pipeline/renderers/ffmpeg/scene-plan.js';
import type { ProviderJob } from '../../../../src/main/core/video/pipeline/video-provider.js';
import { ASPECT_RATIOS, type AspectRatio } from '../../../../src/shared/video.schema.js';
import { builtinTemplates, type BuiltinTemplate } from '../../../helpers/render-jobs.js';
import { requireSystemPart } from '../../../helpers/requires.js';
import { tempDir } from '../../../helpers/temp-dir.js';

const hasTesseract = spawnSync('tesseract', ['--version']).status === 0;
const runs = requireSystemPart(
  'Tesseract OCR',
  hasTesseract,
  'apt-get install tesseract-ocr; the bootstrap installs it',
);
const log = createLogger(tempDir(), 'silent').log;
const root = tempDir('agent-studio-layout-');
/** Long enough for every line to be in by the middle frame and fading out only at the very end. */
const DURATION_SEC = 3;

interface Rendered {
  t: BuiltinTemplate;
  ratio: AspectRatio;
  job: ProviderJob;
  /** The subject picture's colours the render took its palette from (none when words name it). */
  colors: Rgb[];
  /** Frames at 10%, 50% and 90%: RGB24 bytes at 160 px wide, and the middle one as a PNG for OCR. */
  frames: Buffer[];
  width: number;
  height: number;
  middlePng: string;
}

const FRAME_W = 160;

function frameAt(video: string, sec: number, width: number, height: number): Buffer {
  const h = 2 * Math.round((FRAME_W * height) / width / 2);
  return execFileSync('ffmpeg', [
    ...['-v', 'error', '-ss', sec.toFixed(2), '-i', video, '-frames:v', '1'],
    ...['-vf', `scale=${FRAME_W}:${h}`, '-f', 'rawvideo', '-pix_fmt', 'rgb24', '-'],
  ]);
}

async function renderOne(
  t: BuiltinTemplate,
  ratio: AspectRatio,
  files: unknown,
  over: Partial<ProviderJob> = {},
): Promise<Rendered> {
  const job: ProviderJob = { ...sampleJob(t, ratio, files), durationSec: DURATION_SEC, ...over };
  const workDir = fs.mkdtempSync(path.join(root, 'r-'));
  const ctx = { signal: new AbortController().signal, workDir, log, onProgress: () => undefined };
  const renderer = new LocalRenderer();
  const { externalId } = await renderer.submit(job, ctx);
  const { videoPath } = await renderer.follow(externalId, job, ctx);
  const image = paletteSourceImage(job);
  const colors = image ? await pictureColors('ffmpeg', image, { signal: ctx.signal, workDir }) : [];
  const middlePng = path.join(workDir, 'middle.png');
  // OCR reads type best at about 30 px x-height (the 360p draft's middle frame, doubled) and black on white: the
  // text's own colour (the palette's ink: white, or near-black on a light palette) is kept, everything else dropped.
  const light = planScene(job, colors).palette.light && planScene(job, colors).kind === 'title-card';
  const keepInk = light ? 'if(lt(val,70),0,255)' : 'if(gt(val,215),0,255)';
  execFileSync('ffmpeg', [
    ...['-v', 'error', '-ss', (DURATION_SEC / 2).toFixed(2), '-i', videoPath, '-frames:v', '1'],
    ...['-vf', `scale=iw*2:ih*2:flags=bicubic,format=gray,${filter('lut', { y: keepInk })}`, middlePng],
  ]);
  const frames = [0.1, 0.5, 0.9].map((p) => frameAt(videoPath, DURATION_SEC * p, job.width, job.height));
  return { t, ratio, job, colors, frames, width: job.width, height: job.height, middlePng };
}

const words = (text: string) =>
  text
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, ' ')
    .split(' ')
    .filter(Boolean);

function ocr(png: string): string[] {
  return words(execFileSync('tesseract', [png, 'stdout', '--psm', '3'], { encoding: 'utf8', stdio: 'pipe' }));
}

/** The prompt's own words (its template without the {{variables}}) that no text value contains. */
function boilerplate(t: BuiltinTemplate, job: ProviderJob): string[] {
  const given = new Set(Object.values(job.texts).flatMap(words));
  return words((t.prompt_template ?? '').replace(/\{\{\s*\w+\s*\}\}/g, ' ')).filter(
    (w) => w.length >= 5 && !given.has(w),
  );
}

/** The share of pixels within 25 degrees of `hue` and coloured enough to see it (saturation and lightness). */
function hueShare(rgb: Buffer, hue: number): number {
  let hits = 0;
  const n = rgb.length / 3;
  for (let i = 0; i < rgb.length; i += 3) {
    const [h, s, l] = rgbToHsl([rgb[i]!, rgb[i + 1]!, rgb[i + 2]!]);
    const d = Math.min(Math.abs(h - hue), 360 - Math.abs(h - hue));
    if (s > 0.2 && l > 0.08 && l < 0.95 && d <= 25) hits++;
  }
  return hits / n;
}

/** Mean absolute difference of two frames, 0-255. */
function difference(a: Buffer, b: Buffer): number {
  let sum = 0;
  for (let i = 0; i < a.length; i++) sum += Math.abs(a[i]! - b[i]!);
  return sum / a.length;
}

const templates = builtinTemplates();
const cases = templates.flatMap((t) => ASPECT_RATIOS.map((ratio) => ({ t, ratio })));
const rendered = new Map<string, Rendered>();
const name = (t: BuiltinTemplate, ratio: string) => `${t.id} ${ratio}`;

beforeAll(async () => {
  if (!runs) return;
  const files = makeSampleMedia(path.join(root, 'media'));
  const queue = [...cases];
  // Two renders at a time: the machine's two cores, no more.
  await Promise.all(
    [0, 1].map(async () => {
      for (let c = queue.shift(); c; c = queue.shift()) {
        rendered.set(name(c.t, c.ratio), await renderOne(c.t, c.ratio, files));
      }
    }),
  );
}, 300_000);

afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

describe.runIf(runs)('local renderer drafts of the built-in templates, read back from their frames', () => {
  it.each(cases.map((c) => [name(c.t, c.ratio), c] as const))('%s', (key) => {
    const r = rendered.get(key)!;
    const plan = planScene(r.job, r.colors);
    const seen = ocr(r.middlePng);
    // Letters only: Tesseract sometimes runs two words of bold type together ("ona cliff").
    const seenText = seen.join('');
    const letters = (text: string) => words(text).join('');
    // The headline (or, with none, the body: the spokesperson's pitch) is on screen whole, in order.
    const main = plan.text.headline || plan.text.body;
    if (main) expect(seenText, `OCR of the middle frame: ${seen.join(' ')}`).toContain(letters(main));
    if (plan.text.subtitle) expect(seenText).toContain(letters(plan.text.subtitle));
    // The prompt is for hosted models: none of its boilerplate is drawn.
    for (const w of boilerplate(r.t, r.job)) expect(seen, `"${w}" of the prompt is on screen`).not.toContain(w);
    // The palette's colour is in the picture wherever the palette paints the background.
    if (plan.kind === 'title-card' || plan.kind === 'visualizer' || (plan.kind === 'ingredients' && !plan.backdrop)) {
      const share = Math.max(...r.frames.map((f) => hueShare(f, plan.palette.hue)));
      expect(share, `pixels of hue ${plan.palette.hue.toFixed(0)} (${plan.palette.source})`).toBeGreaterThan(0.03);
    }
    // Something moves: the camera move, the type coming in, the bars.
    expect(difference(r.frames[0]!, r.frames[2]!)).toBeGreaterThan(2);
  });

  it('the product teaser takes its colours from "warm sunset" and its headline from the tagline', () => {
    const r = rendered.get(
      name(
        templates.find((t) => t.id === 'text-to-video-pro-1080p')!,
        '16:9',
      ),
    )!;
    const plan = planScene(r.job, r.colors);
    expect(plan.text).toMatchObject({ headline: 'Ride the city', subtitle: 'A red bicycle leaning on a brick wall' });
    expect(plan.palette.hue).toBeLessThan(45); // orange-red
    expect(hueShare(r.frames[1]!, 20)).toBeGreaterThan(0.2);
  });
  it('with no palette words, the colours come from the subject picture (a blue and an orange one differ)', async () => {
    const t = templates.find((x) => x.id === 'ingredients-two-characters')!;
    const dir = fs.mkdtempSync(path.join(root, 'picture-'));
    /** The mean hue of the frame's four corners (8 x 8 px each), where the background shows between the cards. */
    const cornerHue = (rgb: Buffer, width: number, height: number): number => {
      let x = 0;
      let y = 0;
      for (const [cx, cy] of [
        [0, 0],
        [width - 8, 0],
        [0, height - 8],
        [width - 8, height - 8],
      ] as const)
        for (let dy = 0; dy < 8; dy++)
          for (let dx = 0; dx < 8; dx++) {
            const i = ((cy + dy) * width + cx + dx) * 3;
            const [h, sat] = rgbToHsl([rgb[i]!, rgb[i + 1]!, rgb[i + 2]!]);
            x += sat * Math.cos((h * Math.PI) / 180);
            y += sat * Math.sin((h * Math.PI) / 180);
          }
      return ((Math.atan2(y, x) * 180) / Math.PI + 360) % 360;
    };
    const hues: number[] = [];
    for (const color of ['0x2060e0', '0xe07020']) {
      const picture = path.join(dir, `${color}.png`);
      execFileSync('ffmpeg', [
        '-v',
        'error',
        '-f',
        'lavfi',
        '-i',
        `color=c=${color}:s=320x320`,
        '-frames:v',
        '1',
        picture,
      ]);
      const base = sampleJob(t, '16:9', {}) as ProviderJob;
      const media = base.media.map((m) => (m.kind === 'image' ? { ...m, path: picture } : m));
      const r = await renderOne(t, '16:9', {}, { media, texts: { ...base.texts }, generationId: `picture_${color}` });
      const plan = planScene(r.job, r.colors);
      expect(plan.palette.source).toBe('picture');
      const h = 2 * Math.round((FRAME_W * r.height) / r.width / 2);
      hues.push(cornerHue(r.frames[1]!, FRAME_W, h));
    }
    const near = (a: number, b: number) => Math.min(Math.abs(a - b), 360 - Math.abs(a - b));
    expect(near(hues[0]!, 220), `blue picture: background hue ${hues[0]!.toFixed(0)}`).toBeLessThan(30);
    expect(near(hues[1]!, 25), `orange picture: background hue ${hues[1]!.toFixed(0)}`).toBeLessThan(30);
  }, 120_000);
});
