// "Retry" and "Regenerate": the generate request that makes a generation again with the same inputs,
// rebuilt from what the generation recorded (its resolved inputs). Pure.
import type { ChannelArgs, Generation } from '../../shared/ipc-contract.js';

export type GenerateBody = ChannelArgs<'generate:fromTemplate'>['body'];

/**
 * Text and captions the caller typed and media it gave (stored files, by storage key) go back as they were; values
 * that came from the template's defaults are left out so the template fills them in again; a
 * character stays a character. The webhook URL is not reused (it is stored masked).
 */
export function requestFromGeneration(g: Pick<Generation, 'inputs'>): GenerateBody {
  const variables: Record<string, string> = {};
  const characterVariables: Record<string, string> = {};
  for (const [key, input] of Object.entries(g.inputs)) {
    if (input.source === 'default' || input.source === 'empty') continue;
    if (input.source === 'character' && input.character_id) characterVariables[key] = input.character_id;
    // Text, and captions given as text (captions from an upload are recorded by their storage key, as media are).
    else if (input.value !== undefined && (input.type === 'text' || input.type === 'captions'))
      variables[key] = input.value;
    else if (input.type !== 'text' && input.storage_key) variables[key] = input.storage_key;
  }
  return {
    variables,
    ...(Object.keys(characterVariables).length ? { character_variables: characterVariables } : {}),
    num_videos: 1,
  };
}
