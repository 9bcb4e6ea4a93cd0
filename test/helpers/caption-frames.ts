// How tests see burned-in captions: each frame's lower band (where captions sit) as a small grey picture, and how
// many of its pixels differ clearly from the same frame of a render without captions on screen.
import { execFileSync } from 'node:child_process';
import type { CaptionCue } from '../../src/shared/captions-format.js';

/** Frames per second of the local renderer's output. */
export const FPS = 24;

/** Every frame's lower 45% as small grey pictures (where the captions are). */
export function bands(video: string, width: number, height: number): Buffer[] {
  const w = 160;
  const h = 72;
  const raw = execFileSync(
    'ffmpeg',
    [
      ...[
        '-v',
        'error',
        '-i',
        video,
        '-vf',
        `crop=${width}:${Math.round(height * 0.45)}:0:${Math.round(height * 0.55)}`,
      ],
      ...['-s', `${w}x${h}`, '-pix_fmt', 'gray', '-f', 'rawvideo', '-'],
    ],
    { maxBuffer: 64 * 1024 * 1024 },
  );
  const frames: Buffer[] = [];
  for (let o = 0; o + w * h <= raw.length; o += w * h) frames.push(raw.subarray(o, o + w * h));
  return frames;
}

/** How many pixels differ clearly (encoder noise moves a pixel by a few levels; a caption's letters by far more). */
export const changed = (a: Buffer, b: Buffer) => a.reduce((n, v, i) => n + (Math.abs(v - b[i]!) > 48 ? 1 : 0), 0);

/** Whether a cue is on screen at frame n (start <= t < end). */
export const cueShown = (cues: readonly CaptionCue[], n: number) =>
  cues.some((c) => n / FPS >= c.start - 1e-9 && n / FPS < c.end - 1e-9);
