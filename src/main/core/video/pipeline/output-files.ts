import fs from 'node:fs';
import path from 'node:path';
import type { OutputFormat } from '../../../../shared/video.schema.js';
import { toWebVtt } from '../../../../shared/captions-format.js';
import { makeOutputFiles, OUTPUT_CONTENT_TYPES, type OutputFile } from './renderers/ffmpeg/output-formats.js';
import { ProviderError, type ProviderJob } from './video-provider.js';

/**
 * The requested files besides the MP4, for any provider's result: WebM and the GIF preview transcoded from the
 * finished MP4 (one ffmpeg run), and the WebVTT sidecar written from the captions variable's cues.
 */
export async function makeOutputs(
  ffmpeg: string,
  videoPath: string,
  job: ProviderJob,
  formats: readonly OutputFormat[],
  ctx: { workDir: string; signal: AbortSignal },
): Promise<Partial<Record<OutputFormat, OutputFile>>> {
  const out: Partial<Record<OutputFormat, OutputFile>> = await makeOutputFiles(
    ffmpeg,
    videoPath,
    ctx.workDir,
    formats,
    {
      signal: ctx.signal,
      hidePaths: [ctx.workDir],
    },
  );
  if (formats.includes('vtt')) {
    if (!job.captions?.cues.length) throw new ProviderError('outputs has "vtt" but the generation has no captions.');
    const file = path.join(ctx.workDir, 'captions.vtt');
    await fs.promises.writeFile(file, toWebVtt(job.captions.cues), { mode: 0o600 });
    out.vtt = { path: file, contentType: OUTPUT_CONTENT_TYPES.vtt };
  }
  return out;
}
