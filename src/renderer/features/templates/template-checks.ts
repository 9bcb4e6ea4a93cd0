// The editor's checks of a template, worded as the service words its 400 "Invalid template" reasons (the same
// schema, TemplateWriteSchema, and the same rules as template-validation.ts), but keyed by field so each shows
// on its input. Also: the prompt's {{key}} tokens, and a server refusal split back onto the fields.
import { TemplateWriteSchema } from '../../../shared/video.schema.js';
import { BUILTIN_PLACEHOLDERS, PROVIDER_PLACEHOLDER } from '../../../shared/provider.schema.js';
import { inputOf, type TemplateDraft } from './template-form-state';
import { ANY_BRACES, CATEGORY_NEEDS, SLOT_RULES, promptTokens } from '../../../shared/template-rules.js';

/** Provider fields with an input of their own (other problems show on the Provider choice). */
const PROVIDER_FIELDS = new Set(['model', 'input', 'workflow', 'output_node']);

/** Unknown tokens of the prompt and variables it does not use (a hint, not an error: media go to the model). */
export function tokenReport(d: TemplateDraft): { unknown: string[]; unused: string[] } {
  const tokens = promptTokens(d.prompt_template);
  const textKeys = d.input_variables.filter((v) => v.type === 'text').map((v) => v.key.trim());
  return {
    unknown: tokens.filter((t) => !d.input_variables.some((v) => v.key.trim() === t)),
    unused: textKeys.filter((k) => k && !tokens.includes(k) && !providerUses(d, k)),
  };
}

const providerUses = (d: TemplateDraft, key: string) =>
  [d.provider.input, d.provider.workflow].some((text) =>
    [...text.matchAll(PROVIDER_PLACEHOLDER)].some((m) => m[1] === key),
  );

const isMediaReference = (v: string) =>
  /^https?:\/\/\S+$/i.test(v) || (v.length > 0 && !/^data:/i.test(v) && !/\s/.test(v) && !v.includes('://'));

/** Field errors by path ("title", "input_variables.0.key", "provider"), from the service's schema and rules. */
export function validateDraft(d: TemplateDraft): Record<string, string> {
  const errors: Record<string, string> = {};
  const add = (path: string, message: string) => void (errors[path] ??= message);
  const body = inputOf(d);
  const res = TemplateWriteSchema.safeParse(body);
  if (!res.success) {
    for (const issue of res.error.issues) {
      const [head, index, field] = issue.path.map(String);
      const path =
        head === 'input_variables' && field
          ? `${head}.${index}.${field}`
          : head === 'provider'
            ? PROVIDER_FIELDS.has(index)
              ? `provider.${index}`
              : 'provider'
            : issue.path.join('.');
      const keyEmpty = field === 'key' && d.input_variables[Number(index)]?.key.trim() === '';
      const empty =
        keyEmpty || (issue.code === 'too_small' && issue.origin === 'string' && Number(issue.minimum) === 1);
      add(path || 'template', empty ? 'Required' : issue.message);
    }
  }
  for (const [label, text] of [
    ['provider.input', d.provider.input],
    ['provider.workflow', d.provider.workflow],
  ] as const) {
    const relevant = label === 'provider.input' ? ['fal', 'replicate'] : ['comfyui'];
    if (!relevant.includes(d.provider.name)) continue;
    try {
      JSON.parse(text);
    } catch {
      add(label, `${label} is not valid JSON`);
    }
  }
  const seen = new Map<string, number>();
  const slots = new Map<string, number>();
  d.input_variables.forEach((v, i) => {
    const at = (f: string) => `input_variables.${i}.${f}`;
    const key = v.key.trim();
    if (key && seen.has(key)) add(at('key'), `Duplicate key "${key}"`);
    seen.set(key, i);
    const min = v.min_length.trim() === '' ? undefined : Number(v.min_length);
    const max = v.max_length.trim() === '' ? undefined : Number(v.max_length);
    if (v.type === 'text') {
      if (min !== undefined && max !== undefined && min > max) add(at('max_length'), 'Must be at least the minimum');
    } else if (v.type !== 'captions') {
      if (v.default_value && !isMediaReference(v.default_value))
        add(at('default_value'), `default_value of a ${v.type} variable must be an http(s) URL or a storage key`);
      if (v.slot) {
        const rule = SLOT_RULES[v.slot];
        if (rule && rule.type !== v.type)
          add(at('slot'), `slot "${v.slot}" takes a ${rule.type} variable, not ${v.type}`);
        slots.set(v.slot, (slots.get(v.slot) ?? 0) + 1);
        if ((slots.get(v.slot) ?? 0) > 1 && rule && !rule.many) add(at('slot'), `slot "${v.slot}" is already used`);
      }
    }
  });
  for (const m of d.prompt_template.matchAll(ANY_BRACES)) {
    if (!/^\s*[A-Za-z_][A-Za-z0-9_]*\s*$/.test(m[1])) add('prompt_template', `malformed token "${m[0]}"`);
  }
  for (const key of promptTokens(d.prompt_template)) {
    const i = seen.get(key);
    if (i === undefined) add('prompt_template', `token {{${key}}} has no input variable`);
    else if (d.input_variables[i].type !== 'text')
      add(
        'prompt_template',
        `token {{${key}}} names a ${d.input_variables[i].type} variable; only text variables can be used in the prompt`,
      );
  }
  const captions = d.input_variables.filter((v) => v.type === 'captions').length;
  if (captions > 1)
    add(
      'input_variables',
      `${captions} captions variables; a template has at most one (its cues are the video's captions)`,
    );
  const needs = CATEGORY_NEEDS[d.category];
  if (needs && !d.input_variables.some((v) => v.type === needs))
    add('category', `needs at least one ${needs} variable`);
  if (d.category === 'text-to-video' && d.input_variables.some((v) => v.type === 'image' || v.type === 'video'))
    add('category', 'text-to-video takes no image or video variables');
  if (d.provider.name && d.provider.name !== 'local') {
    const known = new Set<string>([...BUILTIN_PLACEHOLDERS, ...seen.keys()]);
    const text = d.provider.name === 'comfyui' ? d.provider.workflow : d.provider.input;
    for (const m of text.matchAll(PROVIDER_PLACEHOLDER)) {
      if (!known.has(m[1]))
        add(
          d.provider.name === 'comfyui' ? 'provider.workflow' : 'provider.input',
          `{{${m[1]}}} is neither a variable of this template nor one of ${BUILTIN_PLACEHOLDERS.join(', ')}`,
        );
    }
  }
  return errors;
}

/**
 * A refusal of the service ("Invalid template: input_variables[0] (subject): …; prompt_template: …") as field
 * errors; what names no field stays in `rest`.
 */
export function serverFieldErrors(
  message: string,
  reasons?: unknown,
): { fields: Record<string, string>; rest: string[] } {
  const list = Array.isArray(reasons)
    ? reasons.map(String)
    : message.replace(/^Invalid template:\s*/, '').split(/;\s+/);
  const fields: Record<string, string> = {};
  const rest: string[] = [];
  for (const r of list) {
    const v = /^input_variables\[(\d+)\](?: \([^)]*\))?: (.*)$/.exec(r);
    if (v) {
      const field = /^(min_length|max_length|default_value|slot|key|label|type)\b/.exec(v[2])?.[1] ?? 'key';
      fields[`input_variables.${v[1]}.${field}`] ??= v[2];
      continue;
    }
    const f =
      /^(provider\.(?:model|input|workflow|output_node)|title|description|category|duration_sec|prompt_template|model|resolution|aspect_ratio|provider)[.:]/.exec(
        r,
      );
    if (f) fields[f[1]] ??= r.slice(f[1].length + 1).trim() || r;
    else rest.push(r);
  }
  return { fields, rest };
}
