import {
  TemplateWriteSchema,
  type TemplateCategory,
  type VariableSlot,
  type VariableType,
} from '../../../shared/video.schema.js';
import type { Template, TemplateInput } from '../../../shared/ipc-contract.js';

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
}

export interface TemplateDraft {
  title: string;
  category: TemplateCategory;
  description: string;
  duration_sec: string;
  prompt_template: string;
  model: string;
  resolution: string;
  input_variables: VariableDraft[];
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
  };
}

export function draftOf(t: Template | null): TemplateDraft {
  if (!t) {
    return {
      title: '',
      category: 'text-to-video',
      description: '',
      duration_sec: '5',
      prompt_template: '',
      model: 'studio-v1',
      resolution: '720p',
      input_variables: [emptyVariable()],
    };
  }
  return {
    title: t.title,
    category: t.category as TemplateCategory,
    description: t.description ?? '',
    duration_sec: t.duration_sec === null ? '' : String(t.duration_sec),
    prompt_template: t.prompt_template ?? '',
    model: t.model,
    resolution: t.resolution,
    input_variables: t.input_variables.map((v) => ({
      uid: newUid(),
      key: v.key,
      label: v.label,
      type: v.type as VariableType,
      required: v.required,
      placeholder: v.placeholder ?? '',
      description: v.description ?? '',
      default_value: v.default_value ?? '',
      min_length: v.min_length === undefined ? '' : String(v.min_length),
      max_length: v.max_length === undefined ? '' : String(v.max_length),
      slot: (v.slot ?? '') as VariableDraft['slot'],
    })),
  };
}

const optionalText = (s: string) => (s.trim() === '' ? undefined : s);
const optionalNumber = (s: string) => (s.trim() === '' ? undefined : Number(s));

/** The request body of a draft (empty optional fields left out). */
export function inputOf(d: TemplateDraft): TemplateInput {
  return {
    title: d.title,
    category: d.category,
    description: d.description.trim() === '' ? null : d.description,
    duration_sec: d.duration_sec.trim() === '' ? null : Number(d.duration_sec),
    prompt_template: d.prompt_template.trim() === '' ? null : d.prompt_template,
    model: d.model,
    resolution: d.resolution,
    input_variables: d.input_variables.map((v) => {
      const media = v.type !== 'text';
      return {
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
      };
    }),
  };
}

/** Field errors by path ("title", "input_variables.0.key"), from the same schema the server uses. */
export function validateDraft(d: TemplateDraft): Record<string, string> {
  const res = TemplateWriteSchema.safeParse(inputOf(d));
  const errors: Record<string, string> = {};
  if (!res.success) {
    for (const issue of res.error.issues) {
      const path = issue.path.join('.');
      const isKey = issue.path.length === 3 && issue.path[2] === 'key';
      const keyEmpty = isKey && d.input_variables[Number(issue.path[1])]?.key.trim() === '';
      const empty =
        keyEmpty || (issue.code === 'too_small' && issue.origin === 'string' && Number(issue.minimum) === 1);
      errors[path] ??= empty ? 'Required' : issue.message;
    }
  }
  const seen = new Set<string>();
  d.input_variables.forEach((v, i) => {
    const key = v.key.trim();
    if (key && seen.has(key)) errors[`input_variables.${i}.key`] ??= `Duplicate key "${key}"`;
    seen.add(key);
    if (v.type === 'text' && v.min_length && v.max_length && Number(v.min_length) > Number(v.max_length)) {
      errors[`input_variables.${i}.max_length`] ??= 'Must be at least the minimum';
    }
  });
  return errors;
}
