// The body of generate (and of its quote) from the Generate form's state.
import type { Template } from '../../../shared/ipc-contract.js';
import { MAX_DEADLINE_SEC, type AspectRatio, type OutputFormat } from '../../../shared/video.schema.js';
import type { GenerateBody } from '../../lib/studio-api';
import type { VariableValue } from './VariableInput';

/** Text and captions variables take typed text; the others a file (a storage key or URL). */
export const takesText = (type: string) => type === 'text' || type === 'captions';

export interface GenerateOptions {
  webhookUrl: string;
  count: number;
  aspectRatio: AspectRatio;
  /** Besides the MP4 (always made). */
  extraOutputs: OutputFormat[];
  /** Minutes as typed; empty for no deadline. */
  deadlineMinutes: string;
}

/** The longest deadline the API takes, in the form's minutes. */
export const MAX_DEADLINE_MINUTES = MAX_DEADLINE_SEC / 60;

/** The deadline as deadline_sec, or null when none is set; an error message when the typed value is not one. */
export function deadlineOf(minutes: string): { sec: number | null } | { error: string } {
  const typed = minutes.trim();
  if (!typed) return { sec: null };
  const n = Number(typed);
  if (!/^\d+$/.test(typed) || n < 1 || n > MAX_DEADLINE_MINUTES)
    return { error: `Deadline must be a whole number of minutes from 1 to ${MAX_DEADLINE_MINUTES} (7 days)` };
  return { sec: n * 60 };
}

export function variablesOf(
  template: Template,
  values: Record<string, VariableValue>,
): { variables: Record<string, string>; character_variables: Record<string, string> } {
  const variables: Record<string, string> = {};
  const characterVariables: Record<string, string> = {};
  for (const v of template.input_variables) {
    const val = values[v.key];
    if (!val) continue;
    if (takesText(v.type) && val.text) variables[v.key] = val.text;
    if (!takesText(v.type) && val.reference) variables[v.key] = val.reference;
    if (val.characterId) characterVariables[v.key] = val.characterId;
  }
  return { variables, character_variables: characterVariables };
}

/** What is wrong with the delivery options, by field (`__webhook`, `__deadline`); empty when nothing is. */
export function deliveryProblems(o: GenerateOptions): Record<string, string> {
  const found: Record<string, string> = {};
  if (o.webhookUrl.trim() && !/^https?:\/\/\S+$/i.test(o.webhookUrl.trim()))
    found.__webhook = 'Webhook URL must start with http:// or https://';
  const deadline = deadlineOf(o.deadlineMinutes);
  if ('error' in deadline) found.__deadline = deadline.error;
  return found;
}

/** Format and delivery fields shared by a single request and a batch. */
export function optionsBody(template: Template, o: GenerateOptions): Partial<GenerateBody> {
  const templateRatio = (template as { aspect_ratio?: string }).aspect_ratio ?? '16:9';
  const deadline = deadlineOf(o.deadlineMinutes);
  return {
    ...('sec' in deadline && deadline.sec !== null ? { deadline_sec: deadline.sec } : {}),
    ...(o.webhookUrl.trim() ? { webhook_url: o.webhookUrl.trim() } : {}),
    ...(o.aspectRatio && o.aspectRatio !== templateRatio ? { aspect_ratio: o.aspectRatio } : {}),
    ...(o.extraOutputs.length ? { outputs: ['mp4', ...o.extraOutputs] } : {}),
  };
}

export function singleBody(
  template: Template,
  values: Record<string, VariableValue>,
  o: GenerateOptions,
): GenerateBody {
  const { variables, character_variables } = variablesOf(template, values);
  return {
    variables,
    ...(Object.keys(character_variables).length ? { character_variables } : {}),
    num_videos: o.count,
    ...optionsBody(template, o),
  };
}
