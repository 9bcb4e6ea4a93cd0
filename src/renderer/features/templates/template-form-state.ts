// The editor's state of a template (strings for what the inputs hold) and the request body it stands for.
// draftOf and inputOf are inverse on a template body as the JSON tab shows it (inputOf's shape): fields the form
// has no input for (latency_estimate_sec, a local provider's own options) ride along untouched, so
// JSON -> form -> JSON gives the same object.
import { PROVIDER_NAMES, type ProviderName } from '../../../shared/provider.schema.js';
import { type TemplateCategory, type VariableSlot, type VariableType } from '../../../shared/video.schema.js';
import type { Template, TemplateInput } from '../../../shared/ipc-contract.js';
import { isVariableRole, type VariableRole } from '../../../shared/variable-roles.js';

export interface VariableDraft {
  /** Stable React key (the variable key is editable). */
  uid: string;
  key: string;
  label: string;
  type: VariableType;
  required: boolean;
  placeholder: string;
  description: string;
  default_value: string;
  min_length: string;
  max_length: string;
  slot: '' | VariableSlot;
  /** The layout role for the local renderer; '' = guessed from key and type. */
  role: '' | VariableRole;
}

/** The provider block as the form edits it: '' is the local renderer (provider null). */
export interface ProviderDraft {
  name: '' | ProviderName;
  model: string;
  /** fal / Replicate `input` and ComfyUI `workflow`, as JSON text. */
  input: string;
  workflow: string;
  output_node: string;
  /** A `{name: "local", …}` block's own options (kept as they are; null: the block was null). */
  localOptions: Record<string, unknown> | null;
}

export interface TemplateDraft {
  title: string;
  category: TemplateCategory;
  description: string;
  duration_sec: string;
  prompt_template: string;
  model: string;
  resolution: string;
  aspect_ratio: string;
  provider: ProviderDraft;
  input_variables: VariableDraft[];
  /** Other fields of the body, passed on as they are (latency_estimate_sec). */
  extra: Record<string, unknown>;
}

let uidCounter = 0;
export const newUid = () => `v${++uidCounter}`;

export function emptyVariable(): VariableDraft {
  return {
    uid: newUid(),
    key: '',
    label: '',
    type: 'text',
    required: true,
    placeholder: '',
    description: '',
    default_value: '',
    min_length: '',
    max_length: '',
    slot: '',
    role: '',
  };
}

const NO_PROVIDER: ProviderDraft = {
  name: '',
  model: '',
  input: '{}',
  workflow: '',
  output_node: '',
  localOptions: null,
};

export function blankDraft(): TemplateDraft {
  return {
    title: '',
    category: 'text-to-video',
    description: '',
    duration_sec: '5',
    prompt_template: '',
    model: 'studio-v1',
    resolution: '720p',
    aspect_ratio: '16:9',
    provider: NO_PROVIDER,
    input_variables: [emptyVariable()],
    extra: {},
  };
}

const str = (v: unknown) => (v === undefined || v === null ? '' : String(v));
const json = (v: unknown) => JSON.stringify(v ?? {}, null, 2);

function providerDraftOf(p: unknown): ProviderDraft {
  if (!p || typeof p !== 'object') return NO_PROVIDER;
  const { name, model, input, workflow, output_node, ...rest } = p as Record<string, unknown>;
  if (name === 'local')
    return { ...NO_PROVIDER, localOptions: defined({ model, input, workflow, output_node, ...rest }) };
  return {
    name: (PROVIDER_NAMES as readonly string[]).includes(String(name)) ? (name as ProviderName) : '',
    model: str(model),
    input: json(input),
    workflow: workflow === undefined ? '' : json(workflow),
    output_node: str(output_node),
    localOptions: null,
  };
}

/** The form's state of a template record or of a template body (the JSON tab, an imported file). */
export function draftOf(t: Template | TemplateInput | null): TemplateDraft {
  if (!t) return blankDraft();
  // Fields of a record (id, builtin, price…) are not part of a body; those the form has no input for are kept.
  const {
    title,
    category,
    description,
    duration_sec,
    prompt_template,
    model,
    resolution,
    aspect_ratio,
    provider,
    input_variables,
    ...others
  } = t as Template & { aspect_ratio?: string };
  const extra: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(others)) if (!RECORD_ONLY.has(k) && v !== undefined) extra[k] = v;
  if ('latency_estimate_sec' in t && t.latency_estimate_sec === null) delete extra.latency_estimate_sec;
  return {
    title: title ?? '',
    category: (category ?? 'text-to-video') as TemplateCategory,
    description: description ?? '',
    duration_sec: str(duration_sec),
    prompt_template: prompt_template ?? '',
    model: model ?? 'studio-v1',
    resolution: resolution ?? '720p',
    aspect_ratio: aspect_ratio ?? '16:9',
    provider: providerDraftOf(provider),
    input_variables: (input_variables ?? []).map((v) => ({
      uid: newUid(),
      key: v.key,
      label: v.label,
      type: v.type as VariableType,
      required: v.required ?? false,
      placeholder: v.placeholder ?? '',
      description: v.description ?? '',
      default_value: v.default_value ?? '',
      min_length: str(v.min_length),
      max_length: str(v.max_length),
      slot: (v.slot ?? '') as VariableDraft['slot'],
      role: isVariableRole(v.role) ? v.role : '',
    })),
    extra,
  };
}

// `scratch` too: a body the editor saves is always the real template, never a preview copy.
const RECORD_ONLY = new Set(['id', 'builtin', 'scratch', 'credits_per_video', 'created_at', 'updated_at', 'renderer']);

const optionalText = (s: string) => (s === '' ? undefined : s);
const optionalNumber = (s: string) => (s.trim() === '' ? undefined : Number(s));

/** JSON text as a value; text that does not parse is kept as the string (the check names the field). */
export function parseJsonField(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

function providerOf(p: ProviderDraft): TemplateInput['provider'] {
  if (p.name === '' || p.name === 'local') return p.localOptions ? { ...p.localOptions, name: 'local' } : null;
  if (p.name === 'comfyui') {
    const out: Record<string, unknown> = { name: 'comfyui', workflow: parseJsonField(p.workflow) };
    if (p.output_node.trim()) out.output_node = p.output_node.trim();
    return out as TemplateInput['provider'];
  }
  return { name: p.name, model: p.model.trim(), input: parseJsonField(p.input) } as TemplateInput['provider'];
}

/** Leaves out keys whose value is undefined (so that the body equals its JSON). */
const defined = <T extends Record<string, unknown>>(o: T): T =>
  Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as T;

/** The request body of a draft (empty optional fields left out). */
export function inputOf(d: TemplateDraft): TemplateInput {
  return {
    ...d.extra,
    title: d.title,
    category: d.category,
    description: d.description === '' ? null : d.description,
    duration_sec: d.duration_sec.trim() === '' ? null : Number(d.duration_sec),
    prompt_template: d.prompt_template === '' ? null : d.prompt_template,
    model: d.model,
    resolution: d.resolution,
    aspect_ratio: d.aspect_ratio as TemplateInput['aspect_ratio'],
    provider: providerOf(d.provider),
    input_variables: d.input_variables.map((v) => {
      const media = v.type !== 'text';
      return defined({
        key: v.key.trim(),
        label: v.label,
        type: v.type,
        required: v.required,
        placeholder: optionalText(v.placeholder),
        description: optionalText(v.description),
        default_value: optionalText(v.default_value),
        min_length: media ? undefined : optionalNumber(v.min_length),
        max_length: media ? undefined : optionalNumber(v.max_length),
        slot: media && v.slot ? v.slot : undefined,
        role: v.role || undefined,
      });
    }),
  };
}
