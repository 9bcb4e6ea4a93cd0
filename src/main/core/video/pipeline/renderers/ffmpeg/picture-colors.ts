import fs from 'node:fs';
import path from 'node:path';
import type { ProviderJob, ProviderMedia } from '../../video-provider.js';
import { runMediaTool } from './ffmpeg-process.js';
import type { Rgb } from './palette.js';
import { jobRole, roleTexts } from './scene-plan.js';

/**
 * The picture whose colours make the palette when no word names one (issue 46: "a palette … picked from the subject
 * image"): the subject, else the first picture shown (a start frame, a card, the backdrop). None when the palette
 * role has words (they win) or the job has no picture; logos and pictures not shown do not count.
 */
export function paletteSourceImage(job: ProviderJob): ProviderMedia | null {
  if ((roleTexts(job).palette ?? '').trim()) return null;
  const shown = job.media.filter((m) => {
    if (m.kind !== 'image') return false;
    const role = jobRole(job, m.key, m.kind);
    return role !== 'none' && role !== 'logo';
  });
  return shown.find((m) => jobRole(job, m.key, m.kind) === 'subject') ?? shown[0] ?? null;
}

/**
 * The picture's colours, left, middle and right third each averaged (ffmpeg's area scaling to 3x1): one process of
 * a few tens of milliseconds, run only when the palette has no words and there is a picture.
 */
export async function pictureColors(
  ffmpeg: string,
  image: ProviderMedia,
  opts: { signal: AbortSignal; workDir: string; hidePaths?: string[] },
): Promise<Rgb[]> {
  const out = path.join(opts.workDir, 'palette-colors.rgb');
  await runMediaTool(
    ffmpeg,
    [
      '-y',
      ...['-protocol_whitelist', 'file', '-i', `file:${image.path}`, '-frames:v', '1'],
      ...['-vf', 'scale=3:1:flags=area', '-f', 'rawvideo', '-pix_fmt', 'rgb24', `file:${out}`],
    ],
    { what: 'read the picture’s colours', signal: opts.signal, hidePaths: opts.hidePaths, timeoutMs: 30_000 },
  );
  const bytes = fs.readFileSync(out);
  fs.rmSync(out, { force: true });
  const colors: Rgb[] = [];
  for (let i = 0; i + 2 < bytes.length && colors.length < 3; i += 3)
    colors.push([bytes[i]!, bytes[i + 1]!, bytes[i + 2]!]);
  return colors;
}
