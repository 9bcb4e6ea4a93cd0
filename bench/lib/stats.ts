import fs from 'node:fs';

export function percentile(values: number[], p: number): number {
  if (!values.length) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const idx = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[idx];
}

export const round = (n: number, digits = 2) => Math.round(n * 10 ** digits) / 10 ** digits;

/** A process and all its descendants (Linux /proc), e.g. the server plus Chromium. */
function processTree(rootPid: number): number[] {
  const children = new Map<number, number[]>();
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${entry}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      const list = children.get(ppid) ?? [];
      list.push(Number(entry));
      children.set(ppid, list);
    } catch {
      // process ended while we looked
    }
  }
  const out: number[] = [];
  const stack = [rootPid];
  while (stack.length) {
    const pid = stack.pop()!;
    out.push(pid);
    stack.push(...(children.get(pid) ?? []));
  }
  return out;
}

/** The first number (kB) after `label` in a /proc file, in bytes; 0 when the process is gone. */
function procKb(file: string, label: RegExp): number {
  try {
    const m = label.exec(fs.readFileSync(file, 'utf8'));
    return m ? Number(m[1]) * 1024 : 0;
  } catch {
    return 0;
  }
}

/**
 * Memory of a process tree in bytes. `rss` sums each process's resident set, so pages shared
 * between processes (Chromium's code, shared memory) count once per process; `pss` shares them
 * out (proportional set size), so it is what the tree takes from the machine.
 */
export function treeMemory(rootPid: number): { rss: number; pss: number; rootPss: number } {
  if (process.platform !== 'linux') {
    const rss = process.memoryUsage().rss;
    return { rss, pss: rss, rootPss: rss };
  }
  let rss = 0;
  let pss = 0;
  let rootPss = 0;
  for (const pid of processTree(rootPid)) {
    rss += procKb(`/proc/${pid}/status`, /VmRSS:\s+(\d+) kB/);
    const own = procKb(`/proc/${pid}/smaps_rollup`, /Pss:\s+(\d+) kB/);
    pss += own;
    if (pid === rootPid) rootPss = own;
  }
  return { rss, pss, rootPss };
}

/** Samples treeMemory every `everyMs` until stopped; returns the peaks (`rootPssAtPeak`: the root's share at the PSS peak). */
export function memorySampler(
  pid: number,
  everyMs = 50,
): { stop(): { rss: number; pss: number; rootPssAtPeak: number } } {
  const first = treeMemory(pid);
  const peak = { rss: first.rss, pss: first.pss, rootPssAtPeak: first.rootPss };
  const sample = (): void => {
    const m = treeMemory(pid);
    peak.rss = Math.max(peak.rss, m.rss);
    if (m.pss > peak.pss) {
      peak.pss = m.pss;
      peak.rootPssAtPeak = m.rootPss;
    }
  };
  const timer = setInterval(sample, everyMs);
  return {
    stop() {
      clearInterval(timer);
      sample();
      return peak;
    },
  };
}
