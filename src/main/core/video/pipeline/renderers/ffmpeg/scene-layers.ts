import type { ProviderMedia } from '../../video-provider.js';
import { kenBurns, type CameraMove } from './camera.js';
import { bottomMargin } from './captions.js';
import { chain, filter } from './filter-syntax.js';
import { ffColor, type Palette } from './palette.js';

// The building blocks of a local render's filtergraph: backgrounds, pictures with motion, clips,
// cards, waveforms and the sound chains. buildRenderCommand (filter-graph.ts) decides which are used.

export { RENDER_FPS } from '../../resolutions.js';
export const AUDIO_SAMPLE_RATE = 48_000;

/** Demuxers by the content type the upload sniffer assigned: ffmpeg never guesses a format from the bytes. */
const DEMUXERS: Record<string, string> = {
  'image/png': 'png_pipe',
  'image/jpeg': 'jpeg_pipe',
  'image/webp': 'webp_pipe',
  'image/gif': 'gif',
  'video/mp4': 'mov',
  'video/quicktime': 'mov',
  'video/webm': 'matroska',
  'audio/mpeg': 'mp3',
  'audio/wav': 'wav',
  'audio/x-wav': 'wav',
  'audio/mp4': 'mov',
  'audio/aac': 'aac',
  'audio/ogg': 'ogg',
  'audio/webm': 'matroska',
};

/**
 * Input options for one local media file: local files only (an input can never make ffmpeg open a URL),
 * the demuxer named by content type, and `file:` so a file name is never read as a protocol.
 */
export function inputFormatArgs(media: Pick<ProviderMedia, 'contentType'>): string[] {
  const demuxer = DEMUXERS[media.contentType.split(';')[0]!.trim().toLowerCase()];
  return ['-protocol_whitelist', 'file', ...(demuxer ? ['-f', demuxer] : [])];
}

/** FNV-1a: a stable number from the caption, so the same prompt gets the same colours. */
export function hash(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193) >>> 0;
  return h >>> 0;
}

const even = (n: number) => Math.max(2, 2 * Math.round(n / 2));

/** The gradient's drawing size: 90 pixels on the short side, in the frame's shape (scaled up afterwards). */
function smallSize(f: Pick<Frame, 'width' | 'height'>): string {
  const short = Math.min(f.width, f.height);
  return `${even((90 * f.width) / short)}x${even((90 * f.height) / short)}`;
}

/** Accumulates inputs and chains; labels are numbered so any number of media fits. */
export class Graph {
  readonly inputArgs: string[] = [];
  readonly chains: string[] = [];
  readonly inputKeys: string[] = [];
  private labels = 0;

  input(media: ProviderMedia, loop = false): string {
    this.inputArgs.push(...(loop ? ['-stream_loop', '-1'] : []), ...inputFormatArgs(media), '-i', `file:${media.path}`);
    this.inputKeys.push(media.key);
    return String(this.inputKeys.length - 1);
  }

  label(prefix: string): string {
    return `${prefix}${this.labels++}`;
  }

  add(inputs: string[], filters: string[], prefix: string): string {
    const out = this.label(prefix);
    this.chains.push(chain(inputs, filters, out));
    return out;
  }
}

/** The output picture: size, length, the seed derived from the headline, the palette and the camera move. */
export interface Frame {
  width: number;
  height: number;
  /** Frames per second (24, or 12 for a draft). */
  fps: number;
  frames: number;
  seconds: number;
  seed: number;
  palette: Palette;
  camera: CameraMove;
}

/** A turning gradient in the palette's colours, drawn small and scaled up (full size costs several times more). */
export function gradient(g: Graph, f: Frame, dark: boolean): string {
  const [c0, c1, c2] = f.palette.background;
  const dim = (rgb: readonly [number, number, number]) =>
    dark ? ([0, 1, 2].map((i) => Math.round(rgb[i]! * 0.6)) as [number, number, number]) : rgb;
  return g.add(
    [],
    [
      filter('gradients', {
        s: smallSize(f),
        r: f.fps,
        c0: ffColor(dim(c0)),
        c1: ffColor(dim(c1)),
        c2: ffColor(dim(c2)),
        n: 3,
        seed: f.seed,
        speed: 0.03,
      }),
      filter('trim', { end_frame: f.frames }),
      filter('scale', { w: f.width, h: f.height, flags: 'bilinear' }),
      filter('setsar', { r: 1 }),
      filter('format', { pix_fmts: 'yuv420p' }),
    ],
    'bg',
  );
}

/**
 * A still picture filling the frame with the camera move (Ken Burns: push in, pan, orbit...) over `frames` frames;
 * `zoomOut` reverses a push in (the end frame of a crossfade pulls back).
 */
export function zoomedPicture(g: Graph, f: Frame, media: ProviderMedia, frames: number, zoomOut: boolean): string {
  const last = Math.max(1, frames - 1);
  const move = zoomOut && f.camera.kind === 'push-in' ? { ...f.camera, kind: 'pull-out' as const } : f.camera;
  const { z, x, y } = kenBurns(move, last);
  return g.add(
    [`${g.input(media)}:v`],
    [
      filter('trim', { end_frame: 1 }),
      filter('scale', { w: f.width, h: f.height, force_original_aspect_ratio: 'increase' }),
      filter('crop', { w: f.width, h: f.height }),
      filter('setsar', { r: 1 }),
      filter('zoompan', {
        z,
        x,
        y,
        d: frames,
        s: `${f.width}x${f.height}`,
        fps: f.fps,
      }),
      filter('trim', { end_frame: frames }),
      filter('setpts', { expr: 'PTS-STARTPTS' }),
      filter('format', { pix_fmts: 'yuv420p' }),
    ],
    'pic',
  );
}

/** Start frame, or start crossfading into end frame halfway. */
export function pictureMotion(g: Graph, f: Frame, pictures: ProviderMedia[]): string {
  if (pictures.length === 1) return zoomedPicture(g, f, pictures[0]!, f.frames, false);
  const fadeFrames = Math.max(1, Math.round(Math.min(1, f.seconds / 4) * f.fps));
  const first = Math.round((f.frames + fadeFrames) / 2);
  const second = f.frames - first + fadeFrames;
  const a = zoomedPicture(g, f, pictures[0]!, first, false);
  const b = zoomedPicture(g, f, pictures[1]!, second, true);
  const offset = (first - fadeFrames) / f.fps;
  return g.add([a, b], [filter('xfade', { transition: 'fade', duration: fadeFrames / f.fps, offset })], 'xf');
}

/** Video inputs, each looped (stream_loop) and trimmed to an equal share, fitted to the frame, then concatenated. */
export function videoSequence(g: Graph, f: Frame, videos: ProviderMedia[], hasAudio: ReadonlyMap<string, boolean>) {
  const parts: string[] = [];
  videos.forEach((media, i) => {
    const frames = Math.floor(f.frames / videos.length) + (i < f.frames % videos.length ? 1 : 0);
    const samples = Math.round((frames / f.fps) * AUDIO_SAMPLE_RATE);
    const input = g.input(media, true);
    const fit = filter('scale', {
      w: f.width,
      h: f.height,
      force_original_aspect_ratio: 'decrease',
      force_divisible_by: 2,
    });
    const cut = [
      filter('setsar', { r: 1 }),
      filter('trim', { end_frame: frames }),
      filter('setpts', { expr: 'PTS-STARTPTS' }),
      filter('format', { pix_fmts: 'yuv420p' }),
    ];
    if (f.width >= f.height * 1.5) {
      // Landscape: letterboxed (a landscape clip fills it, or nearly).
      const pad = filter('pad', { w: f.width, h: f.height, x: '(ow-iw)/2', y: '(oh-ih)/2', color: 'black' });
      parts.push(g.add([`${input}:v`], [filter('fps', { fps: f.fps }), fit, pad, ...cut], 'vseg'));
    } else {
      // Portrait or square: the clip fitted over a blurred, zoomed copy of itself instead of wide black bars.
      // The blur is done at an eighth of the size (cheap), then scaled up.
      const [sharp, soft] = [g.label('vfg'), g.label('vbgsrc')];
      g.chains.push(
        chain([`${input}:v`], [filter('fps', { fps: f.fps }), filter('split', { outputs: 2 })], [sharp, soft]),
      );
      const sw = even(f.width / 8);
      const sh = even(f.height / 8);
      const bg = g.add(
        [soft],
        [
          filter('scale', { w: sw, h: sh, force_original_aspect_ratio: 'increase' }),
          filter('crop', { w: sw, h: sh }),
          filter('boxblur', { luma_radius: 3, luma_power: 2 }),
          filter('eq', { brightness: -0.08 }),
          filter('scale', { w: f.width, h: f.height, flags: 'bilinear' }),
        ],
        'vbg',
      );
      const fg = g.add([sharp], [fit], 'vfit');
      parts.push(g.add([bg, fg], [filter('overlay', { x: '(W-w)/2', y: '(H-h)/2' }), ...cut], 'vseg'));
    }
    // A clip without sound contributes silence, so sound and picture stay aligned across the cuts.
    parts.push(
      hasAudio.get(media.path)
        ? g.add([`${input}:a`], [...audioFormat(), filter('apad'), filter('atrim', { end_sample: samples })], 'aseg')
        : g.add([], [silence(), filter('atrim', { end_sample: samples })], 'aseg'),
    );
  });
  const video = g.label('vcat');
  const audio = g.label('acat');
  g.chains.push(chain(parts, [filter('concat', { n: videos.length, v: 1, a: 1 })], [video, audio]));
  return { video, audio };
}

export const audioFormat = () => [
  filter('aresample', { osr: AUDIO_SAMPLE_RATE }),
  filter('aformat', { sample_fmts: 'fltp', channel_layouts: 'stereo' }),
];
export const silence = () => filter('anullsrc', { r: AUDIO_SAMPLE_RATE, cl: 'stereo' });

/**
 * Where the cards go: one row in a landscape frame; in a portrait or square frame a column of one or two
 * (so each card stays large), two columns for three or four. The area sits above the caption.
 */
export function cardGrid(f: Pick<Frame, 'width' | 'height'>, n: number) {
  const portrait = f.height > f.width;
  const cols = f.width > f.height * 1.2 ? n : n <= (portrait ? 2 : 1) ? 1 : Math.min(n, 2);
  const rows = Math.ceil(n / cols);
  const areaTop = f.height * (portrait ? 0.1 : 0.07);
  const areaH = f.height * (portrait ? 0.56 : 0.6);
  const gap = Math.min(f.width, f.height) * 0.03;
  const slotW = (f.width * 0.9 - gap * (cols - 1)) / cols;
  const slotH = (areaH - gap * (rows - 1)) / rows;
  const slot = (i: number) => ({
    left: f.width * 0.05 + (i % cols) * (slotW + gap),
    top: areaTop + Math.floor(i / cols) * (slotH + gap),
  });
  return { slotW, slotH, slot };
}

/** Pictures as bordered cards (see cardGrid), fading in one after another and floating gently. */
export function cards(g: Graph, f: Frame, base: string, pictures: ProviderMedia[]): string {
  const { slotW, slotH, slot } = cardGrid(f, pictures.length);
  const border = Math.max(2, Math.round(Math.min(f.width, f.height) / 180));
  let out = base;
  pictures.forEach((media, i) => {
    const card = g.add(
      [`${g.input(media)}:v`],
      [
        filter('trim', { end_frame: 1 }),
        filter('scale', {
          w: even(slotW - 2 * border),
          h: even(slotH - 2 * border),
          force_original_aspect_ratio: 'decrease',
          force_divisible_by: 2,
        }),
        filter('setsar', { r: 1 }),
        filter('format', { pix_fmts: 'rgba' }),
        filter('pad', { w: `iw+${2 * border}`, h: `ih+${2 * border}`, x: border, y: border, color: 'white@0.9' }),
        filter('loop', { loop: -1, size: 1, start: 0 }),
        filter('setpts', { expr: `N/${f.fps}/TB` }),
        filter('trim', { end_frame: f.frames }),
        filter('fade', { t: 'in', st: 0.15 + i * 0.35, d: 0.6, alpha: 1 }),
      ],
      'card',
    );
    const { left, top } = slot(i);
    const float = `${(Math.min(f.width, f.height) * 0.012).toFixed(1)}*sin(2*PI*t/${5 + i}+${i * 1.7})`;
    out = g.add(
      [out, card],
      [
        filter('overlay', {
          x: `${left.toFixed(1)}+(${slotW.toFixed(1)}-w)/2`,
          y: `${top.toFixed(1)}+(${slotH.toFixed(1)}-h)/2+${float}`,
        }),
      ],
      'comp',
    );
  });
  return out;
}

/** The sound drawn as a centred waveform: full-height for a visualizer, a small strip for a voice. */
export function waveform(g: Graph, f: Frame, base: string, audio: string, big: boolean): string {
  const portrait = f.height > f.width;
  const w = even(big ? f.width : f.width * (portrait ? 0.8 : 0.5));
  const h = even(big ? f.height * (portrait ? 0.3 : 0.5) : Math.min(f.width, f.height) * 0.12);
  const colors = big ? `${ffColor(f.palette.accent)}|${ffColor(f.palette.background[1])}` : 'white@0.85';
  const waves = g.add(
    [audio],
    [
      filter('showwaves', { s: `${w}x${h}`, mode: 'cline', rate: f.fps, colors, scale: 'sqrt' }),
      filter('format', { pix_fmts: 'rgba' }),
    ],
    'waves',
  );
  // A voice's strip sits at the bottom of the safe area, under the pictures (not across a face).
  const y = big ? '(main_h-overlay_h)/2' : String(Math.round(f.height * (1 - bottomMargin(f.width, f.height)) - h));
  return g.add([base, waves], [filter('overlay', { x: '(main_w-overlay_w)/2', y, shortest: 1 })], 'comp');
}
