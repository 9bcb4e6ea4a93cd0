import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { builtinTemplates, jobFromTemplate } from '../test/helpers/render-jobs.js';
import { startTestServer } from '../test/helpers/test-server.js';
import { bareRenderArgs, runBareFfmpeg } from './lib/ffmpeg.js';
import { round } from './lib/stats.js';

const TEMPLATE = 'text-to-video-cinematic'; // at 5 s (an org copy), 720p
const RENDERS = 20;
const PER_REQUEST = 4; // num_videos at most
const ROUNDS = 1;

/**
 * A batch of 20 local renders through the API (5 generate requests of 4 videos, sent at once; the render lane's
 * default concurrency on this machine) against 20 runs of the bare ffmpeg command with the same filtergraph back
 * to back, in the same run: what the queue, job bookkeeping, probing, storing results and thumbnails add over
 * a whole batch. Text only, so both sides render the same scene. Ratio: total queued time / total bare time. Target <= 1.1x.
 */
export async function runRenderBatchBench(): Promise<Record<string, unknown>> {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'agent-studio-batch-bench-'));
  const s = await startTestServer(
    {
      dataDir: path.join(root, 'data'),
      jobs: { renderConcurrency: Math.max(1, Math.floor(os.availableParallelism() / 2)) },
      log: { level: 'warn' },
    },
    { credits: 1_000_000 },
  );
  try {
    const template = builtinTemplates().find((t) => t.id === TEMPLATE)!;
    const five = { ...template, duration_sec: 5 };
    const job = jobFromTemplate(five, () => null);
    const created = await s.request('/api/templates', {
      method: 'POST',
      json: {
        title: 'Batch bench (5 s)',
        category: 'text-to-video',
        duration_sec: 5,
        input_variables: template.input_variables,
        prompt_template: template.prompt_template,
      },
    });
    const templateId = ((await created.json()) as { id: string }).id;
    const scene = job.texts.scene!;
    let n = 0;
    const bare = async () => {
      const started = performance.now();
      for (let i = 0; i < RENDERS; i++)
        await runBareFfmpeg(bareRenderArgs(job, fs.mkdtempSync(path.join(root, `b${n++}-`))));
      return performance.now() - started;
    };
    const queued = async () => {
      const started = performance.now();
      const finished: string[] = [];
      let expected = RENDERS;
      const done = new Promise<void>((resolve) => {
        const off = s.core.events.on('generation.status', (e) => {
          if (e.status === 'generating') return;
          finished.push(e.status);
          if (finished.length === expected) {
            off();
            resolve();
          }
        });
      });
      const answers = await Promise.all(
        Array.from({ length: RENDERS / PER_REQUEST }, () =>
          s.request(`/api/templates/${templateId}/generate`, {
            method: 'POST',
            json: { variables: { scene }, num_videos: PER_REQUEST },
          }),
        ),
      );
      for (const res of answers) {
        if (res.status !== 200) {
          expected -= PER_REQUEST;
          throw new Error(`generate answered ${res.status}: ${await res.text()}`);
        }
      }
      await done;
      if (finished.some((st) => st !== 'completed')) throw new Error(`not all completed: ${finished.join(',')}`);
      return performance.now() - started;
    };

    await runBareFfmpeg(bareRenderArgs(job, fs.mkdtempSync(path.join(root, 'warm-')))); // warm-up
    const bareMs: number[] = [];
    const queuedMs: number[] = [];
    // ABBA order per round (bare, queued, queued, bare): a load that rises or falls during the run weighs on
    // both sides alike.
    for (let i = 0; i < ROUNDS; i++) {
      bareMs.push(await bare());
      queuedMs.push(await queued());
      queuedMs.push(await queued());
      bareMs.push(await bare());
    }
    const ratios = Array.from({ length: ROUNDS }, (_, i) => {
      const q = queuedMs[2 * i]! + queuedMs[2 * i + 1]!;
      return q / (bareMs[2 * i]! + bareMs[2 * i + 1]!);
    });
    const ratio = queuedMs.reduce((a, b) => a + b, 0) / bareMs.reduce((a, b) => a + b, 0);
    return {
      template: TEMPLATE,
      duration_sec: 5,
      size: `${job.width}x${job.height}`,
      renders: RENDERS,
      queued_ms: queuedMs.map((m) => round(m, 0)),
      bare_back_to_back_ms: bareMs.map((m) => round(m, 0)),
      round_ratios: ratios.map((r) => round(r)),
      ratio: round(ratio),
      load_average_1m: round(os.loadavg()[0]!),
      target_ratio: 1.1,
      pass: ratio <= 1.1,
    };
  } finally {
    await s.close();
    fs.rmSync(root, { recursive: true, force: true });
  }
}
