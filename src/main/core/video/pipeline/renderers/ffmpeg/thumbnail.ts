import fs from 'node:fs';
import { runMediaTool } from './ffmpeg-process.js';
import { THUMBNAIL_AT_SEC, THUMBNAIL_MAX_WIDTH } from './filter-graph.js';
import { filter } from './filter-syntax.js';

/**
 * A JPEG of the frame at ~1 s (at most 640 wide) from a finished video, for results that came without
 * one (hosted providers). The local renderer writes its own thumbnail in the same ffmpeg run instead.
 * A video shorter than that gets its first frame.
 */
export async function extractThumbnail(
  ffmpeg: string,
  videoPath: string,
  thumbnailPath: string,
  opts: { signal: AbortSignal; hidePaths?: string[]; atSec?: number },
): Promise<string> {
  const grab = (atSec: number) =>
    runMediaTool(
      ffmpeg,
      [
        '-y',
        ...['-ss', String(atSec), '-protocol_whitelist', 'file', '-i', `file:${videoPath}`],
        ...['-frames:v', '1', '-vf', filter('scale', { w: `min(${THUMBNAIL_MAX_WIDTH},iw)`, h: -2 })],
        ...['-q:v', '3', '-map_metadata', '-1', '-update', '1', '-f', 'image2', `file:${thumbnailPath}`],
      ],
      { what: 'make the thumbnail', signal: opts.signal, hidePaths: opts.hidePaths, timeoutMs: 60_000 },
    );
  fs.rmSync(thumbnailPath, { force: true });
  await grab(opts.atSec ?? THUMBNAIL_AT_SEC);
  // Seeking past the end encodes nothing (and exits 0).
  if (!fs.existsSync(thumbnailPath) || fs.statSync(thumbnailPath).size === 0) await grab(0);
  return thumbnailPath;
}
