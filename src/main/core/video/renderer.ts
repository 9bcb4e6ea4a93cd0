import { LOCAL_RENDERER_LABEL, type AspectRatio, type Renderer } from '../../../shared/video.schema.js';
import { localRenderSpeed } from './pipeline/renderers/ffmpeg/render-speed.js';
import { draftSize, isAspectRatio, resolutionSize } from './pipeline/resolutions.js';

const HOSTED_NAMES: Record<string, string> = { fal: 'fal', replicate: 'Replicate', comfyui: 'ComfyUI' };

/** The local ffmpeg renderer: what drafts and templates without a hosted provider use. */
export const LOCAL_RENDERER: Renderer = { kind: 'local', name: 'local', model: null, label: LOCAL_RENDERER_LABEL };

/**
 * Which engine a template's `provider` block (null: none) sends its videos to, in words a person reads before
 * paying: the local renderer's honest description, or the hosted provider and its model.
 */
export function rendererOf(provider: Record<string, unknown> | null | undefined, opts: { draft?: boolean } = {}) {
  const name = typeof provider?.name === 'string' ? provider.name : 'local';
  if (opts.draft || name === 'local' || !Object.hasOwn(HOSTED_NAMES, name)) return LOCAL_RENDERER;
  const model = typeof provider?.model === 'string' ? provider.model : null;
  const workflow = provider?.workflow;
  const nodes = workflow && typeof workflow === 'object' ? Object.keys(workflow).length : 0;
  const what = model ?? `workflow of ${nodes} node${nodes === 1 ? '' : 's'}`;
  return { kind: 'hosted', name, model, label: `${HOSTED_NAMES[name]} · ${what}` } satisfies Renderer;
}

/** What latencyEstimate needs of a template (its definition, or its API view). */
export interface LatencySubject {
  provider: Record<string, unknown> | null | undefined;
  resolution: string;
  aspect_ratio: AspectRatio | string;
  /** The template's, else the model's default duration (null when neither is known). */
  duration_sec: number | null;
  latency_estimate_sec: { typical: number; busy: number } | null;
}

/**
 * The wait to expect, from the renderer that will make the video: the local renderer's measured speed on this
 * machine for the frame size and duration (render-speed.ts), or the hosted provider's typical wait the template
 * states (null when it states none).
 */
export function latencyEstimate(t: LatencySubject, opts: { draft?: boolean } = {}) {
  if (rendererOf(t.provider, opts).kind !== 'local') return t.latency_estimate_sec;
  const ratio = isAspectRatio(t.aspect_ratio) ? t.aspect_ratio : '16:9';
  const size = opts.draft ? draftSize(ratio) : resolutionSize(t.resolution, ratio);
  return localRenderSpeed.estimate({ ...size, durationSec: t.duration_sec ?? 5, draft: opts.draft });
}
