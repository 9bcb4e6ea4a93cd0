import type { CreateGenerationRequest } from '../../../../shared/create-generation.schema.js';
import type { TemplateCategory, TemplateWrite } from '../../../../shared/video.schema.js';
import { requestHash, type GenerateInput } from './generate-input.js';
import { DEFAULT_RESOLUTION, priceFor } from '../pricing.js';
import type { UsableTemplate } from '../templates/templates.service.js';

type Variable = TemplateWrite['input_variables'][number];

/** Generations made by Create Generation carry this template id (the spec's webhook body needs one). */
export const modelTemplateId = (modelName: string) => `model:${modelName}`;

function categoryOf(req: CreateGenerationRequest): TemplateCategory {
  if (req.sourceVideoKey) return 'video-to-video';
  if (req.ingredientImageKeys?.length) return 'ingredients-to-video';
  if (req.startFrameKey) return 'image-to-video';
  if (req.audioKey) return 'audio-to-video';
  return 'text-to-video';
}

/**
 * Create Generation as a one-off template: the prompt and each key become variables with the slots a
 * model call uses, so validation, media checks (storage keys only, this org's, of the right kind),
 * pricing per modelName, charging, idempotency and the pipeline are exactly those of template generate.
 */
export function modelGeneration(req: CreateGenerationRequest): {
  template: UsableTemplate;
  input: GenerateInput;
  hash: string;
} {
  const variables: Variable[] = [{ key: 'prompt', label: 'Prompt', type: 'text', required: true, max_length: 4000 }];
  const values: Record<string, string> = { prompt: req.prompt };
  const add = (key: string, type: Variable['type'], slot: Variable['slot'], value: string | undefined) => {
    if (!value) return;
    variables.push({ key, label: key, type, required: true, slot });
    values[key] = value;
  };
  add('start_frame', 'image', 'start_frame', req.startFrameKey);
  req.ingredientImageKeys?.forEach((k, i) => add(`ingredient_${i + 1}`, 'image', 'ingredient', k));
  add('source_video', 'video', 'source_video', req.sourceVideoKey);
  req.referenceVideoKeys?.forEach((k, i) => add(`reference_video_${i + 1}`, 'video', 'reference_video', k));
  add('audio', 'audio', 'audio', req.audioKey);
  add('captions', 'captions', undefined, req.captionsKey);

  const resolution = req.resolution ?? DEFAULT_RESOLUTION;
  const price = priceFor({ model: req.modelName, resolution, duration_sec: req.duration_sec ?? null });
  const definition: TemplateWrite = {
    title: `${req.modelName} generation`,
    description: null,
    category: categoryOf(req),
    duration_sec: price.duration_sec,
    latency_estimate_sec: null,
    input_variables: variables,
    prompt_template: '{{prompt}}',
    model: req.modelName,
    resolution,
    aspect_ratio: req.aspect_ratio ?? '16:9',
    provider: null,
  };
  const input: GenerateInput = {
    variables: values,
    files: {},
    character_variables: {},
    num_videos: req.num_videos,
    ...(req.aspect_ratio ? { aspect_ratio: req.aspect_ratio } : {}),
    ...(req.outputs ? { outputs: req.outputs } : {}),
    ...(req.webhook_url ? { webhook_url: req.webhook_url } : {}),
    ...(req.deadline_sec ? { deadline_sec: req.deadline_sec } : {}),
    ...(req.webhook_events ? { webhook_events: req.webhook_events } : {}),
  };
  const id = modelTemplateId(req.modelName);
  return { template: { id, definition, price }, input, hash: requestHash(id, 'json', req) };
}
