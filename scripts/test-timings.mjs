#!/usr/bin/env node
// Where the test run's time goes: reads vitest's JSON report (written by `npm test` and `npm run test:quick` to
// test-results/vitest-report.json) and prints the slowest files, each with its slowest tests, and the total.
//   node scripts/test-timings.mjs [REPORT.json] [--top N]
// A file's duration is what the JSON report can tell: from its first test's start to its last test's end. Module
// imports and a beforeAll that runs before the first test are not in it, so the run's wall time (the total) is
// more than the files' sum divided by the workers.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const DEFAULT_REPORT = path.join('test-results', 'vitest-report.json');

/**
 * The report's files, slowest first (top N), with their tests slowest first (slowestTests of them), plus the run's
 * totals. `report` is the parsed JSON of vitest's `json` reporter.
 */
export function summarize(report, { top = 30, slowestTests = 3, baseDir = root } = {}) {
  if (!report || !Array.isArray(report.testResults)) {
    throw new Error('not a vitest JSON report (no testResults array): was it written by --reporter=json?');
  }
  const files = report.testResults.map((file) => {
    const tests = (file.assertionResults ?? []).map((t) => ({
      name: t.fullName || t.title || '(unnamed)',
      status: t.status,
      durationMs: typeof t.duration === 'number' ? t.duration : 0,
    }));
    const span = Number(file.endTime) - Number(file.startTime);
    return {
      file: path.isAbsolute(file.name) ? path.relative(baseDir, file.name) : file.name,
      status: file.status,
      durationMs: Number.isFinite(span) && span > 0 ? span : 0,
      testCount: tests.length,
      slowest: [...tests].sort((a, b) => b.durationMs - a.durationMs).slice(0, slowestTests),
    };
  });
  files.sort((a, b) => b.durationMs - a.durationMs);
  const ends = report.testResults.map((f) => Number(f.endTime)).filter(Number.isFinite);
  const wallMs = ends.length && Number.isFinite(report.startTime) ? Math.max(...ends) - report.startTime : null;
  return {
    files: files.slice(0, top),
    fileCount: files.length,
    testCount: files.reduce((n, f) => n + f.testCount, 0),
    failedFiles: files.filter((f) => f.status === 'failed').map((f) => f.file),
    sumMs: files.reduce((n, f) => n + f.durationMs, 0),
    wallMs: wallMs !== null && wallMs >= 0 ? wallMs : null,
  };
}

export const seconds = (ms) => `${(ms / 1000).toFixed(1)} s`;

/** The summary as the lines the script prints. */
export function format(summary) {
  const lines = [`${summary.files.length} slowest of ${summary.fileCount} test files:`];
  summary.files.forEach((f, i) => {
    const mark = f.status === 'failed' ? '  FAILED' : '';
    lines.push(
      `${String(i + 1).padStart(3)}. ${seconds(f.durationMs).padStart(8)}  ${f.file} (${f.testCount} test${f.testCount === 1 ? '' : 's'})${mark}`,
    );
    for (const t of f.slowest) lines.push(`${' '.repeat(15)}${seconds(t.durationMs).padStart(8)}  ${t.name}`);
  });
  lines.push(
    `total: ${summary.fileCount} files, ${summary.testCount} tests; files' own time added up ${seconds(summary.sumMs)}` +
      (summary.wallMs !== null ? `; wall time of the run ${seconds(summary.wallMs)}` : ''),
  );
  if (summary.failedFiles.length) lines.push(`failed files: ${summary.failedFiles.join(', ')}`);
  return `${lines.join('\n')}\n`;
}

/** argv (after the script) -> { file, top }; throws a usage error on anything else. */
export function parseArgs(argv) {
  let file = DEFAULT_REPORT;
  let top = 30;
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === '--top') {
      top = Number(argv[++i]);
      if (!Number.isInteger(top) || top < 1) throw new Error('--top needs a whole number of files, 1 or more');
    } else if (argv[i].startsWith('-')) throw new Error(`unknown option ${argv[i]}`);
    else file = argv[i];
  }
  return { file, top };
}

function main() {
  let args;
  try {
    args = parseArgs(process.argv.slice(2));
  } catch (err) {
    process.stderr.write(`${err.message}\nusage: node scripts/test-timings.mjs [REPORT.json] [--top N]\n`);
    process.exit(2);
  }
  const file = path.resolve(process.cwd(), args.file);
  if (!fs.existsSync(file)) {
    process.stderr.write(`${file} does not exist: run npm test or npm run test:quick first (they write it)\n`);
    process.exit(1);
  }
  process.stdout.write(format(summarize(JSON.parse(fs.readFileSync(file, 'utf8')), { top: args.top })));
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) main();
