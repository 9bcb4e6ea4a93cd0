import { ProviderError, type ProviderJob } from '../../video-provider.js';
import { DRAFT_FPS } from '../../resolutions.js';
import { subtitleFilters, subtitleReserve, type CaptionTextFile } from './captions.js';
import { chain, filter } from './filter-syntax.js';
import { lightDiscs, logoOverlay, musicBars } from './motion-layers.js';
import { textLayers } from './text-layers.js';
import { planScene, type ScenePlan, type SceneKind } from './scene-plan.js';
import type { Rgb } from './palette.js';
import {
  AUDIO_SAMPLE_RATE,
  audioFormat,
  cards,
  Graph,
  gradient,
  hash,
  pictureMotion,
  RENDER_FPS,
  silence,
  videoSequence,
  waveform,
  zoomedPicture,
  type Frame,
} from './scene-layers.js';

/** Where the thumbnail is taken (seconds; half the video when it is shorter than twice that). */
export const THUMBNAIL_AT_SEC = 1;
export const THUMBNAIL_MAX_WIDTH = 640;
export const MAX_RENDER_DURATION_SEC = 600;
const MAX_FRAME_SIDE = 8192;

export type X264Preset = 'ultrafast' | 'superfast' | 'veryfast' | 'faster' | 'fast' | 'medium';

export interface RenderSpec {
  job: ProviderJob;
  /** Whether each video input (by path) has a sound track, from ffprobe (a missing entry counts as none). */
  videoHasAudio: ReadonlyMap<string, boolean>;
  fontsDir: string;
  workDir: string;
  outputPath: string;
  thumbnailPath: string;
  preset?: X264Preset;
  /** The subject picture's colours (picture-colors.ts), for a palette no word names. */
  pictureColors?: readonly Rgb[];
}

export interface RenderCommand {
  /** ffmpeg arguments after the process flags (`-hide_banner -nostdin -loglevel ... -progress ...`). */
  args: string[];
  /** Caption files to write before ffmpeg starts. */
  textFiles: CaptionTextFile[];
  scene: SceneKind;
  durationSec: number;
  /** The variable key of each `-i` input, in order (error messages name the input). */
  inputKeys: string[];
}

function checkJob(job: ProviderJob): void {
  const { width, height, durationSec } = job;
  if (!Number.isFinite(durationSec) || durationSec <= 0 || durationSec > MAX_RENDER_DURATION_SEC) {
    throw new ProviderError(
      `The local renderer makes videos of up to ${MAX_RENDER_DURATION_SEC} s, not ${durationSec} s.`,
    );
  }
  for (const side of [width, height]) {
    if (!Number.isInteger(side) || side < 16 || side > MAX_FRAME_SIDE || side % 2 !== 0) {
      throw new ProviderError(
        `The local renderer cannot make a ${width}x${height} video (even sizes from 16 to 8192).`,
      );
    }
  }
}

/**
 * The whole ffmpeg command for one job (pure: nothing is read or written here). The scene comes from
 * `planScene`; captions are drawn last so they sit above everything; the output is H.264/AAC MP4 cut to
 * the exact duration, with a silent track when no input has sound, plus a JPEG thumbnail from the same run.
 */
export function buildRenderCommand(spec: RenderSpec): RenderCommand {
  const { job } = spec;
  checkJob(job);
  const plan: ScenePlan = planScene(job, spec.pictureColors);
  const fps = job.draft ? DRAFT_FPS : RENDER_FPS;
  const frames = Math.max(1, Math.round(job.durationSec * fps));
  const seconds = frames / fps;
  const seed = hash(plan.text.headline || job.generationId);
  const f: Frame = {
    ...{ width: job.width, height: job.height, fps, frames, seconds, seed },
    ...{ palette: plan.palette, camera: plan.camera },
  };
  const g = new Graph();

  // Picture.
  let video: string;
  let videoSound: string | null = null;
  if (plan.kind === 'video') {
    const seq = videoSequence(g, f, plan.videos, spec.videoHasAudio);
    video = plan.look ? g.add([seq.video], [plan.look], 'look') : seq.video;
    videoSound = seq.audio;
  } else if (plan.kind === 'image-motion') {
    video = pictureMotion(g, f, plan.frames);
  } else if (plan.backdrop) {
    video = zoomedPicture(g, f, plan.backdrop, frames, false);
  } else {
    // No picture: the palette's gradient with light moving by the camera move.
    video = lightDiscs(g, f, gradient(g, f, plan.kind === 'visualizer'));
  }
  if (plan.cards.length) video = cards(g, f, video, plan.cards);
  if (plan.logo) video = logoOverlay(g, f, video, plan.logo);

  // Sound: every input padded with silence to the duration and mixed; silence when there is none.
  const samples = Math.round(seconds * AUDIO_SAMPLE_RATE);
  const sounds = videoSound ? [videoSound] : [];
  for (const media of plan.audios) {
    sounds.push(
      g.add(
        [`${g.input(media)}:a`],
        [
          ...audioFormat(),
          filter('apad'),
          filter('atrim', { end_sample: samples }),
          filter('asetpts', { expr: 'PTS-STARTPTS' }),
        ],
        'snd',
      ),
    );
  }
  let sound: string;
  if (sounds.length === 0) sound = g.add([], [silence(), filter('atrim', { end_sample: samples })], 'silent');
  else if (sounds.length === 1) sound = sounds[0]!;
  else
    sound = g.add(
      sounds,
      [filter('amix', { inputs: sounds.length, duration: 'longest', dropout_transition: 0 })],
      'mix',
    );
  if (plan.kind === 'visualizer' || plan.voiceStrip) {
    const heard = g.label('heard');
    const drawn = g.label('drawn');
    g.chains.push(chain([sound], [filter('asplit', { outputs: 2 })], [heard, drawn]));
    video =
      plan.kind === 'visualizer' && plan.music
        ? musicBars(g, f, video, drawn)
        : waveform(g, f, video, drawn, plan.kind === 'visualizer');
    sound = heard;
  }

  // The text roles (a title card's large type, or a lower block over pictures), above the space burned-in captions
  // keep free; then the captions, then the thumbnail branch. The prompt is never drawn: it is for hosted models.
  const burn = job.captions?.burn ? job.captions.cues : null;
  const caption = textLayers({
    text: plan.text,
    layout: plan.kind === 'title-card' || plan.kind === 'visualizer' ? 'poster' : 'lower',
    palette: plan.palette,
    width: f.width,
    height: f.height,
    seconds,
    fontsDir: spec.fontsDir,
    workDir: spec.workDir,
    reserveBottom: burn ? subtitleReserve(f.width, f.height) : 0,
  });
  const out = g.label('vout');
  const forThumb = g.label('vthsrc');
  const subtitles = burn
    ? subtitleFilters({
        cues: burn,
        width: f.width,
        height: f.height,
        durationSec: seconds,
        fontsDir: spec.fontsDir,
        workDir: spec.workDir,
      })
    : { filters: [], files: [] };
  g.chains.push(
    chain(
      [video],
      [
        ...caption.filters,
        ...subtitles.filters,
        filter('format', { pix_fmts: 'yuv420p' }),
        filter('split', { outputs: 2 }),
      ],
      [out, forThumb],
    ),
  );
  const thumbFrame = Math.min(Math.round(THUMBNAIL_AT_SEC * fps), Math.floor((frames - 1) / 2));
  const thumb = g.add(
    [forThumb],
    [
      filter('trim', { start_frame: thumbFrame, end_frame: thumbFrame + 1 }),
      filter('setpts', { expr: 'PTS-STARTPTS' }),
      filter('scale', { w: `min(${THUMBNAIL_MAX_WIDTH},iw)`, h: -2 }),
    ],
    'thumb',
  );

  // A draft is a preview to look at once: the fastest encoder settings (larger file, same picture).
  const preset = job.draft ? 'ultrafast' : (spec.preset ?? 'veryfast');
  const args = [
    '-y',
    ...g.inputArgs,
    '-filter_complex',
    g.chains.join(';'),
    // The video: exact length, no metadata carried over from the inputs (a photo's GPS position, say).
    ...['-map', `[${out}]`, '-map', `[${sound}]`, '-t', String(seconds)],
    ...['-c:v', 'libx264', '-preset', preset, '-crf', job.draft ? '28' : '23', '-pix_fmt', 'yuv420p'],
    ...['-g', String(fps * 2), '-r', String(fps)],
    ...['-c:a', 'aac', '-b:a', '128k', '-ar', String(AUDIO_SAMPLE_RATE), '-ac', '2'],
    ...[
      '-map_metadata',
      '-1',
      '-map_chapters',
      '-1',
      '-movflags',
      '+faststart',
      '-f',
      'mp4',
      `file:${spec.outputPath}`,
    ],
    // The thumbnail: one JPEG.
    ...['-map', `[${thumb}]`, '-frames:v', '1', '-q:v', '3', '-map_metadata', '-1', '-update', '1'],
    ...['-f', 'image2', `file:${spec.thumbnailPath}`],
  ];
  return {
    args,
    textFiles: [...caption.files, ...subtitles.files],
    scene: plan.kind,
    durationSec: seconds,
    inputKeys: g.inputKeys,
  };
}
