// scripts/test-timings.mjs on a small vitest JSON report built here (the shape vitest's `json` reporter writes),
// and the script itself on that report written to a temp file.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { format, parseArgs, readCpu, summarize } from '../../../scripts/test-timings.mjs';
import { REPO_ROOT } from '../../helpers/repo-root.js';
import { tempDir } from '../../helpers/temp-dir.js';

const dirs: string[] = [];
afterAll(() => dirs.forEach((d) => fs.rmSync(d, { recursive: true, force: true })));

const test = (fullName: string, duration: number | undefined, status = 'passed') => ({
  ancestorTitles: [],
  fullName,
  title: fullName,
  status,
  duration,
  failureMessages: [],
});

/** Three files over a 40 s run: a slow one with a failure, a fast one, and one whose tests were all skipped. */
const REPORT = {
  numTotalTests: 6,
  startTime: 1_000_000,
  success: false,
  testResults: [
    {
      name: path.join(REPO_ROOT, 'test/unit/fast.test.ts'),
      startTime: 1_001_000,
      endTime: 1_001_250,
      status: 'passed',
      assertionResults: [test('fast a', 200), test('fast b', 50)],
    },
    {
      name: path.join(REPO_ROOT, 'test/integration/slow.test.ts'),
      startTime: 1_002_000,
      endTime: 1_040_000,
      status: 'failed',
      assertionResults: [test('slow small', 1_000), test('slow big', 30_000, 'failed'), test('slow mid', 7_000)],
    },
    {
      name: 'test/e2e/skipped.test.ts',
      startTime: 1_000_000,
      endTime: 1_000_000,
      status: 'passed',
      assertionResults: [test('never ran', undefined, 'skipped')],
    },
  ],
};

describe('test-timings', () => {
  it('sorts files by duration, their tests by duration, and adds up the run', () => {
    const s = summarize(REPORT, { top: 2, slowestTests: 2 });
    expect(s.files.map((f) => [f.file, f.durationMs, f.testCount])).toEqual([
      ['test/integration/slow.test.ts', 38_000, 3],
      ['test/unit/fast.test.ts', 250, 2],
    ]);
    expect(s.files[0].slowest.map((t) => [t.name, t.durationMs])).toEqual([
      ['slow big', 30_000],
      ['slow mid', 7_000],
    ]);
    expect(s).toMatchObject({ fileCount: 3, testCount: 6, sumMs: 38_250, wallMs: 40_000 });
    expect(s.failedFiles).toEqual(['test/integration/slow.test.ts']);
  });

  it('a skipped test counts as 0 ms; a file with no test time is 0 s', () => {
    const s = summarize(REPORT);
    const skipped = s.files.find((f) => f.file === 'test/e2e/skipped.test.ts');
    expect(skipped).toMatchObject({ durationMs: 0, slowest: [{ name: 'never ran', durationMs: 0 }] });
  });

  it('prints ranks, seconds, the slowest tests, the total and the failed files', () => {
    const text = format(summarize(REPORT, { top: 30 }));
    expect(text).toMatch(/^3 slowest of 3 test files:/);
    expect(text).toMatch(/ {2}1\. {3}38\.0 s {2}test\/integration\/slow\.test\.ts \(3 tests\) {2}FAILED/);
    expect(text).toMatch(/30\.0 s {2}slow big/);
    expect(text).toMatch(/skipped\.test\.ts \(1 test\)\n/);
    expect(text).toMatch(/total: 3 files, 6 tests; files' own time added up 38\.3 s; wall time of the run 40\.0 s/);
    expect(text).toMatch(/failed files: test\/integration\/slow\.test\.ts/);
  });

  it('refuses what is not a vitest JSON report', () => {
    expect(() => summarize({ hello: 1 })).toThrow(/not a vitest JSON report/);
  });

  it('arguments: the report path, --top and --by', () => {
    expect(parseArgs([])).toEqual({ file: path.join('test-results', 'vitest-report.json'), top: 30, by: 'wall' });
    expect(parseArgs(['r.json', '--top', '5', '--by', 'cpu'])).toEqual({ file: 'r.json', top: 5, by: 'cpu' });
    expect(() => parseArgs(['--by', 'memory'])).toThrow(/wall or cpu/);
    expect(() => parseArgs(['--top', 'x'])).toThrow(/whole number/);
    expect(() => parseArgs(['--slow'])).toThrow(/unknown option/);
  });

  /**
   * cpu-meter lines: fast.test.ts measured in an older run and in this one (rusage only: no cgroup), slow.test.ts in
   * this one with a cgroup; a line cut by a killed worker.
   */
  function writeCpu(dir: string): void {
    const cpuDir = path.join(dir, 'cpu');
    fs.mkdirSync(cpuDir);
    const row = (file: string, selfS: number, childrenS: number, cgroupS: number | null, at: number) =>
      JSON.stringify({ file, wallS: 1, selfS, childrenS, cgroupS, at });
    fs.writeFileSync(
      path.join(cpuDir, '101.jsonl'),
      [
        row('test/unit/fast.test.ts', 50, 50, 100, 999_000),
        row('test/integration/slow.test.ts', 1.5, 2.5, 9.25, 1_040_100),
      ].join('\n') + '\n{"cut',
    );
    fs.writeFileSync(path.join(cpuDir, '102.jsonl'), row('test/unit/fast.test.ts', 6, 4.5, null, 1_001_300) + '\n');
  }

  it('per-file CPU: the newest line of this run per file, the cgroup total where there is one; --by cpu sorts by it', () => {
    const dir = tempDir('timings-cpu-');
    dirs.push(dir);
    writeCpu(dir);
    const cpu = readCpu(path.join(dir, 'cpu'), REPORT.startTime);
    expect([...cpu.entries()].map(([f, c]) => [f, c.totalS, c.selfS, c.whole]).sort()).toEqual([
      ['test/integration/slow.test.ts', 9.25, 1.5, true],
      ['test/unit/fast.test.ts', 10.5, 6, false],
    ]);
    const byCpu = summarize(REPORT, { by: 'cpu', cpu });
    expect(byCpu.files.map((f) => f.file)).toEqual([
      'test/unit/fast.test.ts',
      'test/integration/slow.test.ts',
      'test/e2e/skipped.test.ts',
    ]);
    expect(byCpu.cpu).toEqual({ files: 2, totalS: 19.75, selfS: 7.5, whole: false });
    const text = format(byCpu);
    expect(text).toMatch(/fast\.test\.ts \(2 tests\) {2}\[cpu >= 10\.5 s, own process 6\.0 s\]/);
    expect(text).toMatch(/slow\.test\.ts \(3 tests\) {2}FAILED {2}\[cpu 9\.3 s, own process 1\.5 s\]/);
    // 19.75 s of CPU over a 40 s run; one file had no cgroup, so the total is a lower bound
    expect(text).toMatch(/cpu: 20 s in 2 files \(own and reaped children only, a lower bound.*\), 0\.49 cores busy/);
    expect(readCpu(path.join(dir, 'nowhere')).size).toBe(0);
  });

  it('the script prints the summary of a report file, with the CPU lines next to it', () => {
    const dir = tempDir('timings-');
    dirs.push(dir);
    const file = path.join(dir, 'report.json');
    fs.writeFileSync(file, JSON.stringify(REPORT));
    writeCpu(dir);
    const res = spawnSync(process.execPath, ['scripts/test-timings.mjs', file, '--top', '1'], {
      cwd: REPO_ROOT,
      encoding: 'utf8',
    });
    expect(res.status).toBe(0);
    expect(res.stdout).toMatch(/^1 slowest of 3 test files:\n {2}1\. {3}38\.0 s {2}test\/integration\/slow\.test\.ts/);
    expect(res.stdout).toMatch(/slow\.test\.ts \(3 tests\) {2}FAILED {2}\[cpu 9\.3 s, own process 1\.5 s\]/);
    const missing = spawnSync(process.execPath, ['scripts/test-timings.mjs', `${file}.nope`], {
      cwd: REPO_ROOT,
      encoding: 'utf8',
    });
    expect(missing.status).toBe(1);
    expect(missing.stderr).toMatch(/does not exist: run npm test or npm run test:quick first/);
  });
});
