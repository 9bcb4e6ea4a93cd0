import { DRAFT_FPS, RENDER_FPS } from '../../resolutions.js';

// How long the local renderer takes on this machine, for `latency_estimate_sec` of the templates and quotes it
// renders (a hosted model's typical wait says nothing about it). The model: a fixed start (ffmpeg, inputs, encoder)
// plus a cost per megapixel-frame (width x height x frames / 1e6). Both start from values measured on a 2-core
// machine and follow this process's own renders (an average that leans on the recent ones), so an estimate
// becomes this machine's speed after its first renders. `busy`: three renders sharing the CPU.

export interface RenderSize {
  width: number;
  height: number;
  durationSec: number;
  draft?: boolean;
}

/** Seconds per megapixel-frame and the fixed start, measured on a 2-core machine (see the comment above). */
export const CALIBRATED = { perMegapixelFrame: 0.012, startSec: 0.25 } as const;
/** How much one new measurement moves the average. */
const WEIGHT = 0.3;
const BUSY_FACTOR = 3;

const megapixelFrames = (s: RenderSize) =>
  (s.width * s.height * Math.max(1, Math.round(s.durationSec * (s.draft ? DRAFT_FPS : RENDER_FPS)))) / 1e6;

export class RenderSpeed {
  private perMegapixelFrame: number = CALIBRATED.perMegapixelFrame;

  /** Records a finished render (its wall time). */
  record(size: RenderSize, ms: number): void {
    const work = megapixelFrames(size);
    if (work <= 0 || !Number.isFinite(ms) || ms <= 0) return;
    const measured = Math.max(0, ms / 1000 - CALIBRATED.startSec) / work;
    this.perMegapixelFrame = this.perMegapixelFrame * (1 - WEIGHT) + measured * WEIGHT;
  }

  /** Seconds, whole, at least 1: typical (the CPU to itself) and busy (shared with other renders). */
  estimate(size: RenderSize): { typical: number; busy: number } {
    const sec = CALIBRATED.startSec + megapixelFrames(size) * this.perMegapixelFrame;
    const typical = Math.max(1, Math.ceil(sec));
    return { typical, busy: Math.max(typical + 1, Math.ceil(sec * BUSY_FACTOR)) };
  }
}

/** This process's measurements: every LocalRenderer records into it, and the estimates read it. */
export const localRenderSpeed = new RenderSpeed();
