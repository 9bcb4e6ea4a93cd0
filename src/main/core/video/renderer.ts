import { LOCAL_RENDERER_LABEL, type Renderer } from '../../../shared/video.schema.js';

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
