// Where the suite's CPU goes, per test file: each file runs in a process of its own (pool forks, isolate), so at the
// end of the file this process's own CPU (module loading, the servers it started in-process, the test code) and its
// reaped children's (Chromium, ffmpeg, CLI children: their CPU reaches us when they exit) are the file's cost. Written
// to test-results/cpu/ for `node scripts/test-timings.mjs`, which prints it next to the wall time. Linux only (/proc).
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, expect } from 'vitest';

const CPU_DIR = path.join(process.cwd(), 'test-results', 'cpu');

/** utime, stime, cutime, cstime of this process in seconds (fields 14–17 of /proc/self/stat), or null off Linux. */
function cpuSeconds(): { self: number; children: number } | null {
  let stat: string;
  try {
    stat = fs.readFileSync('/proc/self/stat', 'utf8');
  } catch {
    return null;
  }
  // The command name (field 2) may hold spaces; the fields after its closing paren start at field 3.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const tick = 100; // USER_HZ is 100 on every Linux Node runs on
  const at = (n: number): number => Number(fields[n - 3]) / tick;
  return { self: at(14) + at(15), children: at(16) + at(17) };
}

const startedAt = Date.now();
const atStart = cpuSeconds();

afterAll(() => {
  const atEnd = cpuSeconds();
  const testPath = expect.getState().testPath;
  if (!atEnd || !atStart || !testPath) return;
  fs.mkdirSync(CPU_DIR, { recursive: true });
  const line = {
    file: path.relative(process.cwd(), testPath),
    wallS: (Date.now() - startedAt) / 1000,
    // Module loading before this setup file ran is in atStart; count it too (the process is the file's own).
    selfS: atEnd.self,
    childrenS: atEnd.children,
    at: Date.now(),
  };
  fs.appendFileSync(path.join(CPU_DIR, `${process.pid}.jsonl`), JSON.stringify(line) + '\n');
});
