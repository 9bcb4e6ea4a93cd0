// Helpers of bench/takeover.bench.ts: what a viewer of the live takeover page sees and when (an init script that
// timestamps the page's own frame draws and SSE frame arrivals, and reads the pixels of one region of each drawn
// frame), and the CPU of process trees read from /proc (Linux).
import fs from 'node:fs';
import type { Page } from 'playwright-core';
import { round } from './stats.js';

/** One frame the live page drew on its canvas: when, its size, and the probe's measure of the region (or null). */
export interface Draw {
  t: number;
  w: number;
  h: number;
  m: number | null;
}
/** One `event: frame` read from the live page's event stream: when, and its size in bytes (base64 JSON). */
export interface Arrival {
  t: number;
  bytes: number;
}
/** The region the probe measures, in remote CSS px, and the remote viewport the frames must be of. */
export interface ProbeRegion {
  x: number;
  y: number;
  w: number;
  h: number;
  viewportWidth: number;
  viewportHeight: number;
}

/**
 * Runs in the viewer page before its own script (Playwright init scripts are not subject to the page's CSP). It
 * wraps, without changing what they do: CanvasRenderingContext2D.drawImage (each frame the page draws is
 * timestamped, and, when a probe region is set, the horizontal extent in px of the dark pixels in that region
 * is measured on the canvas just drawn), fetch (a POST to `/input` is timed; the body of `/events` is teed and its
 * `frame` events timestamped as they are read), and keydown / pointerdown (timestamped in the capture phase,
 * before the page handles them).
 */
function installProbe(): void {
  type W = Window & { __bench?: unknown };
  const B = {
    draws: [] as { t: number; w: number; h: number; m: number | null }[],
    arrivals: [] as { t: number; bytes: number }[],
    keys: [] as number[],
    pointers: [] as number[],
    posts: [] as { t: number; done: number }[],
    probe: null as null | { x: number; y: number; w: number; h: number; viewportWidth: number; viewportHeight: number },
  };
  (window as W).__bench = B;
  /** Extent (CSS px) of the columns holding a dark pixel (luma < 128), or null when the frame is of another size. */
  const measure = (ctx: CanvasRenderingContext2D): number | null => {
    const p = B.probe;
    // The server's page has a device scale of 1: a frame of the current viewport is drawn 1:1 in CSS px.
    if (!p || ctx.canvas.width !== p.viewportWidth || ctx.canvas.height !== p.viewportHeight) return null;
    const x = Math.round(p.x);
    const y = Math.round(p.y);
    const w = Math.round(p.w);
    const h = Math.round(p.h);
    const px = ctx.getImageData(x, y, w, h).data;
    let first = -1;
    let last = -1;
    for (let cx = 0; cx < w; cx++) {
      for (let cy = 0; cy < h; cy++) {
        const i = (cy * w + cx) * 4;
        if (0.299 * px[i] + 0.587 * px[i + 1] + 0.114 * px[i + 2] < 128) {
          if (first < 0) first = cx;
          last = cx;
          break;
        }
      }
    }
    return first < 0 ? 0 : last - first + 1;
  };
  const drawImage = CanvasRenderingContext2D.prototype.drawImage;
  CanvasRenderingContext2D.prototype.drawImage = function (this: CanvasRenderingContext2D, ...args: unknown[]) {
    (drawImage as (...a: unknown[]) => void).apply(this, args);
    const t = performance.now();
    B.draws.push({ t, w: this.canvas.width, h: this.canvas.height, m: measure(this) });
  } as typeof drawImage;
  const fetchOrig = window.fetch;
  window.fetch = async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
    const sent = performance.now();
    const res = await fetchOrig(input, init);
    if (/\/input$/.test(url)) B.posts.push({ t: sent, done: performance.now() });
    if (!/\/events$/.test(url) || !res.body) return res;
    const [page, ours] = res.body.tee();
    void (async () => {
      const reader = ours.getReader();
      const decoder = new TextDecoder();
      let buffer = '';
      for (;;) {
        const { done, value } = await reader.read();
        if (done) return;
        const t = performance.now();
        buffer += decoder.decode(value, { stream: true });
        let end: number;
        while ((end = buffer.indexOf('\n\n')) >= 0) {
          if (buffer.startsWith('event: frame\n')) B.arrivals.push({ t, bytes: end });
          buffer = buffer.slice(end + 2);
        }
      }
    })().catch(() => {});
    return new Response(page, { status: res.status, statusText: res.statusText, headers: res.headers });
  };
  addEventListener('keydown', () => B.keys.push(performance.now()), true);
  addEventListener('pointerdown', () => B.pointers.push(performance.now()), true);
}

/** Installs the probe in every page of the viewer's context (call before it opens the live page). */
export async function addViewerProbe(page: Page): Promise<void> {
  // tsx (esbuild keepNames) may wrap the inner functions in __name(fn, "name"): here it only returns fn.
  await page.addInitScript({ content: `(() => { const __name = (f) => f; (${installProbe.toString()})(); })();` });
}

/** One POST /live/<id>/input of the page: sent, and answered (the server answers once the input was dispatched). */
export interface Post {
  t: number;
  done: number;
}
type Bench = {
  draws: Draw[];
  arrivals: Arrival[];
  keys: number[];
  pointers: number[];
  posts: Post[];
  probe: ProbeRegion | null;
};

/** Sets (or clears, with null) the region the probe measures on every drawn frame. */
export async function setProbe(page: Page, region: ProbeRegion | null): Promise<void> {
  await page.evaluate((r) => {
    (window as Window & { __bench?: Bench }).__bench!.probe = r;
  }, region);
}

/** Counts of what the viewer recorded so far (indexes to read from later). */
export interface Marks {
  draws: number;
  arrivals: number;
  keys: number;
  pointers: number;
  posts: number;
}
export function viewerMarks(page: Page): Promise<Marks> {
  return page.evaluate(() => {
    const B = (window as Window & { __bench?: Bench }).__bench!;
    return {
      draws: B.draws.length,
      arrivals: B.arrivals.length,
      keys: B.keys.length,
      pointers: B.pointers.length,
      posts: B.posts.length,
    };
  });
}

/** The viewer's records from the given marks on, and its clock now. */
export function viewerRecords(
  page: Page,
  from: Marks,
): Promise<{ draws: Draw[]; arrivals: Arrival[]; keys: number[]; posts: Post[]; now: number }> {
  return page.evaluate((f) => {
    const B = (window as Window & { __bench?: Bench }).__bench!;
    return {
      draws: B.draws.slice(f.draws),
      arrivals: B.arrivals.slice(f.arrivals),
      keys: B.keys.slice(f.keys),
      posts: B.posts.slice(f.posts),
      now: performance.now(),
    };
  }, from);
}

/** A change seen by the viewer: the press, the first frame drawn showing it, its arrival, the press's POST. */
export interface Change {
  t0: number;
  draw: Draw;
  arrival: Arrival | null;
  post: Post | null;
  framesBefore: number;
}

/**
 * After the key or pointer press number `index` (in the viewer's order), waits for the first drawn frame whose
 * probe measure is within min / max (extent in px). Returns the press time, that draw, the last SSE frame arrival
 * before it, the first input POST sent after the press, and how many frames were drawn between the press and it.
 */
export async function waitForChange(
  page: Page,
  opts: {
    kind: 'keys' | 'pointers';
    index: number;
    fromDraw: number;
    fromArrival: number;
    fromPost: number;
    min?: number;
    max?: number;
  },
  timeoutMs = 10_000,
): Promise<Change> {
  const handle = await page.waitForFunction(
    (o) => {
      const B = (window as Window & { __bench?: Bench }).__bench!;
      const t0 = B[o.kind][o.index];
      if (t0 === undefined) return false;
      let before = 0;
      for (let j = o.fromDraw; j < B.draws.length; j++) {
        const d = B.draws[j]!;
        if (d.t < t0) continue;
        const ok = d.m !== null && (o.min === undefined || d.m >= o.min) && (o.max === undefined || d.m <= o.max);
        if (!ok) {
          before++;
          continue;
        }
        let arrival = null;
        for (let k = B.arrivals.length - 1; k >= o.fromArrival; k--)
          if (B.arrivals[k]!.t <= d.t) {
            arrival = B.arrivals[k]!;
            break;
          }
        let post = null;
        for (let k = o.fromPost; k < B.posts.length; k++)
          if (B.posts[k]!.t >= t0) {
            post = B.posts[k]!;
            break;
          }
        return { t0, draw: d, arrival, post, framesBefore: before };
      }
      return false;
    },
    opts,
    { polling: 5, timeout: timeoutMs },
  );
  return (await handle.jsonValue()) as Change;
}

/** Frames drawn and received per second in the viewer between `from` and `to` (viewer clock). */
export function rates(draws: Draw[], arrivals: Arrival[], from: number, to: number) {
  const s = (to - from) / 1000;
  const inWindow = <T extends { t: number }>(xs: T[]) => xs.filter((x) => x.t >= from && x.t <= to);
  const got = inWindow(arrivals);
  const gaps = inWindow(draws)
    .map((d, i, all) => (i ? d.t - all[i - 1]!.t : NaN))
    .filter((g) => !Number.isNaN(g));
  return {
    frames_drawn_per_sec: round(inWindow(draws).length / s, 1),
    frames_received_per_sec: round(got.length / s, 1),
    frame_event_kb_avg: round(got.reduce((a, x) => a + x.bytes, 0) / Math.max(1, got.length) / 1024, 1),
    longest_gap_between_draws_ms: gaps.length ? round(Math.max(...gaps), 0) : null,
  };
}

// ---- CPU of process trees (Linux /proc) ---------------------------------------------------------------------

const TICKS_PER_SECOND = 100; // USER_HZ: the unit of utime/stime in /proc/<pid>/stat on Linux

function statFields(pid: number): string[] | null {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  } catch {
    return null; // the process ended
  }
}

/** The direct children of `pid`. */
export function childrenOf(pid: number): number[] {
  const out: number[] = [];
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    if (Number(statFields(Number(entry))?.[1]) === pid) out.push(Number(entry));
  }
  return out;
}

/** `root` and all its descendants. */
export function descendants(root: number): number[] {
  const parent = new Map<number, number>();
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const f = statFields(Number(entry));
    if (f) parent.set(Number(entry), Number(f[1]));
  }
  const out = [root];
  for (let i = 0; i < out.length; i++)
    for (const [pid, ppid] of parent) if (ppid === out[i] && !out.includes(pid)) out.push(pid);
  return out;
}

/** CPU seconds (user + system) of each process of the trees rooted at `roots`. */
export function treeCpu(roots: number[]): Map<number, number> {
  const out = new Map<number, number>();
  for (const root of roots)
    for (const pid of descendants(root)) {
      const f = statFields(pid);
      // fields after "(comm) ": state is [0], so utime (field 14) is [11] and stime (field 15) is [12]
      if (f) out.set(pid, (Number(f[11]) + Number(f[12])) / TICKS_PER_SECOND);
    }
  return out;
}

/** CPU seconds spent between two treeCpu snapshots (a process that started in between counts from 0). */
export function cpuBetween(before: Map<number, number>, after: Map<number, number>): number {
  let sum = 0;
  for (const [pid, s] of after) sum += s - (before.get(pid) ?? 0);
  return sum;
}

/** Chromium processes that are children of this process (by their executable's name). */
export function chromiumChildren(): number[] {
  return childrenOf(process.pid).filter((pid) => {
    try {
      return /chrom/i.test(fs.readlinkSync(`/proc/${pid}/exe`));
    } catch {
      return false;
    }
  });
}
