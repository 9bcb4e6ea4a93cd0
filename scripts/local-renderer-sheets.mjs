#!/usr/bin/env node
// Frame sheets of the local renderer: every built-in template in every aspect ratio rendered as a draft (what a new
// user sees first) with the sample values of scripts/local-renderer/samples.mjs, and its start, middle and end frames
// side by side in docs/images/local-renderer/<template>-<ratio>.png (docs/video-service.md#layout-roles-what-the-local-renderer-makes shows them).
// Run after changing the renderer or a built-in template, and look at the sheets:
//   node --import tsx scripts/local-renderer-sheets.mjs [template-id ...]
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { makeSampleMedia, sampleMediaFor, SAMPLE_TEXTS } from './local-renderer/samples.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const { LocalRenderer } = await import('../src/main/core/video/pipeline/renderers/ffmpeg/local-renderer.ts');
const { draftSize } = await import('../src/main/core/video/pipeline/resolutions.ts');
const { renderPrompt } = await import('../src/main/core/video/templates/template-validation.ts');
const { roleOf } = await import('../src/shared/variable-roles.ts');
const { ASPECT_RATIOS } = await import('../src/shared/video.schema.ts');
const { PRICING_TABLE } = await import('../src/main/core/video/pricing.ts');

const OUT = path.join(root, 'docs/images/local-renderer');
/** The sheet's frame height per ratio: three frames side by side stay under ~1000 px wide and 150 KB. */
const SHEET_HEIGHT = { '16:9': 180, '9:16': 320, '1:1': 220, '4:5': 250 };

/** The job the pipeline would build for a draft of template `t` in `aspectRatio` with the sample values. */
export function sampleJob(t, aspectRatio, files) {
  const texts = {};
  const roles = {};
  const media = [];
  for (const v of t.input_variables) {
    roles[v.key] = roleOf(v);
    if (v.type === 'text') {
      texts[v.key] = SAMPLE_TEXTS[t.id]?.[v.key] ?? v.default_value ?? v.placeholder ?? '';
      continue;
    }
    const file = sampleMediaFor(v, files, path.join(root, 'resources/characters'));
    if (file) media.push({ key: v.key, kind: v.type, ...(v.slot ? { slot: v.slot } : {}), ...file });
  }
  return {
    generationId: `sheet_${t.id}`,
    orgId: 'org_docs',
    category: t.category,
    model: t.model,
    ...draftSize(aspectRatio),
    aspectRatio,
    draft: true,
    durationSec: t.duration_sec ?? PRICING_TABLE[t.model].default_duration_sec,
    prompt: renderPrompt(t.prompt_template, texts),
    texts,
    roles,
    media,
    options: { name: 'local' },
  };
}

async function main() {
  const only = process.argv.slice(2);
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'local-renderer-sheets-'));
  const files = makeSampleMedia(path.join(work, 'media'));
  const templates = fs
    .readdirSync(path.join(root, 'resources/templates'))
    .filter((f) => f.endsWith('.json'))
    .sort()
    .map((f) => JSON.parse(fs.readFileSync(path.join(root, 'resources/templates', f), 'utf8')))
    .filter((t) => only.length === 0 || only.includes(t.id));
  fs.mkdirSync(OUT, { recursive: true });
  const renderer = new LocalRenderer({ fontsDir: path.join(root, 'resources/fonts') });
  const log = { info() {}, warn() {}, error() {}, debug() {} };
  for (const t of templates) {
    for (const ratio of ASPECT_RATIOS) {
      const job = sampleJob(t, ratio, files);
      const workDir = fs.mkdtempSync(path.join(work, 'r-'));
      const ctx = { signal: new AbortController().signal, workDir, log, onProgress() {} };
      const started = Date.now();
      const { externalId } = await renderer.submit(job, ctx);
      const { videoPath } = await renderer.follow(externalId, job, ctx);
      const ms = Date.now() - started;
      const at = [0.12, 0.5, 0.92].map((p) => (job.durationSec * p).toFixed(2));
      const h = SHEET_HEIGHT[ratio];
      const sheet = path.join(OUT, `${t.id}-${ratio.replace(':', 'x')}.png`);
      execFileSync('ffmpeg', [
        ...['-loglevel', 'error', '-y'],
        ...at.flatMap((s) => ['-ss', s, '-i', videoPath]),
        '-filter_complex',
        `${at.map((_, i) => `[${i}:v]scale=-2:${h},pad=iw+8:ih:4:0:white,trim=end_frame=1[f${i}]`).join(';')};` +
          `${at.map((_, i) => `[f${i}]`).join('')}hstack=inputs=3`,
        ...['-frames:v', '1', '-pred', 'mixed', sheet],
      ]);
      console.log(
        `${path.relative(root, sheet)}  ${(fs.statSync(sheet).size / 1024).toFixed(0)} KB  (render ${ms} ms)`,
      );
    }
  }
  fs.rmSync(work, { recursive: true, force: true });
}

if (process.argv[1] && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) await main();
