import { ASPECT_RATIOS, type AspectRatio } from '../../../../shared/video.schema.js';

/** Frame sizes of the resolution names templates and models use (16:9). */
export const RESOLUTIONS: Readonly<Record<string, { width: number; height: number }>> = {
  '360p': { width: 640, height: 360 },
  '480p': { width: 854, height: 480 },
  '720p': { width: 1280, height: 720 },
  '1080p': { width: 1920, height: 1080 },
  '4k': { width: 3840, height: 2160 },
};

/** Width over height of each aspect ratio. */
const RATIO: Readonly<Record<AspectRatio, number>> = { '16:9': 16 / 9, '9:16': 9 / 16, '1:1': 1, '4:5': 4 / 5 };

const even = (n: number) => 2 * Math.round(n / 2);

export function isAspectRatio(value: unknown): value is AspectRatio {
  return typeof value === 'string' && (ASPECT_RATIOS as readonly string[]).includes(value);
}

/**
 * The frame of a resolution name in an aspect ratio. The name is the short side (480p 9:16 = 480x854,
 * 720p 1:1 = 720x720, 720p 4:5 = 720x900); sizes are even (H.264 4:2:0). Unknown names render at 720p
 * (a template may name a resolution only a hosted model knows); 16:9 keeps the table's sizes exactly.
 */
export function resolutionSize(name: string, aspectRatio: AspectRatio = '16:9'): { width: number; height: number } {
  const base = RESOLUTIONS[name] ?? RESOLUTIONS['720p']!;
  if (aspectRatio === '16:9') return base;
  const short = base.height;
  const ratio = RATIO[aspectRatio];
  return ratio >= 1 ? { width: even(short * ratio), height: short } : { width: short, height: even(short / ratio) };
}

/** Output frame rate of a render: film-like, and a fifth fewer frames to encode than 30 fps (drafts use DRAFT_FPS). */
export const RENDER_FPS = 24;

/** The short side of a draft (preview) render, and its frame rate. */
export const DRAFT_SHORT_SIDE = 360;
export const DRAFT_FPS = 12;

/** A draft's frame: the same aspect ratio, 360 pixels on the short side. */
export function draftSize(aspectRatio: AspectRatio = '16:9'): { width: number; height: number } {
  const ratio = RATIO[aspectRatio];
  return ratio >= 1
    ? { width: even(DRAFT_SHORT_SIDE * ratio), height: DRAFT_SHORT_SIDE }
    : { width: DRAFT_SHORT_SIDE, height: even(DRAFT_SHORT_SIDE / ratio) };
}
