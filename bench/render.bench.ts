import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createLogger } from '../src/main/core/logger.js';
import { LocalRenderer } from '../src/main/core/video/pipeline/renderers/ffmpeg/local-renderer.js';
import type { ProviderJob } from '../src/main/core/video/pipeline/video-provider.js';
import { builtinTemplates, jobFromTemplate } from '../test/helpers/render-jobs.js';
import { bareRenderArgs, runBareFfmpeg } from './lib/ffmpeg.js';
import { percentile, round } from './lib/stats.js';

/** Interleaved pairs: a busy machine slows both sides alike; the median pair ratio is reported. */
const ROUNDS = 7;
const TEMPLATE = 'image-to-video-animate'; // 5 s at 720p

/**
 * A 5 s 1280x720 built-in render (image-to-video: a photo with a slow zoom, caption, silent track,
 * thumbnail) through LocalRenderer.follow, against the bare ffmpeg command with the same arguments and
 * filtergraph (caption files written beforehand, no -progress), in the same run. Target: <= 1.1x.
 */
export async function runRenderBench(): Promise<Record<string, unknown>> {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'agent-studio-render-bench-'));
  const log = createLogger(root, 'silent').log;
  try {
    const photo = path.join(root, 'photo.jpg');
    execFileSync('ffmpeg', [
      '-loglevel',
      'error',
      '-y',
      '-f',
      'lavfi',
      '-i',
      'testsrc2=s=1024x768',
      '-frames:v',
      '1',
      photo,
    ]);
    const template = builtinTemplates().find((t) => t.id === TEMPLATE)!;
    const job: ProviderJob = jobFromTemplate(template, () => ({ path: photo, contentType: 'image/jpeg' }));
    const renderer = new LocalRenderer();

    let n = 0;
    const viaRenderer = async () => {
      const workDir = fs.mkdtempSync(path.join(root, `r${n++}-`));
      const ctx = { signal: new AbortController().signal, workDir, log, onProgress: () => undefined };
      const started = performance.now();
      const { externalId } = await renderer.submit(job, ctx);
      await renderer.follow(externalId, job, ctx);
      return performance.now() - started;
    };
    const bare = async () => {
      const workDir = fs.mkdtempSync(path.join(root, `b${n++}-`));
      const args = bareRenderArgs(job, workDir);
      const started = performance.now();
      await runBareFfmpeg(args);
      return performance.now() - started;
    };

    await bare(); // warm-up: page cache, shared libraries
    await viaRenderer();
    const rendererMs: number[] = [];
    const bareMs: number[] = [];
    for (let i = 0; i < ROUNDS; i++) {
      bareMs.push(await bare());
      rendererMs.push(await viaRenderer());
    }
    const ratios = rendererMs.map((ms, i) => ms / bareMs[i]!);
    const ratio = percentile(ratios, 50);
    return {
      template: TEMPLATE,
      duration_sec: job.durationSec,
      size: `${job.width}x${job.height}`,
      rounds: ROUNDS,
      renderer_ms_median: round(percentile(rendererMs, 50), 0),
      bare_ffmpeg_ms_median: round(percentile(bareMs, 50), 0),
      renderer_ms: rendererMs.map((m) => round(m, 0)),
      bare_ffmpeg_ms: bareMs.map((m) => round(m, 0)),
      round_ratios: ratios.map((r) => round(r)),
      ratio: round(ratio),
      realtime_factor: round(job.durationSec / (percentile(rendererMs, 50) / 1000)),
      target_ratio: 1.1,
      pass: ratio <= 1.1,
    };
  } finally {
    fs.rmSync(root, { recursive: true, force: true });
  }
}
