import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createLogger } from '../src/main/core/logger.js';
import { LocalRenderer } from '../src/main/core/video/pipeline/renderers/ffmpeg/local-renderer.js';
import { draftSize } from '../src/main/core/video/pipeline/resolutions.js';
import type { ProviderJob } from '../src/main/core/video/pipeline/video-provider.js';
import { builtinTemplates, jobFromTemplate } from '../test/helpers/render-jobs.js';
import { startTestServer } from '../test/helpers/test-server.js';
import { percentile, round } from './lib/stats.js';

const ROUNDS = 7;
const TEMPLATE = 'text-to-video-cinematic';
const DURATION_SEC = 5;
const TARGET_MS = 1500;
const SCENE = 'A lighthouse on a cliff at dusk, waves crashing below';

/**
 * The preview a template editor shows: a draft of a 5 s template (360p, 12 fps, ultrafast), measured two ways:
 * the local renderer alone (LocalRenderer.follow: probe, caption files, ffmpeg), and the whole path through the
 * API (POST generate with `draft: true` until the generation is completed: validation, the queue, the render,
 * storing video and thumbnail). Target: ready in <= 1.5 s on this 2-core machine.
 */
export async function runDraftPreviewBench(): Promise<Record<string, unknown>> {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'agent-studio-draft-bench-'));
  const log = createLogger(root, 'silent').log;
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
    const job: ProviderJob = {
      ...jobFromTemplate({ ...template, duration_sec: DURATION_SEC }, () => null),
      ...draftSize('16:9'),
      draft: true,
    };
    const renderer = new LocalRenderer();
    let n = 0;
    const viaRenderer = async () => {
      const workDir = fs.mkdtempSync(path.join(root, `r${n++}-`));
      const ctx = { signal: new AbortController().signal, workDir, log, onProgress: () => undefined };
      const started = performance.now();
      await renderer.follow((await renderer.submit(job, ctx)).externalId, job, ctx);
      return performance.now() - started;
    };

    // A 5 s org template (the built-in one is 8 s), so the API path renders exactly what the renderer-only one does.
    const created = await s.request('/api/templates', {
      method: 'POST',
      json: {
        title: 'Draft bench (5 s)',
        category: 'text-to-video',
        duration_sec: DURATION_SEC,
        input_variables: template.input_variables,
        prompt_template: template.prompt_template,
      },
    });
    if (created.status !== 200 && created.status !== 201) throw new Error(`template create: ${created.status}`);
    const templateId = ((await created.json()) as { id: string }).id;
    const viaApi = async () => {
      const started = performance.now();
      let id = '';
      const done = new Promise<string>((resolve) => {
        const off = s.core.events.on('generation.status', (e) => {
          if (e.generationId !== id || e.status === 'generating') return;
          off();
          resolve(e.status);
        });
      });
      const res = await s.request(`/api/templates/${templateId}/generate`, {
        method: 'POST',
        json: { variables: { scene: `${SCENE} ${n++}` }, draft: true },
      });
      if (res.status !== 200) throw new Error(`draft generate answered ${res.status}: ${await res.text()}`);
      id = ((await res.json()) as { generations: { generation_id: string }[] }).generations[0]!.generation_id;
      const status = await done;
      if (status !== 'completed') throw new Error(`draft ended ${status}`);
      return performance.now() - started;
    };

    await viaRenderer(); // warm-up: page cache, shared libraries
    await viaApi();
    const rendererMs: number[] = [];
    const apiMs: number[] = [];
    for (let i = 0; i < ROUNDS; i++) {
      rendererMs.push(await viaRenderer());
      apiMs.push(await viaApi());
    }
    const apiMedian = percentile(apiMs, 50);
    return {
      template: TEMPLATE,
      duration_sec: DURATION_SEC,
      size: `${job.width}x${job.height}`,
      fps: 12,
      rounds: ROUNDS,
      renderer_ms_median: round(percentile(rendererMs, 50), 0),
      renderer_ms: rendererMs.map((m) => round(m, 0)),
      api_ms_median: round(apiMedian, 0),
      api_ms_p90: round(percentile(apiMs, 90), 0),
      api_ms: apiMs.map((m) => round(m, 0)),
      target_ms: TARGET_MS,
      pass: apiMedian <= TARGET_MS,
    };
  } finally {
    await s.close();
    fs.rmSync(root, { recursive: true, force: true });
  }
}
