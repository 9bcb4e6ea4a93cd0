// What the desktop app tells the person when a generation finishes while its window is not in front
// (an OS notification, shown by src/main/electron/notifications.ts). Pure: unit-tested directly.

export interface GenerationNotice {
  title: string;
  body: string;
}

export interface FinishedGeneration {
  id: string;
  /** aborted: its deadline passed before it started (told like a failure). */
  status: 'completed' | 'failed' | 'canceled' | 'aborted';
  /** The template's title, when it could be read. */
  templateTitle: string | null;
  /** The failure message (failed only). */
  error: string | null;
}

const MAX_BODY = 200;

const clip = (text: string) => (text.length > MAX_BODY ? `${text.slice(0, MAX_BODY - 1)}…` : text);

/**
 * The notice for a finished generation, or null: none while the window is focused (the person sees
 * the screen change), none when notices are turned off, none for a cancel (the person did it).
 */
export function generationNotice(
  g: FinishedGeneration,
  opts: { windowFocused: boolean; enabled: boolean },
): GenerationNotice | null {
  if (!opts.enabled || opts.windowFocused || g.status === 'canceled') return null;
  const what = g.templateTitle ?? `Generation ${g.id}`;
  if (g.status === 'completed') return { title: 'Video ready', body: clip(`${what} is ready to play.`) };
  return { title: 'Video failed', body: clip(`${what}: ${g.error ?? 'the generation failed'} (credits refunded)`) };
}
