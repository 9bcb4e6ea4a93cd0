// Rules of a template definition that the service (template-validation.ts) enforces and the desktop editor
// shows on its fields before anything is sent: declared once here, read by both.
import type { TemplateWrite, VariableSlot, VariableType } from './video.schema.js';

/** `{{key}}` or `{{ key }}`. */
export const PROMPT_TOKEN = /\{\{\s*([A-Za-z_][A-Za-z0-9_]*)\s*\}\}/g;
/** Anything between `{{` and `}}` (to report malformed tokens). */
export const ANY_BRACES = /\{\{([^{}]*)\}\}/g;

/** Which variable type each slot takes, and whether a template may have more than one. */
export const SLOT_RULES: Readonly<Record<VariableSlot, { type: VariableType; many: boolean }>> = {
  start_frame: { type: 'image', many: false },
  end_frame: { type: 'image', many: false },
  ingredient: { type: 'image', many: true },
  source_video: { type: 'video', many: false },
  reference_video: { type: 'video', many: true },
  audio: { type: 'audio', many: false },
};

/** The media variable a category needs at least one of. */
export const CATEGORY_NEEDS: Readonly<Partial<Record<TemplateWrite['category'], VariableType>>> = {
  'image-to-video': 'image',
  'ingredients-to-video': 'image',
  'video-to-video': 'video',
  'audio-to-video': 'audio',
};

/** The `{{key}}` tokens of a prompt template, in order of first use. */
export function promptTokens(prompt: string | null | undefined): string[] {
  if (!prompt) return [];
  return [...new Set([...prompt.matchAll(PROMPT_TOKEN)].map((m) => m[1]))];
}
