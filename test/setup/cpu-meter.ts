// Where the suite's CPU goes, per test file (for `node scripts/test-timings.mjs`, which prints it next to the wall
// time). Each file runs in a process of its own (pool forks, isolate), so what that process and everything it starts
// use is the file's cost. Two ways to count it, best first:
//  - cgroup: the process moves itself into a cpuacct cgroup of its own (root on Linux with cgroup v1 cpuacct, as on
//    the CI machine); every process it starts stays in it, orphans included, so the count is whole. Chromium's
//    renderers are children of its zygote and are reparented to init when the browser goes, which is why the next way
//    misses about half of a browser file's CPU.
//  - rusage: this process's own CPU plus its reaped children's (/proc/self/stat); a lower bound.
// Lines go to test-results/cpu/<pid>.jsonl. Elsewhere (macOS, Windows) nothing is written.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, expect } from 'vitest';

const CPU_DIR = path.join(process.cwd(), 'test-results', 'cpu');
const CGROUP_ROOT = '/sys/fs/cgroup/cpuacct';
const CGROUP_PARENT = path.join(CGROUP_ROOT, 'agent-studio-tests');

/** utime, stime, cutime, cstime of this process in seconds (fields 14–17 of /proc/self/stat), or null off Linux. */
function rusageSeconds(): { self: number; children: number } | null {
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

/** A cpuacct cgroup holding this process from now on, or null where one cannot be made (not root, no cgroup v1). */
function ownCgroup(): string | null {
  const dir = path.join(CGROUP_PARENT, String(process.pid));
  // Another file's process sweeps emptied groups when it ends (leaveCgroup): one made here a moment ago and not yet
  // joined is empty too, so it may go between the mkdir and the join. Made again then, not given up for rusage.
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      fs.mkdirSync(dir, { recursive: true });
      fs.writeFileSync(path.join(dir, 'cgroup.procs'), String(process.pid));
      return dir;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') return null;
    }
  }
  return null;
}

/** Moves this process back to the root group, then removes every emptied group (its own, earlier runs' ones). */
function leaveCgroup(): void {
  try {
    fs.writeFileSync(path.join(CGROUP_ROOT, 'cgroup.procs'), String(process.pid));
  } catch {
    return;
  }
  for (const name of fs.readdirSync(CGROUP_PARENT)) {
    try {
      fs.rmdirSync(path.join(CGROUP_PARENT, name));
    } catch {
      // Still in use: another file's process, or a browser a test left running. A later run removes it once empty.
    }
  }
}

const startedAt = Date.now();
const atStart = rusageSeconds();
const cgroup = ownCgroup();

afterAll(() => {
  const atEnd = rusageSeconds();
  const testPath = expect.getState().testPath;
  if (!atEnd || !atStart || !testPath) return;
  let cgroupS: number | null = null;
  if (cgroup) {
    cgroupS = Number(fs.readFileSync(path.join(cgroup, 'cpuacct.usage'), 'utf8')) / 1e9;
    leaveCgroup();
  }
  fs.mkdirSync(CPU_DIR, { recursive: true });
  const line = {
    file: path.relative(process.cwd(), testPath),
    wallS: (Date.now() - startedAt) / 1000,
    // Module loading before this setup file ran is in atStart; it is counted too (the process is the file's own).
    selfS: atEnd.self,
    childrenS: atEnd.children,
    // Everything the file's process and its descendants used since this file started (null: no cgroup here).
    cgroupS,
    at: Date.now(),
  };
  fs.appendFileSync(path.join(CPU_DIR, `${process.pid}.jsonl`), JSON.stringify(line) + '\n');
});
