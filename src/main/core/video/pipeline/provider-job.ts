import fs from 'node:fs';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import type { AspectRatio, OutputFormat, TemplateCategory, VariableSlot } from '../../../../shared/video.schema.js';
import type { ResolvedInput } from '../../../../shared/video-generations.schema.js';
import { readCaptionsText } from '../uploads/captions-file.js';
import type { BlobStore } from '../uploads/storage/blob-store.js';
import { parseCaptions } from '../../../../shared/captions-format.js';
import { draftSize, resolutionSize } from './resolutions.js';
import type { ProviderJob, ProviderMedia } from './video-provider.js';
import { roleOf, type VariableRole } from '../../../../shared/variable-roles.js';

/** What the pipeline needs to know of a generation (a snapshot taken when it was charged). */
export interface PipelineGeneration {
  id: string;
  orgId: string;
  templateId: string;
  status: 'generating' | 'completed' | 'failed' | 'canceled';
  inputs: Record<string, ResolvedInput>;
  prompt: string | null;
  model: string;
  resolution: string;
  durationSec: number;
  category: TemplateCategory;
  /** The template's `provider` block; absent means the local renderer. */
  provider: Record<string, unknown> | null;
  /** Frame shape (the request's, else the template's; 16:9 for rows made before aspect ratios). */
  aspectRatio?: AspectRatio;
  /** Requested files, mp4 first (absent: mp4 only). */
  outputs?: OutputFormat[];
  /** A free low-resolution preview: always the local renderer, 360p, 12 fps. */
  draft?: boolean;
}

const EXTENSIONS: Record<string, string> = {
  'image/png': '.png',
  'image/jpeg': '.jpg',
  'image/webp': '.webp',
  'image/gif': '.gif',
  'video/mp4': '.mp4',
  'video/quicktime': '.mov',
  'video/webm': '.webm',
  'audio/mpeg': '.mp3',
  'audio/wav': '.wav',
  'audio/mp4': '.m4a',
  'audio/aac': '.aac',
  'audio/ogg': '.ogg',
  'audio/webm': '.weba',
};

/**
 * Turns a generation into a provider job: text values by key, and each media input copied from the
 * BlobStore into the attempt's work dir (providers read local files; hosted ones encode or upload them).
 */
export async function buildProviderJob(
  gen: PipelineGeneration,
  blobs: BlobStore,
  workDir: string,
): Promise<ProviderJob> {
  const texts: Record<string, string> = {};
  const media: ProviderMedia[] = [];
  let captions: ProviderJob['captions'];
  const roles: Record<string, VariableRole> = {};
  for (const [key, input] of Object.entries(gen.inputs)) {
    // Generations recorded before roles existed get the same guess the template editor shows.
    roles[key] = roleOf({ key, type: input.type, slot: input.slot, role: input.role });
    if (input.type === 'text') {
      if (input.value) texts[key] = input.value;
      continue;
    }
    if (input.type === 'captions') {
      // Checked when the generation was accepted (an upload's text is read again here: the record names its key);
      // burned in unless they are delivered as a .vtt.
      const text = input.storage_key ? await readCaptionsText(await blobs.getStream(input.storage_key)) : input.value;
      if (text) captions = { key, cues: parseCaptions(text), burn: !gen.outputs?.includes('vtt') };
      continue;
    }
    if (!input.storage_key) continue;
    const contentType = input.content_type ?? 'application/octet-stream';
    const file = path.join(
      workDir,
      `input-${media.length}-${key.replace(/[^\w-]/g, '_')}${EXTENSIONS[contentType] ?? ''}`,
    );
    await pipeline(await blobs.getStream(input.storage_key), fs.createWriteStream(file, { mode: 0o600 }));
    media.push({
      key,
      kind: input.type,
      slot: input.slot as VariableSlot | undefined,
      contentType,
      path: file,
      ...(input.character_id ? { characterId: input.character_id } : {}),
    });
  }
  const aspectRatio = gen.aspectRatio ?? '16:9';
  const draft = gen.draft === true;
  const { width, height } = draft ? draftSize(aspectRatio) : resolutionSize(gen.resolution, aspectRatio);
  return {
    generationId: gen.id,
    orgId: gen.orgId,
    category: gen.category,
    model: gen.model,
    width,
    height,
    aspectRatio,
    ...(draft ? { draft } : {}),
    durationSec: gen.durationSec,
    prompt: gen.prompt,
    texts,
    roles,
    media,
    ...(captions ? { captions } : {}),
    // A draft never goes to a hosted provider: it is the local renderer's preview.
    options: draft ? { name: 'local' } : (gen.provider ?? { name: 'local' }),
  };
}
