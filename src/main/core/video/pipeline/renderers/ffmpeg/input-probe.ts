import { z } from 'zod';
import { ProviderError, type ProviderMedia } from '../../video-provider.js';
import { runMediaTool } from './ffmpeg-process.js';
import { inputFormatArgs } from './scene-layers.js';

export interface MediaFacts {
  hasVideo: boolean;
  hasAudio: boolean;
  durationSec: number | null;
}

const ProbeOutput = z.object({
  streams: z.array(z.object({ codec_type: z.string().optional() })).default([]),
  format: z.object({ duration: z.string().optional() }).optional(),
});

const PROBE_TIMEOUT_MS = 30_000;

/**
 * What a media input holds (ffprobe, local files only): the renderer needs to know whether a clip has
 * sound before it can wire the filtergraph, and a file without the expected stream gets a clear error
 * naming the variable instead of an ffmpeg message about stream specifiers.
 */
export async function probeMedia(
  ffprobe: string,
  media: ProviderMedia,
  opts: { signal: AbortSignal; hidePaths: string[] },
): Promise<MediaFacts> {
  const stdout = await runMediaTool(
    ffprobe,
    [
      ...inputFormatArgs(media),
      '-show_entries',
      'stream=codec_type:format=duration',
      '-of',
      'json',
      `file:${media.path}`,
    ],
    {
      what: `read the input '${media.key}'`,
      signal: opts.signal,
      hidePaths: opts.hidePaths,
      timeoutMs: PROBE_TIMEOUT_MS,
    },
  );
  let parsed: z.infer<typeof ProbeOutput>;
  try {
    parsed = ProbeOutput.parse(JSON.parse(stdout));
  } catch {
    throw new ProviderError(`The input '${media.key}' could not be read as ${media.kind}.`);
  }
  const types = new Set(parsed.streams.map((s) => s.codec_type));
  const duration = Number(parsed.format?.duration);
  const facts = {
    hasVideo: types.has('video'),
    hasAudio: types.has('audio'),
    durationSec: Number.isFinite(duration) ? duration : null,
  };
  const needed = media.kind === 'audio' ? facts.hasAudio : facts.hasVideo;
  if (!needed) {
    throw new ProviderError(
      `The input '${media.key}' has no ${media.kind === 'audio' ? 'sound' : 'picture'}: it cannot be used as ${media.kind}.`,
    );
  }
  // A looped clip with nothing in it would never produce a frame (until the time limit).
  if (media.kind === 'video' && facts.durationSec !== null && facts.durationSec <= 0) {
    throw new ProviderError(`The input '${media.key}' is an empty video.`);
  }
  return facts;
}
