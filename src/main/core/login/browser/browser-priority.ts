// The login browsers run at a lower CPU priority than the app itself (Linux): on a small machine eight logins at once
// keep every core busy with Chromium's renderers, and the API server — whose cached answers take a fraction of a
// millisecond — then waited its turn behind them (cached logins' p99 went from milliseconds to a second). With the
// browsers at nice 10 the scheduler lets the server's short bursts through first; an idle machine runs both alike.
// Chromium raises some of its own threads (renderers' display-critical threads to -8) where it may, i.e. as root:
// while logins run, the tree is looked at again every second (asynchronously) and put back.
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import os from 'node:os';

/** Nice value of the login browsers' processes (the app's own stays as it was started, normally 0). */
export const BROWSER_NICENESS = 10;

interface ProcStat {
  pid: number;
  ppid: number;
  comm: string;
}

function stat(pid: string): ProcStat | null {
  try {
    const text = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    const open = text.indexOf('(');
    const close = text.lastIndexOf(')');
    const rest = text.slice(close + 2).split(' ');
    return { pid: Number(pid), comm: text.slice(open + 1, close), ppid: Number(rest[1]) };
  } catch {
    return null; // ended while we looked
  }
}

function allProcesses(): ProcStat[] {
  return fs
    .readdirSync('/proc')
    .filter((e) => /^\d+$/.test(e))
    .map(stat)
    .filter((s): s is ProcStat => s !== null);
}

/** This process's direct children that look like Chromium (its browser process). */
export function browserChildren(parent = process.pid): Set<number> {
  if (process.platform !== 'linux') return new Set();
  return new Set(
    allProcesses()
      .filter((p) => p.ppid === parent && /chrom|headless_shell/i.test(p.comm))
      .map((p) => p.pid),
  );
}

/**
 * Every thread of every process under `root` (the browser, its zygotes, GPU and utility processes, the renderers so
 * far) at `niceness`. Renderers started later are forked by a zygote's main thread and inherit its value. Only ever
 * lowers priority (no privilege needed); a process that ended meanwhile is skipped. Returns the threads changed.
 */
export function lowerTreePriority(root: number, niceness = BROWSER_NICENESS): number {
  if (process.platform !== 'linux') return 0;
  const all = allProcesses();
  const tree = [root];
  for (let i = 0; i < tree.length; i++) for (const p of all) if (p.ppid === tree[i]) tree.push(p.pid);
  let changed = 0;
  for (const pid of tree) {
    let threads: string[];
    try {
      threads = fs.readdirSync(`/proc/${pid}/task`);
    } catch {
      continue;
    }
    for (const tid of threads) {
      try {
        if (os.getPriority(Number(tid)) >= niceness) continue;
        os.setPriority(Number(tid), niceness);
        changed++;
      } catch {
        // gone, or not ours to change: the login works the same, only with the default priority
      }
    }
  }
  return changed;
}

async function treeAsync(root: number): Promise<number[]> {
  const entries = (await fsp.readdir('/proc')).filter((e) => /^\d+$/.test(e));
  const parents = new Map<number, number[]>();
  await Promise.all(
    entries.map(async (pid) => {
      try {
        const text = await fsp.readFile(`/proc/${pid}/stat`, 'utf8');
        const ppid = Number(text.slice(text.lastIndexOf(')') + 2).split(' ')[1]);
        parents.set(ppid, [...(parents.get(ppid) ?? []), Number(pid)]);
      } catch {
        // ended while we looked
      }
    }),
  );
  const tree = [root];
  for (let i = 0; i < tree.length; i++) tree.push(...(parents.get(tree[i]!) ?? []));
  return tree;
}

/**
 * Keeps a launched browser's tree at BROWSER_NICENESS: once at launch (synchronously, before the first login), then
 * every second while `busy()` says logins run. Linux only; a no-op elsewhere.
 */
export class BrowserPriority {
  private timer: NodeJS.Timeout | null = null;
  private roots = new Set<number>();
  private pass: Promise<void> | null = null;

  constructor(private readonly busy: () => boolean) {}

  /** Call around a launch: the browser process is the new Chromium child of this process. */
  launched(before: Set<number>): void {
    if (process.platform !== 'linux') return;
    for (const pid of browserChildren()) {
      if (before.has(pid)) continue;
      this.roots.add(pid);
      lowerTreePriority(pid);
    }
  }

  /** A login started: keep the tree lowered while logins run. */
  watch(): void {
    if (process.platform !== 'linux' || this.timer || !this.roots.size) return;
    this.timer = setInterval(() => {
      if (!this.busy()) return this.stop();
      this.pass ??= this.lowerAll().finally(() => (this.pass = null));
    }, 1000);
    this.timer.unref();
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }

  private async lowerAll(): Promise<void> {
    for (const root of [...this.roots]) {
      if (!fs.existsSync(`/proc/${root}`)) {
        this.roots.delete(root);
        continue;
      }
      for (const pid of await treeAsync(root)) {
        let threads: string[];
        try {
          threads = await fsp.readdir(`/proc/${pid}/task`);
        } catch {
          continue;
        }
        for (const tid of threads) {
          try {
            if (os.getPriority(Number(tid)) < BROWSER_NICENESS) os.setPriority(Number(tid), BROWSER_NICENESS);
          } catch {
            // gone meanwhile
          }
        }
      }
    }
  }
}
