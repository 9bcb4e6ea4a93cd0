// A generate request after transport decoding (JSON or multipart) and the rules of its shape: which variables it
// may name, lengths, captions, requested files. GenerateService checks and charges; the quote reads the same rules.
import crypto from 'node:crypto';
import type { AspectRatio, OutputFormat, TemplateWrite } from '../../../../shared/video.schema.js';
import { captionsValueProblem } from '../../../../shared/media-types.js';
import type { OutboundPolicy } from '../../net/outbound-policy.js';
import type { IngestedMedia } from '../uploads/media-port.js';
import type { GenerateOptions } from './generate-options.js';

/** Longest text value of a variable without its own max_length. */
export const DEFAULT_TEXT_MAX = 10_000;
/** What a draft is rendered at (the pipeline draws it at 12 fps). */
export const DRAFT_RESOLUTION = '360p';

/** A generate request after transport decoding (JSON or multipart). */
export interface GenerateInput extends GenerateOptions {
  /** Text values, and media references (http(s) URL, storage key, data URI). */
  variables: Record<string, string>;
  /** Multipart files, already stored (ingestStream). */
  files: Record<string, IngestedMedia>;
  character_variables: Record<string, string>;
  webhook_url?: string;
  num_videos: number;
  /** Frame shape; default the template's. */
  aspect_ratio?: AspectRatio;
  /** Files to make besides the MP4 (which is always made). */
  outputs?: OutputFormat[];
}

export type Variable = TemplateWrite['input_variables'][number];

/** The requested files in a fixed order, the MP4 always first. */
export function requestedOutputs(outputs: readonly OutputFormat[] | undefined): OutputFormat[] {
  const wanted = new Set<OutputFormat>(['mp4', ...(outputs ?? [])]);
  return OUTPUT_ORDER.filter((f) => wanted.has(f));
}
const OUTPUT_ORDER: readonly OutputFormat[] = ['mp4', 'webm', 'gif', 'vtt'];

/** JSON with sorted object keys (so equal bodies hash equally whatever their key order). */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>).filter(([, v]) => v !== undefined);
    return `{${entries
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
      .map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`)
      .join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

export function requestHash(templateId: string, transport: 'json' | 'multipart', body: unknown): string {
  return crypto
    .createHash('sha256')
    .update(`${transport}\n${templateId}\n${canonicalJson(body)}`)
    .digest('hex');
}

export const nonEmpty = (v: string | undefined): v is string => typeof v === 'string' && v.length > 0;
/** Own properties only: a variable may be called `constructor` or `toString`. */
export const own = <T>(map: Record<string, T>, key: string): T | undefined =>
  Object.hasOwn(map, key) ? map[key] : undefined;

/** Every request-shape problem at once (sentences of the 400) and the required variables left without a value. */
export function requestProblems(
  def: TemplateWrite,
  input: GenerateInput,
  outbound?: Pick<OutboundPolicy, 'refusalOfUrl'>,
): { problems: string[]; missing: string[] } {
  const vars = new Map<string, Variable>(def.input_variables.map((v) => [v.key, v]));
  const known = def.input_variables.map((v) => v.key).join(', ') || '(none)';
  const problems: string[] = [];
  const unknown = [...new Set([...Object.keys(input.variables), ...Object.keys(input.files)])].filter(
    (k) => !vars.has(k),
  );
  if (unknown.length) problems.push(`unknown variable(s): ${unknown.join(', ')} (this template's variables: ${known})`);
  const charKeys = Object.keys(input.character_variables);
  if (charKeys.length && def.category !== 'ingredients-to-video') {
    problems.push(
      `character_variables are accepted by ingredients-to-video templates only (this template is ${def.category})`,
    );
  } else {
    for (const key of charKeys) {
      const v = vars.get(key);
      if (!v) problems.push(`character_variables.${key}: no such variable (this template's variables: ${known})`);
      else if (v.type !== 'image')
        problems.push(`character_variables.${key}: only image variables take a character (${key} is ${v.type})`);
    }
  }
  const missing: string[] = [];
  for (const v of def.input_variables) {
    const given = own(input.variables, v.key);
    const file = own(input.files, v.key);
    if (file && given !== undefined) problems.push(`variables.${v.key}: given both as a file and as a value`);
    if (v.type === 'text') {
      if (file) problems.push(`variables.${v.key}: a text variable takes text, not a file`);
      if (nonEmpty(given)) {
        const max = v.max_length ?? DEFAULT_TEXT_MAX;
        if (given.length > max) problems.push(`variables.${v.key}: at most ${max} characters (got ${given.length})`);
        if (v.min_length !== undefined && given.length < v.min_length) {
          problems.push(`variables.${v.key}: at least ${v.min_length} characters (got ${given.length})`);
        }
      } else if (v.required && v.default_value === undefined) missing.push(v.key);
      continue;
    }
    if (v.type === 'captions') {
      if (file) problems.push(`variables.${v.key}: captions are SRT or WebVTT text, not a file`);
      // The storage key of a captions upload is looked up (and its text checked) when the generation is made; a URL
      // is refused here already, so a quote answers the 400 generate would.
      const problem = nonEmpty(given) ? captionsValueProblem(given) : null;
      if (problem) problems.push(`variables.${v.key}: ${problem}`);
      if (!nonEmpty(given) && v.required && v.default_value === undefined) missing.push(v.key);
      continue;
    }
    const character = v.type === 'image' && nonEmpty(own(input.character_variables, v.key));
    const has = character || !!file || nonEmpty(given) || v.default_value !== undefined;
    if (!has && v.required) missing.push(v.key);
  }
  if (input.outputs?.includes('vtt')) {
    const captions = def.input_variables.find((v) => v.type === 'captions');
    if (!captions) problems.push('outputs: "vtt" needs a template with a captions variable');
    else if (!nonEmpty(own(input.variables, captions.key)) && captions.default_value === undefined)
      problems.push(`outputs: "vtt" needs captions in variables.${captions.key}`);
  }
  // Only what needs no DNS (an IP address, a metadata name): the delivery's connection is the real check.
  const refused = input.webhook_url ? outbound?.refusalOfUrl(input.webhook_url) : null;
  if (refused) problems.push(`webhook_url: ${refused.reason}`);
  if (missing.length) problems.unshift(`missing required variable(s): ${missing.join(', ')}`);
  return { problems, missing };
}
