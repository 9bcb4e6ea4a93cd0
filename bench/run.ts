// `npm run bench`: runs every benchmark and writes bench/results/<name>.json and latest.json.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { runLoginBench } from './login.bench.js';

type Bench = [name: string, run: () => Promise<Record<string, unknown>>];

async function optional(file: string, exportName: string): Promise<Bench | null> {
  const full = path.join(import.meta.dirname, file);
  if (!fs.existsSync(full)) return null;
  const mod = (await import(full)) as Record<string, () => Promise<Record<string, unknown>>>;
  return [path.basename(file, '.bench.ts'), mod[exportName]];
}

async function main() {
  const only = process.argv.slice(2);
  const benches: Bench[] = [['login', runLoginBench]];
  for (const extra of [
    await optional('uploads.bench.ts', 'runUploadsBench'),
    await optional('templates.bench.ts', 'runTemplatesBench'),
    await optional('render.bench.ts', 'runRenderBench'),
    await optional('pipeline.bench.ts', 'runPipelineBench'),
    await optional('webhooks.bench.ts', 'runWebhooksBench'),
    await optional('login-realweb.bench.ts', 'runRealWebLoginBench'),
    await optional('vault.bench.ts', 'runVaultBench'),
    await optional('vault-import.bench.ts', 'runVaultImportBench'),
    await optional('takeover.bench.ts', 'runTakeoverBench'),
    await optional('cached-path.bench.ts', 'runCachedPathBench'),
    await optional('mixed-load.bench.ts', 'runMixedLoadBench'),
    await optional('draft-preview.bench.ts', 'runDraftPreviewBench'),
    await optional('render-batch.bench.ts', 'runRenderBatchBench'),
    await optional('backup.bench.ts', 'runBackupBench'),
  ])
    if (extra) benches.push(extra);
  const outDir = path.join(import.meta.dirname, 'results');
  fs.mkdirSync(outDir, { recursive: true });
  const latestFile = path.join(outDir, 'latest.json');
  // A partial run (`npm run bench -- login`) updates its entries and keeps the others.
  const previous =
    only.length && fs.existsSync(latestFile)
      ? (JSON.parse(fs.readFileSync(latestFile, 'utf8')) as Record<string, unknown>)
      : {};
  const all: Record<string, unknown> = {
    ...previous,
    date: new Date().toISOString(),
    machine: {
      cpus: os.cpus().length,
      cpu: os.cpus()[0]?.model,
      memory_gb: Math.round(os.totalmem() / 2 ** 30),
      node: process.version,
    },
  };
  for (const [name, run] of benches) {
    if (only.length && !only.includes(name)) continue;
    process.stdout.write(`\n== ${name} ==\n`);
    const started = Date.now();
    try {
      const result = await run();
      all[name] = result;
      fs.writeFileSync(
        path.join(outDir, `${name}.json`),
        `${JSON.stringify({ date: all.date, machine: all.machine, ...result }, null, 2)}\n`,
      );
      process.stdout.write(`${JSON.stringify(result, null, 2)}\n(${((Date.now() - started) / 1000).toFixed(1)} s)\n`);
    } catch (err) {
      all[name] = { error: (err as Error).message };
      process.stdout.write(`FAILED: ${(err as Error).stack}\n`);
      process.exitCode = 1;
    }
  }
  fs.writeFileSync(latestFile, `${JSON.stringify(all, null, 2)}\n`);
}

void main();
