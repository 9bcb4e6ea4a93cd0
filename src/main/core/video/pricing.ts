import { PRICING_FORMULA } from '../../../shared/video.schema.js';
import { AppError } from '../errors.js';

/** Price of a model at each resolution, per second of video. */
export interface ModelPricing {
  default_duration_sec: number;
  max_duration_sec: number;
  credits_per_second: Record<string, number>;
}

export const DEFAULT_MODEL = 'studio-v1';
export const DEFAULT_RESOLUTION = '720p';

/**
 * The pricing table: credits of one video = ceil(duration_sec x credits_per_second[model][resolution]),
 * at least 1. A template's duration_sec (or the model's default duration when null) is the duration.
 * A model or resolution missing here, or a duration over the model's maximum, has no price:
 * generate answers 400 pricing_error. Templates may name such a model (e.g. one added later).
 */
export const PRICING_TABLE: Readonly<Record<string, ModelPricing>> = {
  'studio-v1': {
    default_duration_sec: 8,
    max_duration_sec: 60,
    credits_per_second: { '480p': 0.5, '720p': 1, '1080p': 2 },
  },
  'studio-v1-fast': {
    default_duration_sec: 5,
    max_duration_sec: 20,
    credits_per_second: { '480p': 0.25, '720p': 0.5 },
  },
  'studio-pro': {
    default_duration_sec: 8,
    max_duration_sec: 30,
    credits_per_second: { '720p': 3, '1080p': 4, '4k': 8 },
  },
};

export interface ModelConfig {
  model: string;
  resolution: string;
  duration_sec: number | null;
}

export interface Price {
  model: string;
  resolution: string;
  /** The duration billed (the template's, or the model's default). */
  duration_sec: number;
  credits_per_video: number;
}

export class PricingError extends AppError {
  constructor(message: string) {
    super(400, 'pricing_error', message);
  }
}

/** The price of one video for a model configuration; throws 400 pricing_error when none applies. */
export function priceFor(config: ModelConfig, table: Readonly<Record<string, ModelPricing>> = PRICING_TABLE): Price {
  const model = Object.hasOwn(table, config.model) ? table[config.model] : undefined;
  if (!model) {
    throw new PricingError(`No pricing for model "${config.model}". Priced models: ${Object.keys(table).join(', ')}.`);
  }
  const rate = Object.hasOwn(model.credits_per_second, config.resolution)
    ? model.credits_per_second[config.resolution]
    : undefined;
  if (rate === undefined) {
    throw new PricingError(
      `No pricing for model "${config.model}" at resolution "${config.resolution}". Priced resolutions: ${Object.keys(model.credits_per_second).join(', ')}.`,
    );
  }
  const duration = config.duration_sec ?? model.default_duration_sec;
  if (!(duration > 0) || duration > model.max_duration_sec) {
    throw new PricingError(
      `No pricing for ${duration} s on model "${config.model}" (maximum ${model.max_duration_sec} s).`,
    );
  }
  return {
    model: config.model,
    resolution: config.resolution,
    duration_sec: duration,
    credits_per_video: Math.max(1, Math.ceil(duration * rate)),
  };
}

/** The same price, or null when none applies (for listings). */
export function tryPriceFor(config: ModelConfig): Price | null {
  try {
    return priceFor(config);
  } catch {
    return null;
  }
}

export function pricingDocument() {
  return {
    default_model: DEFAULT_MODEL,
    default_resolution: DEFAULT_RESOLUTION,
    models: PRICING_TABLE,
    formula: PRICING_FORMULA,
  };
}

/** What a generate request costs: the one place drafts (free) and batches (one video per row) are priced. */
export function requestPrice(
  price: Pick<Price, 'credits_per_video'>,
  request: { draft?: boolean; num_videos: number; batch?: readonly unknown[] },
): { perVideo: number; count: number; credits: number } {
  const perVideo = request.draft ? 0 : price.credits_per_video;
  const count = request.batch?.length ?? request.num_videos;
  return { perVideo, count, credits: perVideo * count };
}
