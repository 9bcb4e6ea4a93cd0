// What renders a template's or a generation's video, said the same way everywhere a generation is set up or
// shown. The API's records carry `renderer: {kind, name, model, label}`; for a record without it (an older
// core) the same answer is derived from the template's provider block (null or `local`: the ffmpeg renderer).
import { LOCAL_RENDERER_LABEL } from '../../shared/video.schema.js';

export interface RendererInfo {
  kind: 'local' | 'hosted';
  /** local, fal, replicate or comfyui. */
  name: string;
  model: string | null;
  label: string;
}

/** What the local renderer can honestly make, in the API's own words: it is no AI model. */
export { LOCAL_RENDERER_LABEL };

export const PROVIDER_LABELS: Record<string, string> = {
  local: 'Local renderer',
  fal: 'fal.ai',
  replicate: 'Replicate',
  comfyui: 'ComfyUI',
};

interface WithRenderer {
  renderer?: unknown;
  provider?: unknown;
  model?: string;
}

const isInfo = (r: unknown): r is RendererInfo =>
  !!r && typeof r === 'object' && typeof (r as RendererInfo).label === 'string' && 'kind' in r;

/** The renderer of a template or generation record. */
export function rendererOf(item: WithRenderer): RendererInfo {
  if (isInfo(item.renderer)) return item.renderer;
  const provider = item.provider as { name?: string; model?: string } | null | undefined;
  const name = provider?.name ?? 'local';
  if (name === 'local') return { kind: 'local', name, model: null, label: LOCAL_RENDERER_LABEL };
  const model = provider?.model ?? (name === 'comfyui' ? 'workflow' : null);
  const provLabel = PROVIDER_LABELS[name] ?? name;
  return { kind: 'hosted', name, model, label: model ? `${provLabel} · ${model}` : provLabel };
}
