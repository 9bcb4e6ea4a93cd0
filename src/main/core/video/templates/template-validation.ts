import { z } from 'zod';
import { BUILTIN_PLACEHOLDERS, providerPlaceholderKeys } from '../../../../shared/provider.schema.js';
import { captionsValueProblem } from '../../../../shared/media-types.js';
import {
  ANY_BRACES,
  CATEGORY_NEEDS,
  PROMPT_TOKEN,
  promptTokens,
  SLOT_RULES,
} from '../../../../shared/template-rules.js';
import { TemplateWriteSchema, type TemplateWrite, type VariableSlot } from '../../../../shared/video.schema.js';

export type TemplateValidation = { ok: true; value: TemplateWrite } | { ok: false; reasons: string[] };

/** Replaces each `{{key}}` with its value ('' when the key has none). */
export function renderPrompt(prompt: string | null, values: Record<string, string>): string | null {
  if (prompt === null) return null;
  return prompt.replace(PROMPT_TOKEN, (_m, key: string) => (Object.hasOwn(values, key) ? values[key] : ''));
}

/** A default for a media variable: an http(s) URL or a storage key (data URIs are not kept in templates). */
function isMediaReference(value: string): boolean {
  if (/^https?:\/\//i.test(value)) {
    try {
      new URL(value);
      return true;
    } catch {
      return false;
    }
  }
  return value.length > 0 && !/^data:/i.test(value) && !/\s/.test(value) && !value.includes('://');
}

/** The rules beyond field types: every problem found, not just the first. */
export function semanticProblems(t: TemplateWrite): string[] {
  const reasons: string[] = [];
  const seen = new Map<string, TemplateWrite['input_variables'][number]>();
  const slotCount = new Map<VariableSlot, number>();
  let captionVariables = 0;
  for (const [i, v] of t.input_variables.entries()) {
    const where = `input_variables[${i}] (${v.key})`;
    if (seen.has(v.key)) reasons.push(`${where}: duplicate key "${v.key}"`);
    else seen.set(v.key, v);
    if (v.type === 'text') {
      if (v.min_length !== undefined && v.max_length !== undefined && v.min_length > v.max_length) {
        reasons.push(`${where}: min_length (${v.min_length}) is greater than max_length (${v.max_length})`);
      }
      if (v.default_value !== undefined) {
        if (v.max_length !== undefined && v.default_value.length > v.max_length)
          reasons.push(`${where}: default_value is longer than max_length`);
        if (v.min_length !== undefined && v.default_value.length < v.min_length)
          reasons.push(`${where}: default_value is shorter than min_length`);
      }
      if (v.slot !== undefined) reasons.push(`${where}: slot applies to image, video and audio variables only`);
    } else if (v.type === 'captions') {
      // SRT or WebVTT text; its cues are drawn at their own times (or delivered as a .vtt), never in the prompt.
      if (v.min_length !== undefined || v.max_length !== undefined)
        reasons.push(`${where}: min_length/max_length apply to text variables only`);
      if (v.slot !== undefined) reasons.push(`${where}: slot applies to image, video and audio variables only`);
      // Text, or the storage key of a captions upload (looked up, with the generating org, when a video is made).
      const problem = v.default_value !== undefined ? captionsValueProblem(v.default_value) : null;
      if (problem) reasons.push(`${where}: default_value: ${problem}`);
      captionVariables++;
    } else {
      if (v.min_length !== undefined || v.max_length !== undefined)
        reasons.push(`${where}: min_length/max_length apply to text variables only`);
      if (v.default_value !== undefined && !isMediaReference(v.default_value)) {
        reasons.push(`${where}: default_value of a ${v.type} variable must be an http(s) URL or a storage key`);
      }
      if (v.slot !== undefined) {
        const rule = SLOT_RULES[v.slot];
        if (rule.type !== v.type)
          reasons.push(`${where}: slot "${v.slot}" takes a ${rule.type} variable, not ${v.type}`);
        slotCount.set(v.slot, (slotCount.get(v.slot) ?? 0) + 1);
      }
    }
  }
  if (captionVariables > 1)
    reasons.push(
      `${captionVariables} captions variables; a template has at most one (its cues are the video's captions)`,
    );
  for (const [slot, n] of slotCount) {
    if (n > 1 && !SLOT_RULES[slot].many)
      reasons.push(`slot "${slot}" is used by ${n} variables; at most one may use it`);
  }

  if (t.prompt_template) {
    for (const m of t.prompt_template.matchAll(ANY_BRACES)) {
      if (!/^\s*[A-Za-z_][A-Za-z0-9_]*\s*$/.test(m[1])) reasons.push(`prompt_template: malformed token "${m[0]}"`);
    }
    for (const key of promptTokens(t.prompt_template)) {
      const v = seen.get(key);
      if (!v) reasons.push(`prompt_template: token {{${key}}} has no input variable`);
      else if (v.type !== 'text')
        reasons.push(
          `prompt_template: token {{${key}}} names a ${v.type} variable; only text variables can be used in the prompt`,
        );
    }
  }

  const needs = CATEGORY_NEEDS[t.category];
  if (needs && !t.input_variables.some((v) => v.type === needs)) {
    reasons.push(`category "${t.category}" needs at least one ${needs} variable`);
  }
  if (t.category === 'text-to-video' && t.input_variables.some((v) => v.type === 'image' || v.type === 'video')) {
    reasons.push(
      'category "text-to-video" takes no image or video variables (use image-to-video, ingredients-to-video or video-to-video)',
    );
  }
  if (t.latency_estimate_sec && t.latency_estimate_sec.busy < t.latency_estimate_sec.typical) {
    reasons.push('latency_estimate_sec.busy must be at least latency_estimate_sec.typical');
  }
  if (t.provider) {
    const known = new Set<string>([...BUILTIN_PLACEHOLDERS, ...t.input_variables.map((v) => v.key)]);
    for (const key of providerPlaceholderKeys(t.provider)) {
      if (!known.has(key))
        reasons.push(
          `provider: {{${key}}} is neither a variable of this template nor one of ${BUILTIN_PLACEHOLDERS.join(', ')}`,
        );
    }
  }
  return reasons;
}

function zodReasons(error: z.ZodError): string[] {
  return error.issues.map((i) => `${i.path.length ? i.path.join('.') : 'template'}: ${i.message}`);
}

/** Field types (zod) then the semantic rules: used to save (400) and before generating (422). */
export function validateTemplate(input: unknown): TemplateValidation {
  const parsed = TemplateWriteSchema.safeParse(input);
  if (!parsed.success) return { ok: false, reasons: zodReasons(parsed.error) };
  const reasons = semanticProblems(parsed.data);
  return reasons.length ? { ok: false, reasons } : { ok: true, value: parsed.data };
}
