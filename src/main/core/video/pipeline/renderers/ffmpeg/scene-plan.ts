import { roleOf, type VariableRole } from '../../../../../../shared/variable-roles.js';
import type { ProviderJob, ProviderMedia } from '../../video-provider.js';
import { cameraMoveFor, type CameraMove } from './camera.js';
import { hash } from './scene-layers.js';
import { paletteFor, type Palette, type Rgb } from './palette.js';

/**
 * What the local renderer draws for a job, decided from its category, the media it got and each variable's layout
 * role (its own, or guessed from key and type, so organization templates without roles render sensibly too). The
 * prompt is not drawn: it is for hosted models; the text on screen is the headline, subtitle and body roles'.
 * - `video`: the video inputs, each looped/trimmed to an equal share of the duration and concatenated;
 *   video-to-video also gets a colour "look" picked from the prompt's words;
 * - `visualizer`: audio-to-video (or audio with no pictures): the sound's waveform over a moving gradient
 *   (or over the first image, e.g. cover art);
 * - `image-motion`: one picture full-frame with a slow zoom (image-to-video's start frame, crossfading to
 *   the end frame when there is one; or the only ingredient image, e.g. a talking head's speaker);
 * - `ingredients`: several ingredient images (characters' reference images included) as floating cards,
 *   over the backdrop image (a non-character image whose key says background/backdrop) or a gradient;
 * - `title-card`: text only: the headline set large over the palette's moving gradient and shapes.
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
  /** The text roles' values, laid out on screen. */
  text: SceneText;
  /** A small picture in a corner. */
  logo: ProviderMedia | null;
  palette: Palette;
  camera: CameraMove;
  /** The sound is music (bars that follow it) rather than a voice (a waveform). */
  music: boolean;
}

export interface SceneText {
  headline: string;
  subtitle: string;
  body: string;
}

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

/** A variable's role in this job: the job's record of it, else the guess from its key and type. */
export function jobRole(job: Pick<ProviderJob, 'roles'>, key: string, type: string): VariableRole {
  return roleOf({ key, type, role: job.roles?.[key] });
}

/** The text values of each text role, joined in template order (two subtitles become one line pair). */
export function roleTexts(job: Pick<ProviderJob, 'texts' | 'roles'>): Partial<Record<VariableRole, string>> {
  const out: Partial<Record<VariableRole, string>> = {};
  for (const [key, value] of Object.entries(job.texts)) {
    const text = value.trim();
    if (!text) continue;
    const role = jobRole(job, key, 'text');
    out[role] = out[role] ? `${out[role]} · ${text}` : text;
  }
  return out;
}

/** The words on screen. No headline role: the subtitle moves up, so the biggest type is never empty when text exists. */
export function sceneText(roles: Partial<Record<VariableRole, string>>): SceneText {
  const headline = roles.headline ?? roles.subtitle ?? '';
  const subtitle = roles.headline ? (roles.subtitle ?? '') : '';
  return { headline, subtitle, body: roles.body ?? '' };
}

/** `pictureColors`: the subject picture's colours, for a palette no word names (picture-colors.ts). */
export function planScene(job: ProviderJob, pictureColors: readonly Rgb[] = []): ScenePlan {
  const role = (m: ProviderMedia) => jobRole(job, m.key, m.kind);
  const shown = job.media.filter((m) => m.kind === 'audio' || role(m) !== 'none');
  const videos = [
    ...shown.filter((m) => m.kind === 'video' && m.slot === 'source_video'),
    ...shown.filter((m) => m.kind === 'video' && m.slot !== 'source_video'),
  ];
  const audios = shown.filter((m) => m.kind === 'audio');
  const logo = shown.find((m) => m.kind === 'image' && role(m) === 'logo') ?? null;
  const images = shown.filter((m) => m.kind === 'image' && m !== logo);
  const start = images.find((m) => m.slot === 'start_frame');
  const end = images.find((m) => m.slot === 'end_frame');
  const backdrop = images.find((m) => !m.characterId && m !== start && m !== end && role(m) === 'background') ?? null;
  const cards = images.filter((m) => m !== start && m !== end && m !== backdrop);
  const roles = roleTexts(job);
  const text = sceneText(roles);
  const styleWords = [roles.style, roles.motion].filter(Boolean).join(', ');
  const palette = paletteFor(roles.palette ?? '', styleWords, hash(text.headline || job.generationId), pictureColors);
  const camera = cameraMoveFor(roles.motion ?? '');
  const music = audios.some((m) => role(m) === 'music') && !audios.some((m) => role(m) === 'voice_over');
  const base = {
    videos,
    audios,
    backdrop,
    text,
    logo,
    palette,
    camera,
    music,
    look: null,
    frames: [] as ProviderMedia[],
  };

  let plan: ScenePlan;
  if (videos.length) {
    const look = job.category === 'video-to-video' ? lookFor(styleWords || (roles.palette ?? '')) : null;
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
