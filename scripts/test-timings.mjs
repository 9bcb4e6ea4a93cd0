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
export function summarize(report, { top = 30, slowestTests = 3, baseDir = root, cpu = new Map(), by = 'wall' } = {}) {
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
    const name = path.isAbsolute(file.name) ? path.relative(baseDir, file.name) : file.name;
    return {
      file: name,
      status: file.status,
      durationMs: Number.isFinite(span) && span > 0 ? span : 0,
      cpu: cpu.get(name) ?? null,
      testCount: tests.length,
      slowest: [...tests].sort((a, b) => b.durationMs - a.durationMs).slice(0, slowestTests),
    };
  });
  const cpuOf = (f) => f.cpu?.totalS ?? 0;
  files.sort(by === 'cpu' ? (a, b) => cpuOf(b) - cpuOf(a) : (a, b) => b.durationMs - a.durationMs);
  const measured = files.filter((f) => f.cpu);
  const ends = report.testResults.map((f) => Number(f.endTime)).filter(Number.isFinite);
  const wallMs = ends.length && Number.isFinite(report.startTime) ? Math.max(...ends) - report.startTime : null;
  return {
    files: files.slice(0, top),
    fileCount: files.length,
    testCount: files.reduce((n, f) => n + f.testCount, 0),
    failedFiles: files.filter((f) => f.status === 'failed').map((f) => f.file),
    sumMs: files.reduce((n, f) => n + f.durationMs, 0),
    cpu: measured.length
      ? {
          files: measured.length,
          totalS: measured.reduce((n, f) => n + f.cpu.totalS, 0),
          selfS: measured.reduce((n, f) => n + f.cpu.selfS, 0),
          // true when every file was measured as a whole process tree (cgroup), not as a lower bound
          whole: measured.every((f) => f.cpu.whole),
        }
      : null,
    wallMs: wallMs !== null && wallMs >= 0 ? wallMs : null,
  };
}

export const seconds = (ms) => `${(ms / 1000).toFixed(1)} s`;

/**
 * The CPU lines test/setup/cpu-meter.ts appended in `cpuDir` (one JSON object per file and run), as a map from the
 * file to its newest measurement taken since `since` (the report's start): older runs' lines are ignored.
 */
export function readCpu(cpuDir, since = 0) {
  const cpu = new Map();
  if (!fs.existsSync(cpuDir)) return cpu;
  for (const name of fs.readdirSync(cpuDir).filter((n) => n.endsWith('.jsonl'))) {
    for (const line of fs.readFileSync(path.join(cpuDir, name), 'utf8').split('\n')) {
      if (!line.trim()) continue;
      let row;
      try {
        row = JSON.parse(line);
      } catch {
        continue; // a line cut by a killed worker
      }
      if (!(row.at >= since) || (cpu.has(row.file) && cpu.get(row.file).at > row.at)) continue;
      const whole = typeof row.cgroupS === 'number';
      cpu.set(row.file, {
        totalS: whole ? row.cgroupS : row.selfS + row.childrenS,
        selfS: row.selfS,
        whole,
        at: row.at,
      });
    }
  }
  return cpu;
}

/** The summary as the lines the script prints. */
export function format(summary) {
  const lines = [`${summary.files.length} slowest of ${summary.fileCount} test files:`];
  summary.files.forEach((f, i) => {
    const mark = f.status === 'failed' ? '  FAILED' : '';
    const cpu = f.cpu
      ? `  [cpu ${f.cpu.whole ? '' : '>= '}${f.cpu.totalS.toFixed(1)} s, own process ${f.cpu.selfS.toFixed(1)} s]`
      : '';
    lines.push(
      `${String(i + 1).padStart(3)}. ${seconds(f.durationMs).padStart(8)}  ${f.file} (${f.testCount} test${f.testCount === 1 ? '' : 's'})${mark}${cpu}`,
    );
    for (const t of f.slowest) lines.push(`${' '.repeat(15)}${seconds(t.durationMs).padStart(8)}  ${t.name}`);
  });
  lines.push(
    `total: ${summary.fileCount} files, ${summary.testCount} tests; files' own time added up ${seconds(summary.sumMs)}` +
      (summary.wallMs !== null ? `; wall time of the run ${seconds(summary.wallMs)}` : ''),
  );
  if (summary.cpu) {
    const total = summary.cpu.totalS;
    const how = summary.cpu.whole
      ? 'each file with everything it started (cgroup)'
      : 'own and reaped children only, a lower bound: Chromium renderers are missed';
    lines.push(
      `cpu: ${total.toFixed(0)} s in ${summary.cpu.files} files (${how}; the files' own processes ${summary.cpu.selfS.toFixed(0)} s)` +
        (summary.wallMs
          ? `, ${(total / (summary.wallMs / 1000)).toFixed(2)} cores busy on average over the wall time`
          : ''),
    );
  }
  if (summary.failedFiles.length) lines.push(`failed files: ${summary.failedFiles.join(', ')}`);
  return `${lines.join('\n')}\n`;
}

/** argv (after the script) -> { file, top }; throws a usage error on anything else. */
export function parseArgs(argv) {
  let file = DEFAULT_REPORT;
  let top = 30;
  let by = 'wall';
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === '--by') {
      by = argv[++i];
      if (by !== 'wall' && by !== 'cpu') throw new Error('--by takes wall or cpu');
    } else if (argv[i] === '--top') {
      top = Number(argv[++i]);
      if (!Number.isInteger(top) || top < 1) throw new Error('--top needs a whole number of files, 1 or more');
    } else if (argv[i].startsWith('-')) throw new Error(`unknown option ${argv[i]}`);
    else file = argv[i];
  }
  return { file, top, by };
}

function main() {
  let args;
  try {
    args = parseArgs(process.argv.slice(2));
  } catch (err) {
    process.stderr.write(
      `${err.message}\nusage: node scripts/test-timings.mjs [REPORT.json] [--top N] [--by wall|cpu]\n`,
    );
    process.exit(2);
  }
  const file = path.resolve(process.cwd(), args.file);
  if (!fs.existsSync(file)) {
    process.stderr.write(`${file} does not exist: run npm test or npm run test:quick first (they write it)\n`);
    process.exit(1);
  }
  const report = JSON.parse(fs.readFileSync(file, 'utf8'));
  const cpu = readCpu(path.join(path.dirname(file), 'cpu'), Number(report.startTime) || 0);
  process.stdout.write(format(summarize(report, { top: args.top, by: args.by, cpu })));
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) main();
