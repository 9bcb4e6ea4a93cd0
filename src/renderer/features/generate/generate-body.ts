// The body of generate (and of its quote) from the Generate form's state.
import type { Template } from '../../../shared/ipc-contract.js';
import type { GenerateBody } from '../../lib/studio-api';
import type { VariableValue } from './VariableInput';

/** Text and captions variables take typed text; the others a file (a storage key or URL). */
export const takesText = (type: string) => type === 'text' || type === 'captions';

export interface GenerateOptions {
  webhookUrl: string;
  count: number;
  aspectRatio: string;
  /** Besides the MP4 (always made). */
  extraOutputs: string[];
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

/** Format and delivery fields shared by a single request and a batch. */
export function optionsBody(template: Template, o: GenerateOptions): Partial<GenerateBody> {
  const templateRatio = (template as { aspect_ratio?: string }).aspect_ratio ?? '16:9';
  return {
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
