#!/usr/bin/env node
// `npm test` after bootstrap: format -> lint (incl. layer rules) -> import cycles -> type-check -> builds (electron-vite, client package) -> vitest.
// vitest runs last so the run ends with its summary. On Linux it runs inside a throwaway keyring.
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { binCommand } from './bin-path.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const extra = process.argv.slice(2);

/** An installed tool with its arguments, as [command, ...args] (scripts/bin-path.mjs: no .cmd shim on Windows). */
const tool = (name, args) => {
  const { command, args: entry } = binCommand(name);
  return [command, ...entry, ...args];
};

function step(title, [cmd, ...args]) {
  process.stdout.write(`\n=== ${title} ===\n`);
  const started = Date.now();
  const res = spawnSync(cmd, args, {
    cwd: root,
    stdio: 'inherit',
    env: { ...process.env, ELECTRON_SKIP_BINARY_DOWNLOAD: '1' },
  });
  if (res.status !== 0) {
    process.stdout.write(`\n${title} failed (exit ${res.status ?? res.signal})\n`);
    process.exit(res.status ?? 1);
  }
  process.stdout.write(`(${title}: ${((Date.now() - started) / 1000).toFixed(1)} s)\n`);
}

if (!process.env.AGENT_STUDIO_SKIP_STATIC) {
  step('format (prettier --check)', tool('prettier', ['--check', '--log-level', 'warn', '.']));
  step('lint (eslint + layer rules)', tool('eslint', ['.']));
  step('import cycles (src/, type imports included)', [process.execPath, 'scripts/check-cycles.mjs']);
  step('electron security scan (electronegativity, offline)', [process.execPath, 'scripts/electron-scan.mjs']);
  step('type-check (main, preload, shared, tests)', tool('tsc', ['-p', 'tsconfig.json', '--noEmit']));
  step('type-check (renderer)', tool('tsc', ['-p', 'tsconfig.web.json', '--noEmit']));
  step('build (electron-vite: main, preload, renderer)', tool('electron-vite', ['build']));
  step('build (typed client package: esbuild + tsc -> clients/typescript/dist)', [
    process.execPath,
    'scripts/build-client.mjs',
  ]);
}
// The JSON report (test-results/ is git-ignored) feeds `node scripts/test-timings.mjs`: the slowest files and tests.
const vitest = tool('vitest', [
  'run',
  '--reporter=default',
  '--reporter=json',
  '--outputFile.json=test-results/vitest-report.json',
  ...extra,
]);
if (process.platform === 'linux')
  step('tests (vitest, in a throwaway keyring)', [path.join(root, 'scripts', 'with-keyring.sh'), ...vitest]);
else step('tests (vitest)', vitest);
