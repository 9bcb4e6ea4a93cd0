import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { resolveResourcesDir } from '../../../resources.js';
import {
  ProviderError,
  type ProviderContext,
  type ProviderJob,
  type ProviderResult,
  type VideoProvider,
} from '../../video-provider.js';
import { CAPTION_FONTS } from './captions.js';
import { runMediaTool } from './ffmpeg-process.js';
import { buildRenderCommand, type X264Preset } from './filter-graph.js';
import { probeMedia } from './input-probe.js';
import { paletteSourceImage, pictureColors } from './picture-colors.js';
import { localRenderSpeed } from './render-speed.js';

export interface LocalRendererOptions {
  /** Default `ffmpeg` / `ffprobe` from the PATH. */
  ffmpegPath?: string;
  ffprobePath?: string;
  /** The folder with the caption fonts; default `resources/fonts`. */
  fontsDir?: string;
  /** x264 speed/size trade-off; default `veryfast`. */
  preset?: X264Preset;
  /** How long ffmpeg gets to exit on SIGTERM before SIGKILL (ms). */
  killGraceMs?: number;
}

/** `resources/fonts`, found the way the built-in templates are (packaged app, source tree, env override). */
export function resolveFontsDir(env: NodeJS.ProcessEnv = process.env): string | null {
  const resources = resolveResourcesDir(env);
  return resources ? path.join(resources, 'fonts') : null;
}

/**
 * The embedded default provider: renders on this machine with ffmpeg, offline. Nothing happens at
 * `submit` (the id only names the run); `follow` probes the clips and sounds, writes the caption files,
 * runs one ffmpeg process for the video and its thumbnail, and reports progress from `-progress`.
 * Not resumable: after a restart the pipeline renders again from the start.
 */
export class LocalRenderer implements VideoProvider {
  readonly name = 'local';
  readonly resumable = false;
  private readonly running = new Map<string, { stop: AbortController; done: Promise<unknown> }>();

  constructor(private readonly opts: LocalRendererOptions = {}) {}

  submit(_job: ProviderJob, _ctx: ProviderContext): Promise<{ externalId: string }> {
    return Promise.resolve({ externalId: `local-${randomUUID()}` });
  }

  async follow(externalId: string, job: ProviderJob, ctx: ProviderContext): Promise<ProviderResult> {
    const stop = new AbortController();
    const work = this.render(job, ctx, AbortSignal.any([ctx.signal, stop.signal]));
    this.running.set(externalId, { stop, done: work.catch(() => undefined) });
    try {
      return await work;
    } finally {
      this.running.delete(externalId);
    }
  }

  /** Stops a render of this process (the pipeline also aborts ctx.signal, which is enough on its own). */
  async cancel(externalId: string): Promise<void> {
    const run = this.running.get(externalId);
    if (!run) return;
    run.stop.abort();
    await run.done;
  }

  /** Stops every render and waits until their ffmpeg processes have exited. */
  async dispose(): Promise<void> {
    const runs = [...this.running.values()];
    for (const run of runs) run.stop.abort();
    await Promise.all(runs.map((r) => r.done));
  }

  /** The caption fonts' folder (also for captions drawn on other providers' videos); a ProviderError when missing. */
  fontsDirOrThrow(): string {
    return this.fontsDir();
  }

  private fontsDir(): string {
    const dir = this.opts.fontsDir ?? resolveFontsDir();
    const present = dir && Object.values(CAPTION_FONTS).every((f) => fs.existsSync(path.join(dir, f)));
    if (!dir || !present) {
      throw new ProviderError(
        'The caption fonts (resources/fonts) are missing from this installation: reinstall the app.',
      );
    }
    return dir;
  }

  private async render(job: ProviderJob, ctx: ProviderContext, signal: AbortSignal): Promise<ProviderResult> {
    const ffmpeg = this.opts.ffmpegPath ?? 'ffmpeg';
    const fontsDir = this.fontsDir();
    const hidePaths = [ctx.workDir, fontsDir];
    // Clips and sounds are probed (is there a sound track? is it really audio?); images are left to
    // ffmpeg itself, whose error names the file: a probe costs a process start per input.
    const probed = job.media.filter((m) => m.kind !== 'image');
    const paletteImage = paletteSourceImage(job);
    const [facts, pictureColorsRead] = await Promise.all([
      Promise.all(probed.map((m) => probeMedia(this.opts.ffprobePath ?? 'ffprobe', m, { signal, hidePaths }))),
      // A picture ffmpeg cannot read costs only its colours here: the render itself names it (input 'photo').
      paletteImage
        ? pictureColors(ffmpeg, paletteImage, { signal, workDir: ctx.workDir, hidePaths }).catch((err: unknown) => {
            if (signal.aborted) throw err;
            return [];
          })
        : [],
    ]);
    const videoHasAudio = new Map(probed.map((m, i) => [m.path, facts[i]!.hasAudio]));
    const outputPath = path.join(ctx.workDir, 'local-render.mp4');
    const thumbnailPath = path.join(ctx.workDir, 'local-thumbnail.jpg');
    const command = buildRenderCommand({
      job,
      videoHasAudio,
      fontsDir,
      workDir: ctx.workDir,
      outputPath,
      thumbnailPath,
      preset: this.opts.preset,
      pictureColors: pictureColorsRead,
    });
    await Promise.all(command.textFiles.map((f) => fs.promises.writeFile(f.path, f.text, { mode: 0o600 })));
    const started = Date.now();
    await runMediaTool(ffmpeg, command.args, {
      what: 'render the video',
      signal,
      durationSec: command.durationSec,
      onProgress: (percent) => ctx.onProgress({ progress: Math.min(99, percent) }),
      hidePaths,
      killGraceMs: this.opts.killGraceMs,
      inputNames: command.inputKeys,
    });
    const ms = Date.now() - started;
    localRenderSpeed.record(job, ms);
    ctx.log.info({ generationId: job.generationId, scene: command.scene, ms }, 'local render finished');
    const thumbnail = fs.existsSync(thumbnailPath) && fs.statSync(thumbnailPath).size > 0;
    return { videoPath: outputPath, ...(thumbnail ? { thumbnailPath } : {}) };
  }
}
