import fs from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import type { CaptionCue } from '../../../../../../shared/captions-format.js';
import { ProviderError } from '../../video-provider.js';
import { subtitleFilters } from './captions.js';
import { runMediaTool } from './ffmpeg-process.js';

const Probe = z.object({
  streams: z
    .array(z.object({ codec_type: z.string().optional(), width: z.number().optional(), height: z.number().optional() }))
    .default([]),
  format: z.object({ duration: z.string().optional() }).optional(),
});

/**
 * Timed captions drawn into a finished video that the local renderer did not make (a hosted provider's or
 * ComfyUI's): the same layout and timing as a local render's (subtitleFilters), the picture re-encoded as H.264,
 * the sound copied. Returns the new file's path in workDir.
 */
export async function burnCaptions(
  tools: { ffmpeg: string; ffprobe: string },
  videoPath: string,
  cues: readonly CaptionCue[],
  opts: { workDir: string; fontsDir: string; signal: AbortSignal },
): Promise<string> {
  const hidePaths = [opts.workDir, opts.fontsDir];
  const probed = Probe.safeParse(
    JSON.parse(
      await runMediaTool(
        tools.ffprobe,
        ['-show_entries', 'stream=codec_type,width,height:format=duration', '-of', 'json', `file:${videoPath}`],
        { what: 'read the video to caption', signal: opts.signal, hidePaths, timeoutMs: 30_000 },
      ),
    ),
  );
  const video = probed.success ? probed.data.streams.find((s) => s.codec_type === 'video') : undefined;
  if (!video?.width || !video.height) throw new ProviderError('The video has no picture to draw the captions on.');
  const duration = Number(probed.success ? probed.data.format?.duration : NaN);
  const { filters, files } = subtitleFilters({
    cues,
    width: video.width,
    height: video.height,
    durationSec: Number.isFinite(duration) ? duration : Infinity,
    fontsDir: opts.fontsDir,
    workDir: opts.workDir,
  });
  if (!filters.length) return videoPath;
  await Promise.all(files.map((f) => fs.promises.writeFile(f.path, f.text, { mode: 0o600 })));
  const out = path.join(opts.workDir, 'captioned.mp4');
  await runMediaTool(
    tools.ffmpeg,
    [
      ...['-y', '-protocol_whitelist', 'file', '-i', `file:${videoPath}`],
      ...['-map', '0:v:0', '-map', '0:a:0?', '-vf', [...filters, 'format=yuv420p'].join(',')],
      ...['-c:v', 'libx264', '-preset', 'veryfast', '-crf', '20', '-c:a', 'copy'],
      ...['-map_metadata', '-1', '-movflags', '+faststart', '-f', 'mp4', `file:${out}`],
    ],
    { what: 'draw the captions', signal: opts.signal, hidePaths },
  );
  return out;
}
