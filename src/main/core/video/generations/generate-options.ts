// The options of a generate request beyond its variables: batches (one video per row), drafts (free, rate-limited
// per API key), deadlines and webhook event filters. GenerateService uses these; the rules live here so that
// generate and quote read a request the same way.
import { hasUrlScheme } from '../../../../shared/media-types.js';
import { DRAFTS_PER_MINUTE } from '../../../../shared/video.schema.js';
import { type GenerateBatchRow } from '../../../../shared/video-generations.schema.js';
import type { WebhookEventName } from '../../../../shared/webhooks.schema.js';
import { AppError } from '../../errors.js';
import { RateLimiter } from '../../http/plugins/rate-limiter.js';
import type { IngestedMedia } from '../uploads/media-port.js';

/** What a generate request may carry besides variables (GenerateInput extends it). */
export interface GenerateOptions {
  /** A free local preview (360p, 12 fps, 0 credits). */
  draft?: boolean;
  /** Seconds from acceptance after which a generation not yet started ends aborted (refunded in full). */
  deadline_sec?: number;
  /** Callbacks the webhook_url gets; absent: completed and failed. */
  webhook_events?: WebhookEventName[];
  /** One video per row; top-level variables / character_variables / files are shared by every row. */
  batch?: GenerateBatchRow[];
  /** Whether the body had a top-level `variables` (required unless batch is given). */
  variablesGiven?: boolean;
}

interface RowSource {
  variables: Record<string, string>;
  character_variables: Record<string, string>;
  files: Record<string, IngestedMedia>;
}

/** Problems of the options themselves (each a sentence of the 400). */
export function optionProblems(input: GenerateOptions & { num_videos: number; webhook_url?: string }): string[] {
  const problems: string[] = [];
  if (!input.batch && input.variablesGiven === false) problems.push('variables is required (or send batch)');
  if (input.batch && input.num_videos > 1) {
    problems.push('num_videos > 1 cannot be combined with batch: a batch makes one video per row');
  }
  if (input.webhook_events && !input.webhook_url) problems.push('webhook_events needs a webhook_url');
  return problems;
}

/**
 * The per-video inputs of a request: itself, or one per batch row with the shared values under the row's own.
 * A row's value for a key replaces a shared file or character of that key (the shared one is not used there).
 */
export function rowInputs<T extends RowSource & GenerateOptions>(input: T): T[] {
  if (!input.batch) return [input];
  return input.batch.map((row) => {
    const files = { ...input.files };
    const characters = { ...input.character_variables };
    for (const key of [...Object.keys(row.variables), ...Object.keys(row.character_variables)]) delete files[key];
    for (const key of Object.keys(row.variables)) delete characters[key];
    return {
      ...input,
      variables: { ...input.variables, ...row.variables },
      character_variables: { ...characters, ...row.character_variables },
      files,
    };
  });
}

/** Runs one row's step; a refusal names the row (batch[i]) so a person can find it in a CSV. */
export async function inRow<T>(index: number | null, step: () => T | Promise<T>): Promise<T> {
  try {
    return await step();
  } catch (err) {
    if (index === null || !(err instanceof AppError) || err.status >= 500) throw err;
    throw new AppError(err.status, err.code, `batch[${index}]: ${err.message}`, { ...err.details, row: index });
  }
}

/** Shapes a media value can have; anything else with a scheme is refused (a quote does not fetch or look up). */
const MEDIA_VALUE = /^(https?:\/\/|data:)/i;
export function mediaShapeProblem(key: string, value: string): string | null {
  if (MEDIA_VALUE.test(value) || !hasUrlScheme(value)) return null;
  return `variables.${key}: a media value is an http(s) URL, a data: URI or a storage key`;
}

/** Draft renders per API key: free, so limited on their own (DRAFTS_PER_MINUTE, as a token bucket). */
export class DraftLimiter {
  private readonly limiter = new RateLimiter(DRAFTS_PER_MINUTE / 60, DRAFTS_PER_MINUTE);

  /** Takes one draft for the key, or throws 429 rate_limited with Retry-After. */
  take(keyId: string): void {
    const r = this.limiter.take(keyId);
    if (r.allowed) return;
    throw new AppError(
      429,
      'rate_limited',
      `Too many draft renders: at most ${DRAFTS_PER_MINUTE} per minute per API key. Retry after ${r.retryAfterSec} s.`,
      { retry_after_sec: r.retryAfterSec },
      { 'Retry-After': String(r.retryAfterSec) },
    );
  }
}
