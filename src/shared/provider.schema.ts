import { z } from 'zod';

/**
 * A template's `provider` block: which engine makes its videos and how the template's values reach it.
 * String values anywhere in `input` (fal, Replicate) or `workflow` (ComfyUI) may hold `{{key}}`
 * placeholders: a template variable's key, or one of BUILTIN_PLACEHOLDERS. A string that is exactly one
 * placeholder becomes the value itself (a number for duration_sec/width/height; for a media variable a
 * data: URI on hosted providers or the uploaded file name on ComfyUI); inside longer text it is spliced in.
 */

/** `{{key}}` or `{{ key }}`, the same syntax as prompt_template. */
export const PROVIDER_PLACEHOLDER = /\{\{\s*([A-Za-z_][A-Za-z0-9_]*)\s*\}\}/g;

/** Placeholders every template has besides its own variables. */
export const BUILTIN_PLACEHOLDERS = ['prompt', 'duration_sec', 'width', 'height', 'aspect_ratio'] as const;

/** The hosted providers that need a key, the secret-store account holding it, and the name people know them by. */
export const PROVIDER_KEYS = {
  fal: { account: 'providers.fal.key', label: 'fal.ai' },
  replicate: { account: 'providers.replicate.token', label: 'Replicate' },
} as const;

export const PROVIDER_NAMES = ['local', 'fal', 'replicate', 'comfyui'] as const;
export type ProviderName = (typeof PROVIDER_NAMES)[number];

/** The model's own input fields (JSON), with placeholders in string values. */
const InputMapping = z.record(z.string().min(1).max(200), z.json()).default({});

/** `fal-ai/kling-video/v2/master/text-to-video`: owner, app, optional sub-path. */
const FalModel = z
  .string()
  .max(200)
  .regex(
    /^[A-Za-z0-9][\w.-]*\/[\w.-]+(\/[\w.-]+)*$/,
    'provider.model must be a fal endpoint id such as fal-ai/kling-video/v2/master/text-to-video',
  );

/** `owner/name` (the model's latest version), `owner/name:<version>`, or a bare 64-hex version id. */
const ReplicateModel = z
  .string()
  .max(200)
  .regex(
    /^([\w.-]+\/[\w.-]+(:[0-9a-f]{64})?|[0-9a-f]{64})$/,
    'provider.model must be a Replicate model (owner/name), owner/name:version, or a 64-character version id',
  );

/** One node of a ComfyUI workflow in API format (`Export (API)`): its class and its inputs. */
const ComfyNode = z.looseObject({
  class_type: z.string().min(1).max(200),
  inputs: z.record(z.string(), z.json()).default({}),
});

const Workflow = z
  .record(z.string().regex(/^[\w:.-]{1,64}$/, 'workflow node ids are short ids such as "3" or "12:4"'), ComfyNode)
  .refine((w) => Object.keys(w).length > 0, 'provider.workflow needs at least one node')
  .refine((w) => Object.keys(w).length <= 500, 'provider.workflow has more than 500 nodes');

export const TemplateProviderSchema = z
  .discriminatedUnion('name', [
    // The embedded ffmpeg renderer; other fields are its own options.
    z.looseObject({ name: z.literal('local') }),
    z.strictObject({ name: z.literal('fal'), model: FalModel, input: InputMapping }),
    z.strictObject({ name: z.literal('replicate'), model: ReplicateModel, input: InputMapping }),
    z.strictObject({
      name: z.literal('comfyui'),
      workflow: Workflow,
      /** The node whose output is the video; default: the first node that produced a video file. */
      output_node: z.string().min(1).max(64).optional(),
    }),
  ])
  .superRefine((p, ctx) => {
    if (p.name === 'comfyui' && p.output_node !== undefined && !Object.hasOwn(p.workflow, p.output_node)) {
      ctx.addIssue({
        code: 'custom',
        path: ['output_node'],
        message: `provider.output_node "${p.output_node}" is not a node of the workflow`,
      });
    }
  });

export type TemplateProvider = z.infer<typeof TemplateProviderSchema>;

/** Every placeholder key a provider block uses (to check they name variables or built-ins), in order of first use. */
export function providerPlaceholderKeys(p: TemplateProvider): string[] {
  const found = new Set<string>();
  const visit = (v: unknown): void => {
    if (typeof v === 'string') for (const m of v.matchAll(PROVIDER_PLACEHOLDER)) found.add(m[1]);
    else if (Array.isArray(v)) v.forEach(visit);
    else if (v && typeof v === 'object') Object.values(v).forEach(visit);
  };
  if (p.name === 'fal' || p.name === 'replicate') visit(p.input);
  if (p.name === 'comfyui') visit(p.workflow);
  return [...found];
}
