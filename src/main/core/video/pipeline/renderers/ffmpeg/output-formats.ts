import path from 'node:path';
import type { OutputFormat } from '../../../../../../shared/video.schema.js';
import { runMediaTool } from './ffmpeg-process.js';
import { chain, filter } from './filter-syntax.js';

/** The GIF preview: at most this many pixels on its long side, this frame rate, this many seconds. */
export const GIF_MAX_SIDE = 480;
export const GIF_FPS = 10;
export const GIF_MAX_SEC = 10;

/** Formats made from the finished MP4 by ffmpeg (vtt comes from the captions variable, not from the video). */
export const TRANSCODED_FORMATS = ['webm', 'gif'] as const;
export type TranscodedFormat = (typeof TRANSCODED_FORMATS)[number];

export const OUTPUT_CONTENT_TYPES: Record<OutputFormat, string> = {
  mp4: 'video/mp4',
  webm: 'video/webm',
  gif: 'image/gif',
  vtt: 'text/vtt',
};

export interface OutputFile {
  path: string;
  contentType: string;
}

/**
 * The ffmpeg arguments that make the requested formats from one MP4 in one run (it is decoded once):
 * - webm: VP9 at constant quality with the realtime settings (fast on a laptop CPU, rows in parallel) and
 *   Opus sound (when the MP4 has sound);
 * - gif: the first 10 s at 10 fps, at most 480 px on the long side, with a palette made for this video
 *   (palettegen + paletteuse in one graph), looping.
 */
export function outputArgs(mp4Path: string, files: Partial<Record<TranscodedFormat, string>>): string[] {
  const args = ['-y', '-protocol_whitelist', 'file', '-i', `file:${mp4Path}`];
  if (files.webm) {
    args.push(
      ...['-map', '0:v:0', '-map', '0:a:0?'],
      ...['-c:v', 'libvpx-vp9', '-deadline', 'realtime', '-cpu-used', '8', '-row-mt', '1'],
      ...['-crf', '34', '-b:v', '0', '-pix_fmt', 'yuv420p'],
      ...['-c:a', 'libopus', '-b:a', '96k', '-ar', '48000'],
      ...['-map_metadata', '-1', '-f', 'webm', `file:${files.webm}`],
    );
  }
  if (files.gif) {
    const graph = [
      chain(
        ['0:v:0'],
        [
          filter('trim', { end: GIF_MAX_SEC }),
          filter('fps', { fps: GIF_FPS }),
          filter('scale', {
            w: `min(${GIF_MAX_SIDE},iw)`,
            h: `min(${GIF_MAX_SIDE},ih)`,
            force_original_aspect_ratio: 'decrease',
            flags: 'lanczos',
          }),
          filter('split', { outputs: 2 }),
        ],
        ['gifa', 'gifb'],
      ),
      chain(['gifa'], [filter('palettegen', { stats_mode: 'diff', max_colors: 128 })], 'gifpal'),
      chain(['gifb', 'gifpal'], [filter('paletteuse', { dither: 'bayer', bayer_scale: 4 })], 'gifout'),
    ].join(';');
    args.push(
      ...['-filter_complex', graph, '-map', '[gifout]', '-loop', '0'],
      ...['-map_metadata', '-1', '-f', 'gif', `file:${files.gif}`],
    );
  }
  return args;
}

/** Makes the requested transcoded formats next to the MP4 in workDir; nothing when none is requested. */
export async function makeOutputFiles(
  ffmpeg: string,
  mp4Path: string,
  workDir: string,
  formats: readonly OutputFormat[],
  opts: { signal: AbortSignal; hidePaths?: string[] },
): Promise<Partial<Record<TranscodedFormat, OutputFile>>> {
  const wanted = TRANSCODED_FORMATS.filter((f) => formats.includes(f));
  if (!wanted.length) return {};
  const files = Object.fromEntries(wanted.map((f) => [f, path.join(workDir, `output.${f}`)])) as Partial<
    Record<TranscodedFormat, string>
  >;
  await runMediaTool(ffmpeg, outputArgs(mp4Path, files), {
    what: `make the ${wanted.join(' and ')} output`,
    signal: opts.signal,
    hidePaths: opts.hidePaths,
  });
  return Object.fromEntries(
    wanted.map((f) => [f, { path: files[f]!, contentType: OUTPUT_CONTENT_TYPES[f] }]),
  ) as Partial<Record<TranscodedFormat, OutputFile>>;
}
