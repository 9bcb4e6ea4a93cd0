// One video's inputs as its generation records them (ResolvedInput): text with its defaults, captions as text or as
// the storage key of a captions upload, media stored (URL, data URI, storage key, multipart file, character).
import { isCaptionsReference } from '../../../../shared/captions-format.js';
import type { MediaKind } from '../../../../shared/media-types.js';
import type { TemplateWrite } from '../../../../shared/video.schema.js';
import type { ResolvedInput } from '../../../../shared/video-generations.schema.js';
import { roleOf } from '../../../../shared/variable-roles.js';
import { AppError } from '../../errors.js';
import { isNewObject, type IngestedMedia, type MediaIngestPort } from '../uploads/media-port.js';
import { nonEmpty, own, type GenerateInput } from './generate-input.js';

/** One video's part of a request: its inputs (a batch row's, or the request's) and its characters. */
export interface PlannedRow {
  input: GenerateInput;
  characters: Map<string, { id: string; key: string }>;
}

export interface ResolvedRow {
  inputs: Record<string, ResolvedInput>;
  /** Text values by key, for the prompt. */
  texts: Record<string, string>;
}

/** Runs a lookup for variables.KEY with the ingest; a refusal names the variable. */
async function forVariable<T>(
  ingest: MediaIngestPort | undefined,
  key: string,
  step: (ingest: MediaIngestPort) => Promise<T>,
): Promise<T> {
  if (!ingest) throw new AppError(500, 'generation_error', 'Media ingestion is not available.');
  try {
    return await step(ingest);
  } catch (err) {
    if (err instanceof AppError && err.status < 500)
      throw new AppError(err.status, err.code, `variables.${key}: ${err.message}`, err.details);
    throw err;
  }
}

/**
 * A captions variable's record. Pasted text (or the template's default text) is kept as `value`, as before; a
 * captions upload (given, or the template's default) is kept by its storage key like a media input (so deleting it
 * waits for the render, `used_by`) and read when rendering — the record never copies the file's text.
 */
async function captionsInput(
  ingest: MediaIngestPort | undefined,
  orgId: string,
  v: TemplateWrite['input_variables'][number],
  given: string | undefined,
): Promise<ResolvedInput | null> {
  const value = nonEmpty(given) ? given : v.default_value;
  if (value === undefined) return null;
  if (isCaptionsReference(value)) {
    // Its text was checked in full when the upload completed (on S3: at first use), and the key is this org's.
    const media = await forVariable(ingest, v.key, (i) => i.resolve(orgId, 'captions', value));
    const { storageKey, contentType, size } = media;
    const source = nonEmpty(given) ? media.source : 'default';
    return { type: 'captions', source, storage_key: storageKey, content_type: contentType, size };
  }
  return { type: 'captions', source: nonEmpty(given) ? 'request' : 'default', value };
}

/** Resolves one video's inputs: text values with defaults, captions, media stored (URL, data URI, key, file, character). */
export async function resolveInputs(
  ingest: MediaIngestPort | undefined,
  orgId: string,
  def: TemplateWrite,
  row: PlannedRow,
  media: { created: IngestedMedia[]; superseded: IngestedMedia[] },
): Promise<ResolvedRow> {
  const { input, characters } = row;
  const { created, superseded } = media;
  const inputs: Record<string, ResolvedInput> = {};
  const texts: Record<string, string> = {};
  for (const v of def.input_variables) {
    if (v.type === 'text') {
      const given = own(input.variables, v.key);
      const value = nonEmpty(given) ? given : (v.default_value ?? '');
      texts[v.key] = value;
      inputs[v.key] = {
        type: 'text',
        source: nonEmpty(given) ? 'request' : v.default_value !== undefined ? 'default' : 'empty',
        value,
        role: roleOf(v),
      };
      continue;
    }
    if (v.type === 'captions') {
      const resolved = await captionsInput(ingest, orgId, v, own(input.variables, v.key));
      if (resolved) inputs[v.key] = { ...resolved, role: roleOf(v) };
      continue;
    }
    // The layout role rides with the slot: the local renderer places the media by it.
    const slot = { ...(v.slot ? { slot: v.slot } : {}), role: roleOf(v) };
    const character = characters.get(v.key);
    const file = own(input.files, v.key);
    if (character) {
      if (file) superseded.push(file);
      inputs[v.key] = {
        type: v.type,
        source: 'character',
        character_id: character.id,
        storage_key: character.key,
        ...slot,
      };
    } else if (file) {
      inputs[v.key] = {
        type: v.type,
        source: 'upload',
        storage_key: file.storageKey,
        content_type: file.contentType,
        size: file.size,
        ...slot,
      };
    } else {
      const given = own(input.variables, v.key);
      const value = nonEmpty(given) ? given : v.default_value;
      if (value === undefined) continue;
      const stored = await forVariable(ingest, v.key, (i) => i.resolve(orgId, v.type as MediaKind, value));
      if (isNewObject(stored)) created.push(stored);
      inputs[v.key] = {
        type: v.type,
        source: nonEmpty(given) ? stored.source : 'default',
        storage_key: stored.storageKey,
        content_type: stored.contentType,
        size: stored.size,
        ...slot,
      };
    }
  }
  return { inputs, texts };
}
