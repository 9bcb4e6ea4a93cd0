import type { ProviderJob, ProviderMedia } from '../../video-provider.js';

/**
 * What the local renderer draws for a job, decided from its category and the media it got (not from
 * variable names, so organization templates render sensibly too):
 * - `video`: the video inputs, each looped/trimmed to an equal share of the duration and concatenated;
 *   video-to-video also gets a colour "look" picked from the prompt's words;
 * - `visualizer`: audio-to-video (or audio with no pictures): the sound's waveform over a moving gradient
 *   (or over the first image, e.g. cover art);
 * - `image-motion`: one picture full-frame with a slow zoom (image-to-video's start frame, crossfading to
 *   the end frame when there is one; or the only ingredient image, e.g. a talking head's speaker);
 * - `ingredients`: several ingredient images (characters' reference images included) as floating cards,
 *   over the backdrop image (a non-character image whose key says background/backdrop) or a gradient;
 * - `title-card`: text only: a moving gradient with the prompt as a large title.
 * Any scene with audio inputs but no visualizer shows a small "voice" waveform strip.
 */
export type SceneKind = 'video' | 'visualizer' | 'image-motion' | 'ingredients' | 'title-card';

export interface ScenePlan {
  kind: SceneKind;
  videos: ProviderMedia[];
  /** Full-frame pictures with motion, in order (start frame, then end frame). */
  frames: ProviderMedia[];
  /** A full-frame picture under the cards. */
  backdrop: ProviderMedia | null;
  /** Pictures shown as cards. */
  cards: ProviderMedia[];
  audios: ProviderMedia[];
  voiceStrip: boolean;
  /** The colour grade for a restyled video (an ffmpeg filter chain of cheap colour filters). */
  look: string | null;
  caption: string;
}

const BACKDROP_KEY = /background|backdrop/i;

/** Colour looks for video-to-video, chosen by words in the prompt; all are per-pixel cheap. */
const LOOKS: { words: RegExp; filters: string }[] = [
  { words: /black[\s-]*(and|&)[\s-]*white|\bb&w\b|noir|monochrome|gr[ae]yscale/i, filters: 'hue=s=0,eq=contrast=1.15' },
  {
    words: /sepia|vintage|retro|old[\s-]film|nostalgic/i,
    filters: 'colorchannelmixer=rr=0.393:rg=0.769:rb=0.189:gr=0.349:gg=0.686:gb=0.168:br=0.272:bg=0.534:bb=0.131',
  },
  { words: /neon|cyberpunk|vivid|psychedelic|synthwave/i, filters: 'eq=saturation=1.8:contrast=1.2' },
  { words: /watercolou?r|pastel|dreamy|soft|hand[\s-]drawn/i, filters: 'eq=saturation=0.75:brightness=0.06:gamma=1.1' },
  { words: /cold|icy|winter|blue/i, filters: 'colorbalance=rs=-0.1:bs=0.25:bm=0.1' },
  { words: /warm|sunset|golden|summer/i, filters: 'colorbalance=rs=0.2:rm=0.08:bs=-0.15' },
];
const DEFAULT_LOOK = 'eq=contrast=1.08:saturation=1.3';

export function lookFor(text: string): string {
  return LOOKS.find((l) => l.words.test(text))?.filters ?? DEFAULT_LOOK;
}

/** The caption: the resolved prompt, else the text values (a template without a prompt_template). */
export function captionOf(job: Pick<ProviderJob, 'prompt' | 'texts'>): string {
  const prompt = job.prompt?.trim();
  if (prompt) return prompt;
  return Object.values(job.texts)
    .map((t) => t.trim())
    .filter(Boolean)
    .join(' — ');
}

export function planScene(job: ProviderJob): ScenePlan {
  const videos = [
    ...job.media.filter((m) => m.kind === 'video' && m.slot === 'source_video'),
    ...job.media.filter((m) => m.kind === 'video' && m.slot !== 'source_video'),
  ];
  const audios = job.media.filter((m) => m.kind === 'audio');
  const images = job.media.filter((m) => m.kind === 'image');
  const start = images.find((m) => m.slot === 'start_frame');
  const end = images.find((m) => m.slot === 'end_frame');
  const backdrop = images.find((m) => !m.characterId && m !== start && m !== end && BACKDROP_KEY.test(m.key)) ?? null;
  const cards = images.filter((m) => m !== start && m !== end && m !== backdrop);
  const caption = captionOf(job);
  const base = { videos, audios, backdrop, caption, look: null, frames: [] as ProviderMedia[] };

  let plan: ScenePlan;
  if (videos.length) {
    const look = job.category === 'video-to-video' ? lookFor(caption) : null;
    plan = { ...base, kind: 'video', cards: [...(start ? [start] : []), ...cards], look, voiceStrip: false };
  } else if (audios.length && (job.category === 'audio-to-video' || images.length === 0)) {
    // A picture that came with the sound (cover art) sits behind the waveform.
    plan = { ...base, kind: 'visualizer', backdrop: images[0] ?? null, cards: [], voiceStrip: false };
  } else if (start || end) {
    const frames = [start, end].filter((m): m is ProviderMedia => m !== undefined);
    plan = { ...base, kind: 'image-motion', frames, cards, voiceStrip: false };
  } else if (!backdrop && cards.length === 1) {
    plan = { ...base, kind: 'image-motion', frames: cards, cards: [], voiceStrip: false };
  } else if (backdrop || cards.length) {
    plan = { ...base, kind: 'ingredients', cards, voiceStrip: false };
  } else {
    plan = { ...base, kind: 'title-card', cards: [], voiceStrip: false };
  }
  plan.voiceStrip = plan.audios.length > 0 && plan.kind !== 'visualizer';
  return plan;
}
