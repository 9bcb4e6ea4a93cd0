import { describe, expect, it } from 'vitest';
import { requestedOutputs } from '../../../../src/main/core/video/generations/generate-input.js';
import {
  bottomMargin,
  captionLayout,
  subtitleFilters,
  subtitleReserve,
} from '../../../../src/main/core/video/pipeline/renderers/ffmpeg/captions.js';
import { outputArgs } from '../../../../src/main/core/video/pipeline/renderers/ffmpeg/output-formats.js';
import { cardGrid } from '../../../../src/main/core/video/pipeline/renderers/ffmpeg/scene-layers.js';
import { draftSize, resolutionSize } from '../../../../src/main/core/video/pipeline/resolutions.js';
import { comfyWorkflow, hostedInput } from '../../../../src/main/core/video/pipeline/providers/provider-input.js';
import { ASPECT_RATIOS, type AspectRatio } from '../../../../src/shared/video.schema.js';
import { makeJob } from '../../../fixtures/providers/provider-test-kit.js';

describe('frame sizes', () => {
  it('every resolution and aspect ratio: the short side is the name, sizes even, the shape right', () => {
    for (const name of ['480p', '720p', '1080p']) {
      for (const ar of ASPECT_RATIOS) {
        const { width, height } = resolutionSize(name, ar);
        expect(Math.min(width, height)).toBe(Number(name.slice(0, -1)));
        expect((width % 2) + (height % 2)).toBe(0);
        const [w, h] = ar.split(':').map(Number) as [number, number];
        expect(Math.abs(width / height - w / h)).toBeLessThan(0.01);
      }
    }
    expect(draftSize('4:5')).toEqual({ width: 360, height: 450 });
    expect(draftSize('9:16')).toEqual({ width: 360, height: 640 });
  });
});

describe('portrait layouts', () => {
  it('captions are sized by the short side and kept above a taller safe margin in 9:16', () => {
    const land = captionLayout('lower-third', 1280, 720);
    const port = captionLayout('lower-third', 720, 1280);
    expect(port.fontSize).toBeGreaterThanOrEqual(land.fontSize);
    expect(port.fontSize).toBeLessThan(60);
    expect(port.maxChars).toBeGreaterThanOrEqual(16);
    expect(port.maxLines).toBeGreaterThan(land.maxLines);
    expect(bottomMargin(720, 1280)).toBeGreaterThan(bottomMargin(1280, 720));
    expect(subtitleReserve(720, 1280)).toBeLessThan(0.5);
  });

  it('cards: a row in landscape, a column of two in portrait, a 2x2 grid for four in portrait', () => {
    const row = cardGrid({ width: 1280, height: 720 }, 3);
    expect(new Set([0, 1, 2].map((i) => row.slot(i).top)).size).toBe(1);
    const column = cardGrid({ width: 720, height: 1280 }, 2);
    expect(column.slot(0).left).toBe(column.slot(1).left);
    expect(column.slot(1).top).toBeGreaterThan(column.slot(0).top + column.slotH);
    const grid = cardGrid({ width: 720, height: 1280 }, 4);
    expect(new Set([0, 1, 2, 3].map((i) => grid.slot(i).left)).size).toBe(2);
    for (const i of [0, 1, 2, 3]) {
      const { left, top } = grid.slot(i);
      expect(left + grid.slotW).toBeLessThanOrEqual(720);
      expect(top + grid.slotH).toBeLessThanOrEqual(1280 * 0.7);
    }
  });
});

describe('timed captions', () => {
  it('one drawtext per wrapped line, enabled exactly from start to end; cues after the end are left out', () => {
    const { filters, files } = subtitleFilters({
      cues: [
        { start: 0.5, end: 1.25, text: 'first line\nsecond line' },
        { start: 9, end: 10, text: 'after the end' },
      ],
      width: 854,
      height: 480,
      durationSec: 5,
      fontsDir: '/fonts',
      workDir: '/work',
    });
    expect(files.map((f) => f.text)).toEqual(['first line', 'second line']);
    expect(filters).toHaveLength(2);
    for (const f of filters) expect(f).toContain(String.raw`enable=gte(t\,0.5)*lt(t\,1.25)`);
  });
});

describe('output files', () => {
  it('one ffmpeg run makes the WebM (VP9/Opus) and the GIF (palette) from the MP4', () => {
    const args = outputArgs('/w/in.mp4', { webm: '/w/out.webm', gif: '/w/out.gif' });
    expect(args.filter((a) => a === '-i')).toHaveLength(1);
    expect(args).toEqual(expect.arrayContaining(['libvpx-vp9', 'libopus', 'file:/w/out.webm', 'file:/w/out.gif']));
    expect(args.join(' ')).toMatch(/palettegen.*paletteuse/);
    expect(outputArgs('/w/in.mp4', {})).toEqual(['-y', '-protocol_whitelist', 'file', '-i', 'file:/w/in.mp4']);
  });

  it('the requested formats in a fixed order, mp4 always first', () => {
    expect(requestedOutputs(undefined)).toEqual(['mp4']);
    expect(requestedOutputs(['gif', 'vtt', 'webm'])).toEqual(['mp4', 'webm', 'gif', 'vtt']);
  });
});

describe('aspect ratio for hosted providers', () => {
  const job = (aspectRatio?: AspectRatio) => ({
    ...makeJob({ name: 'fal' }),
    ...resolutionSize('720p', aspectRatio),
    ...(aspectRatio ? { aspectRatio } : {}),
  });

  it("fal/Replicate input: an aspect_ratio field carries the generation's; the placeholder too; absent stays absent", async () => {
    expect(await hostedInput(job('9:16'), { prompt: '{{prompt}}', aspect_ratio: '16:9' }, 'fal')).toEqual({
      prompt: 'a red fox running through snow',
      aspect_ratio: '9:16',
    });
    expect(await hostedInput(job('4:5'), { ratio: '{{aspect_ratio}}' }, 'fal')).toEqual({ ratio: '4:5' });
    expect(await hostedInput(job('1:1'), { prompt: '{{prompt}}' }, 'fal')).toEqual({
      prompt: 'a red fox running through snow',
    });
  });

  it('ComfyUI workflows get the frame through width and height', async () => {
    const workflow = { '5': { class_type: 'EmptyLatentImage', inputs: { width: '{{width}}', height: '{{height}}' } } };
    expect(await comfyWorkflow(job('9:16'), workflow, () => Promise.resolve(''))).toEqual({
      '5': { class_type: 'EmptyLatentImage', inputs: { width: 720, height: 1280 } },
    });
  });
});
