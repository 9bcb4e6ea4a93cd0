#!/usr/bin/env node
// The edit-test loop (docs/testing.md#the-edit-test-loop), run after bootstrap like `npm test`:
//   quick [VITEST_ARGS...]  the unit tests and the fast integration files (vitest.quick.config.ts), no static steps
//   repeat FILE N           one test file N times, each in a fresh process (and a fresh keyring), until one fails
// On Linux every vitest run is inside scripts/with-keyring.sh, as in `npm test`, so keychain suites run too.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { binCommand } from './bin-path.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const REPORT = path.join('test-results', 'vitest-report.json');
const USAGE = 'usage: npm run test:quick [-- VITEST_ARGS...] | npm run test:repeat -- FILE N';

/** `repeat`'s arguments, FILE then N; anything else is a usage error, so a typo does not run the wrong thing. */
export function parseRepeatArgs(argv) {
  if (argv.length !== 2)
    throw new Error(`test:repeat takes a test file and a number of runs, got ${argv.length} arguments`);
  const [file, count] = argv;
  if (!/^\d+$/.test(count) || Number(count) < 1)
    throw new Error(`the number of runs must be a whole number >= 1, not "${count}"`);
  if (!/\.test\.tsx?$/.test(file)) throw new Error(`"${file}" is not a test file (*.test.ts)`);
  return { file, runs: Number(count) };
}

/**
 * The command that runs vitest with `args`: its JS entry under this Node (scripts/bin-path.mjs: no .cmd shim on
 * Windows), inside a throwaway keyring on Linux.
 */
export function vitestCommand(args, platform = process.platform) {
  const { command, args: entry } = binCommand('vitest', { platform });
  const vitest = [command, ...entry, 'run', ...args];
  return platform === 'linux' ? [path.join(root, 'scripts', 'with-keyring.sh'), ...vitest] : vitest;
}

function run(args) {
  const [cmd, ...rest] = vitestCommand(args);
  const res = spawnSync(cmd, rest, {
    cwd: root,
    stdio: 'inherit',
    env: { ...process.env, ELECTRON_SKIP_BINARY_DOWNLOAD: '1' },
  });
  return res.status ?? 1;
}

function quick(extra) {
  const started = Date.now();
  const status = run([
    '--config',
    'vitest.quick.config.ts',
    '--reporter=default',
    '--reporter=json',
    `--outputFile.json=${REPORT}`,
    ...extra,
  ]);
  process.stdout.write(
    `\ntest:quick ${status === 0 ? 'passed' : 'FAILED'} in ${((Date.now() - started) / 1000).toFixed(1)} s ` +
      `(slowest files: node scripts/test-timings.mjs)\n`,
  );
  process.exit(status);
}

function repeat(argv) {
  let file, runs;
  try {
    ({ file, runs } = parseRepeatArgs(argv));
  } catch (err) {
    process.stderr.write(`${err.message}\n${USAGE}\n`);
    process.exit(2);
  }
  if (!fs.existsSync(path.resolve(root, file))) {
    process.stderr.write(`${file} does not exist (paths are from the repository's root)\n`);
    process.exit(2);
  }
  for (let i = 1; i <= runs; i++) {
    process.stdout.write(`\n=== run ${i} of ${runs}: ${file} ===\n`);
    const status = run([file]);
    if (status !== 0) {
      process.stdout.write(`\n${i - 1} of ${runs} runs passed; run ${i} failed (exit ${status})\n`);
      process.exit(1);
    }
  }
  process.stdout.write(`\n${runs} of ${runs} runs passed\n`);
}

function main() {
  const [command, ...rest] = process.argv.slice(2);
  if (command === 'quick') quick(rest);
  else if (command === 'repeat') repeat(rest);
  else {
    process.stderr.write(`${USAGE}\n`);
    process.exit(2);
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) main();
