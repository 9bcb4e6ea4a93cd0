// What tells generations of the same template apart in a list: the start of their prompt and the inputs
// the request gave (defaults are the same for every generation, so they say nothing).
import type { Generation } from '../../../shared/ipc-contract.js';

const PROMPT_CHARS = 90;
const VALUE_CHARS = 32;
const MAX_INPUTS = 3;

const shorten = (text: string, max: number) => {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max - 1).trimEnd()}…` : flat;
};

/** The prompt's first words, or null when the template has no prompt. */
export function promptStart(g: Pick<Generation, 'prompt'>): string | null {
  return g.prompt?.trim() ? shorten(g.prompt, PROMPT_CHARS) : null;
}

/**
 * The inputs the request gave, as "key: value" (text), "key: file.png" (a file) or "key: character":
 * at most three, then "+N more". Defaults and empty values are left out.
 */
export function keyInputs(g: Pick<Generation, 'inputs'>, characterName?: (id: string) => string | undefined): string[] {
  const given = Object.entries(g.inputs).filter(([, v]) => v.source !== 'default' && v.source !== 'empty');
  const shown = given.slice(0, MAX_INPUTS).map(([key, v]) => {
    if (v.type === 'text') return `${key}: “${shorten(v.value ?? '', VALUE_CHARS)}”`;
    if (v.character_id) return `${key}: ${characterName?.(v.character_id) ?? 'a character'}`;
    const file = v.storage_key?.split('/').pop();
    return `${key}: ${file ? shorten(file, VALUE_CHARS) : v.type}`;
  });
  if (given.length > MAX_INPUTS) shown.push(`+${given.length - MAX_INPUTS} more`);
  return shown;
}

/** The first input the request gave, by its value (text) or its file's name: what one CSV row was about. */
export function firstGivenInput(g: Pick<Generation, 'inputs'>): string | null {
  const given = Object.values(g.inputs).find((v) => v.source !== 'default' && v.source !== 'empty');
  if (!given) return null;
  if (given.type === 'text') return given.value?.trim() ? shorten(given.value, PROMPT_CHARS / 2) : null;
  return given.storage_key?.split('/').pop() ?? null;
}
