import type { AspectRatio, TemplateCategory, VariableSlot } from '../../../../shared/video.schema.js';
import type { Logger } from '../../logger.js';
import type { CaptionCue } from '../../../../shared/captions-format.js';
import type { VariableRole } from '../../../../shared/variable-roles.js';

/**
 * One interface for every way a video gets made: the local ffmpeg renderer (the embedded default),
 * hosted model APIs (fal.ai queue, Replicate predictions) and a local GPU server (ComfyUI).
 * The pipeline materializes the inputs as local files, calls `submit` then `follow`, and turns the
 * result file into the stored video + thumbnail. Hosted providers return their own request id from
 * `submit`; the pipeline persists it, so after a restart it resumes with `follow` instead of paying twice.
 */
export interface VideoProvider {
  /** `local`, `fal`, `replicate`, `comfyui`: the value of a template's `provider.name`. */
  readonly name: string;
  /** Whether `follow(externalId)` works in a new process (hosted: yes; a local child process: no). */
  readonly resumable: boolean;
  submit(job: ProviderJob, ctx: ProviderContext): Promise<{ externalId: string }>;
  /** Resolves when the video is ready (downloaded into ctx.workDir); rejects with ProviderError. */
  follow(externalId: string, job: ProviderJob, ctx: ProviderContext): Promise<ProviderResult>;
  /** Best effort: stop the work at the provider (also called on time-out). */
  cancel(externalId: string, ctx: Pick<ProviderContext, 'log'>): Promise<void>;
}

export interface ProviderMedia {
  /** The template variable key. */
  key: string;
  kind: 'image' | 'video' | 'audio';
  slot?: VariableSlot;
  contentType: string;
  /** A local file with the bytes (materialized by the pipeline from the BlobStore). */
  path: string;
  /** Set when the value came from a character: its id. */
  characterId?: string;
}

export interface ProviderJob {
  generationId: string;
  orgId: string;
  category: TemplateCategory;
  /** Model name from the template (`studio-v1`...) or from Create Generation's `modelName`. */
  model: string;
  width: number;
  height: number;
  /** The frame shape of width x height (hosted models take it as `aspect_ratio`); absent: 16:9. */
  aspectRatio?: AspectRatio;
  /** A quick preview: the local renderer draws it at 12 fps with the fastest encoder settings. */
  draft?: boolean;
  /**
   * The captions variable's cues (SRT/WebVTT, parsed). `burn`: drawn into the picture by the local renderer at
   * exactly their times; false when they are delivered as a sidecar .vtt (outputs "vtt") instead.
   */
  captions?: { key: string; cues: CaptionCue[]; burn: boolean };
  durationSec: number;
  /** The resolved prompt (prompt_template with the text values), if any. */
  prompt: string | null;
  /** Text variables by key (defaults applied). */
  texts: Record<string, string>;
  /**
   * Each variable's layout role by key (its own, else guessed from key and type): what the local renderer lays out.
   * Absent (a job built by hand): guessed from the keys the same way.
   */
  roles?: Record<string, VariableRole>;
  media: ProviderMedia[];
  /** The template's `provider` block (name plus provider-specific options such as a model id or a workflow). */
  options: Record<string, unknown>;
}

export interface ProviderProgress {
  /** 0-100. */
  progress?: number;
  /** While the provider queues the job. */
  queuePosition?: number;
}

export interface ProviderContext {
  /** Aborted on cancel and on the job's time limit: stop and reject promptly. */
  signal: AbortSignal;
  onProgress(p: ProviderProgress): void;
  /** A private temp dir for this attempt; the pipeline removes it afterwards. */
  workDir: string;
  log: Logger;
}

export interface ProviderResult {
  /** The MP4 in workDir. */
  videoPath: string;
  /** Optional: a JPEG/PNG thumbnail in workDir (else the pipeline extracts one with ffmpeg). */
  thumbnailPath?: string;
}

/** A failure a person can read: no stack trace, no key, no URL with a token. */
export class ProviderError extends Error {
  override name = 'ProviderError';
  constructor(
    message: string,
    /** A temporary condition (429, 5xx, connection): the pipeline may try again. */
    readonly retryable = false,
    /** Seconds to wait before trying again (from Retry-After). */
    readonly retryAfterSec?: number,
  ) {
    super(message);
  }
}
