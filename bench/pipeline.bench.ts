import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { builtinTemplates, jobFromTemplate } from '../test/helpers/render-jobs.js';
import { startTestServer } from '../test/helpers/test-server.js';
import { bareRenderArgs, runBareFfmpeg } from './lib/ffmpeg.js';
import { percentile, round } from './lib/stats.js';

const TEMPLATE = 'text-to-video-cinematic'; // 8 s at 720p
const QUEUED = 4;
const ROUNDS = 3;

/**
 * (b) 4 renders queued through the API at once (default concurrency on this machine) against 4 runs of
 * the bare ffmpeg command with the same filtergraph back to back, same run. Measures what the queue,
 * the job bookkeeping, storing results and thumbnails add to the renders themselves. Target <= 1.1x.
 */
export async function runPipelineBench(): Promise<Record<string, unknown>> {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'agent-studio-pipeline-bench-'));
  const s = await startTestServer(
    {
      dataDir: path.join(root, 'data'),
      jobs: { renderConcurrency: Math.max(1, Math.floor(os.availableParallelism() / 2)) },
      log: { level: 'warn' },
    },
    { credits: 100_000 },
  );
  try {
    const template = builtinTemplates().find((t) => t.id === TEMPLATE)!;
    const job = jobFromTemplate(template, () => null);
    let n = 0;
    const bareOnce = async () => {
      const workDir = fs.mkdtempSync(path.join(root, `b${n++}-`));
      const args = bareRenderArgs(job, workDir);
      await runBareFfmpeg(args);
    };
    const bare = async () => {
      const started = performance.now();
      for (let i = 0; i < QUEUED; i++) await bareOnce();
      return performance.now() - started;
    };
    const queued = async () => {
      const started = performance.now();
      const pending = new Set<string>();
      const done = new Promise<void>((resolve) => {
        const off = s.core.events.on('generation.status', (e) => {
          if (!pending.delete(e.generationId) || pending.size) return;
          off();
          resolve();
        });
      });
      const res = await s.request(`/api/templates/${TEMPLATE}/generate`, {
        method: 'POST',
        json: { variables: { scene: 'A lighthouse on a cliff at dusk, waves crashing below' }, num_videos: QUEUED },
      });
      const body = (await res.json()) as { generations: { generation_id: string }[] };
      for (const g of body.generations) pending.add(g.generation_id);
      await done;
      return performance.now() - started;
    };

    await bareOnce(); // warm-up
    const bareMs: number[] = [];
    const queuedMs: number[] = [];
    for (let i = 0; i < ROUNDS; i++) {
      bareMs.push(await bare());
      queuedMs.push(await queued());
    }
    const ratios = queuedMs.map((ms, i) => ms / bareMs[i]!);
    const ratio = percentile(ratios, 50);
    return {
      template: TEMPLATE,
      renders: QUEUED,
      queued_ms: queuedMs.map((m) => round(m, 0)),
      bare_back_to_back_ms: bareMs.map((m) => round(m, 0)),
      round_ratios: ratios.map((r) => round(r)),
      ratio: round(ratio),
      target_ratio: 1.1,
      pass: ratio <= 1.1,
    };
  } finally {
    await s.close();
    fs.rmSync(root, { recursive: true, force: true });
  }
}
