import type { TemplateCategory, VariableSlot } from '../../src/shared/video.schema.js';
import type { ProviderJob, ProviderMedia } from '../../src/main/core/video/pipeline/video-provider.js';
import { resolutionSize } from '../../src/main/core/video/pipeline/resolutions.js';
import { PRICING_TABLE } from '../../src/main/core/video/pricing.js';
import { readJsonResources, resolveResourcesDir } from '../../src/main/core/video/resources.js';
import { roleOf, type VariableRole } from '../../src/shared/variable-roles.js';
import { renderPrompt } from '../../src/main/core/video/templates/template-validation.js';

export interface BuiltinVariable {
  key: string;
  label: string;
  type: 'text' | 'image' | 'video' | 'audio';
  required?: boolean;
  slot?: VariableSlot;
  role?: string;
  default_value?: string;
  placeholder?: string;
  min_length?: number;
}

export interface BuiltinTemplate {
  id: string;
  category: TemplateCategory;
  duration_sec: number | null;
  model: string;
  resolution: string;
  input_variables: BuiltinVariable[];
  prompt_template: string | null;
}

/** The shipped templates, read from resources/templates exactly as the app reads them. */
export function builtinTemplates(): BuiltinTemplate[] {
  return readJsonResources(resolveResourcesDir(), 'templates').map((r) => r.value as BuiltinTemplate);
}

/** A file for a media variable (null leaves an optional one out). */
export type MediaChooser = (v: BuiltinVariable) => Omit<ProviderMedia, 'key' | 'kind' | 'slot'> | null;

/**
 * The ProviderJob the pipeline would build for a generation from this template: text defaults (or the
 * placeholder, or a sample long enough for min_length), each variable's layout role, the resolved prompt, the template's own duration
 * (the model's default when null) and its resolution's frame size.
 */
export function jobFromTemplate(t: BuiltinTemplate, choose: MediaChooser, overrides: Partial<ProviderJob> = {}) {
  const texts: Record<string, string> = {};
  const roles: Record<string, VariableRole> = {};
  const media: ProviderMedia[] = [];
  for (const v of t.input_variables) {
    roles[v.key] = roleOf(v);
    if (v.type === 'text') {
      const sample = `Sample ${v.label.toLowerCase()} for a test render`;
      texts[v.key] = v.default_value ?? v.placeholder ?? sample.padEnd(v.min_length ?? 0, '.');
      continue;
    }
    const file = choose(v);
    if (file) media.push({ key: v.key, kind: v.type, ...(v.slot ? { slot: v.slot } : {}), ...file });
  }
  const { width, height } = resolutionSize(t.resolution);
  const job: ProviderJob = {
    generationId: `gen_${t.id}`,
    orgId: 'org_test',
    category: t.category,
    model: t.model,
    width,
    height,
    durationSec: t.duration_sec ?? PRICING_TABLE[t.model]!.default_duration_sec,
    prompt: renderPrompt(t.prompt_template, texts),
    texts,
    roles,
    media,
    options: { name: 'local' },
    ...overrides,
  };
  return job;
}
