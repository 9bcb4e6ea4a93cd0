import fs from 'node:fs/promises';
import {
  PROVIDER_PLACEHOLDER,
  TemplateProviderSchema,
  type TemplateProvider,
} from '../../../../../shared/provider.schema.js';
import { ProviderError, type ProviderJob, type ProviderMedia } from '../video-provider.js';

/** A string that is exactly one placeholder: it becomes the value itself, typed. */
const WHOLE = new RegExp(`^${PROVIDER_PLACEHOLDER.source}$`);
/** Media sent inline as data: URIs above this size would make request bodies unreasonably large. */
export const MAX_DATA_URI_BYTES = 64 * 1024 * 1024;

const megabytes = (n: number) => `${Math.round((n / (1024 * 1024)) * 10) / 10} MB`;

/** Dropped from objects and arrays: a whole-string placeholder with no value on a hosted provider. */
const OMIT = Symbol('omit');

/** The job's `provider` block, parsed; a bad one is the template's fault and says what is wrong. */
export function providerOptions<N extends TemplateProvider['name']>(
  job: ProviderJob,
  name: N,
): Extract<TemplateProvider, { name: N }> {
  const parsed = TemplateProviderSchema.safeParse(job.options);
  if (!parsed.success) {
    const first = parsed.error.issues[0];
    const where = first?.path.length ? `${first.path.join('.')}: ` : '';
    throw new ProviderError(`The template's provider settings are not valid (${where}${first?.message ?? 'invalid'}).`);
  }
  if (parsed.data.name !== name) {
    throw new ProviderError(`The template is set up for the ${parsed.data.name} provider, not ${name}.`);
  }
  return parsed.data as Extract<TemplateProvider, { name: N }>;
}

/** The placeholder keys used anywhere in `value`. */
export function placeholderKeys(value: unknown, into = new Set<string>()): Set<string> {
  if (typeof value === 'string') for (const m of value.matchAll(PROVIDER_PLACEHOLDER)) into.add(m[1]);
  else if (Array.isArray(value)) for (const v of value) placeholderKeys(v, into);
  else if (value && typeof value === 'object') for (const v of Object.values(value)) placeholderKeys(v, into);
  return into;
}

/**
 * The value of each used key: template variables first (text as text, media through `mediaValue`),
 * then the built-ins prompt, duration_sec, width, height, aspect_ratio. A key with no value is left out.
 */
async function valuesFor(
  job: ProviderJob,
  keys: Set<string>,
  mediaValue: (m: ProviderMedia) => Promise<unknown>,
): Promise<Map<string, unknown>> {
  const values = new Map<string, unknown>();
  for (const key of keys) {
    if (Object.hasOwn(job.texts, key)) {
      values.set(key, job.texts[key]);
      continue;
    }
    const media = job.media.find((m) => m.key === key);
    if (media) {
      values.set(key, await mediaValue(media));
      continue;
    }
    if (key === 'prompt' && job.prompt !== null) values.set(key, job.prompt);
    if (key === 'duration_sec') values.set(key, job.durationSec);
    if (key === 'width') values.set(key, job.width);
    if (key === 'height') values.set(key, job.height);
    if (key === 'aspect_ratio') values.set(key, job.aspectRatio ?? '16:9');
  }
  return values;
}

/**
 * Replaces placeholders in every string of `value`. A string that is exactly one placeholder takes the
 * value as it is (a number stays a number); with no value it is dropped (`omit`) or becomes ''.
 * Inside longer text each placeholder is spliced in as text ('' when it has none).
 */
export function fillPlaceholders(value: unknown, values: Map<string, unknown>, missing: 'omit' | 'empty'): unknown {
  const fill = (v: unknown): unknown => {
    if (typeof v === 'string') {
      const whole = WHOLE.exec(v);
      if (whole) return values.has(whole[1]) ? values.get(whole[1]) : missing === 'omit' ? OMIT : '';
      return v.replace(PROVIDER_PLACEHOLDER, (_m, key: string) => (values.has(key) ? String(values.get(key)) : ''));
    }
    if (Array.isArray(v)) return v.map(fill).filter((x) => x !== OMIT);
    if (v && typeof v === 'object') {
      return Object.fromEntries(
        Object.entries(v)
          .map(([k, x]) => [k, fill(x)] as const)
          .filter(([, x]) => x !== OMIT),
      );
    }
    return v;
  };
  const out = fill(value);
  return out === OMIT ? undefined : out;
}

/** A media file as a data: URI (hosted providers take these for image, video and audio inputs). */
export async function mediaDataUri(media: ProviderMedia, label: string): Promise<string> {
  const { size } = await fs.stat(media.path);
  if (size > MAX_DATA_URI_BYTES) {
    throw new ProviderError(
      `The ${media.kind} "${media.key}" is ${megabytes(size)}; ${label} inputs are sent inline and may be at most ${megabytes(MAX_DATA_URI_BYTES)}.`,
    );
  }
  const bytes = await fs.readFile(media.path);
  return `data:${media.contentType};base64,${bytes.toString('base64')}`;
}

/**
 * The request body for a hosted model: the template's `input` with every placeholder filled. fal and Replicate
 * video models name the frame shape `aspect_ratio`: when the input has that field (a fixed value or the
 * `{{aspect_ratio}}` placeholder) it carries the generation's aspect ratio (the request's, else the template's).
 * An input without the field is sent as written (a model that takes no aspect ratio may refuse unknown fields).
 */
export async function hostedInput(
  job: ProviderJob,
  input: Record<string, unknown>,
  label: string,
): Promise<Record<string, unknown>> {
  const values = await valuesFor(job, placeholderKeys(input), (m) => mediaDataUri(m, label));
  const filled = (fillPlaceholders(input, values, 'omit') ?? {}) as Record<string, unknown>;
  if (Object.hasOwn(input, 'aspect_ratio') && job.aspectRatio) filled.aspect_ratio = job.aspectRatio;
  return filled;
}

/**
 * A ComfyUI workflow with its placeholders filled: media keys become the names `upload` gave the files
 * in ComfyUI's input folder (uploaded only when the workflow uses them).
 */
export async function comfyWorkflow(
  job: ProviderJob,
  workflow: Record<string, unknown>,
  upload: (m: ProviderMedia) => Promise<string>,
): Promise<Record<string, unknown>> {
  const values = await valuesFor(job, placeholderKeys(workflow), upload);
  return fillPlaceholders(workflow, values, 'empty') as Record<string, unknown>;
}
