// tune-heap.ts sets V8's old-generation growth at run time (Electron's main process cannot be given the flag on its
// command line): a process that imports it first collects as often as one started with `--heap-growing-percent=20`, and
// more often than one left to V8's own factor. Counted over a fixed amount of work (old-generation garbage: objects
// that live long enough to be promoted, then die), not timed.
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { HEAP_GROWING_PERCENT } from '../../src/main/core/tune-heap.js';
import { SERVER_NODE_FLAGS } from '../../scripts/server-node-flags.mjs';
import { REPO_ROOT } from '../helpers/repo-root.js';

const MODULE = path.join(REPO_ROOT, 'src', 'main', 'core', 'tune-heap.ts');
const WORK = `
  const { PerformanceObserver, constants } = await import('node:perf_hooks');
  if (process.env.TUNE) await import(${JSON.stringify(MODULE)});
  let major = 0;
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) if (e.detail.kind === constants.NODE_PERFORMANCE_GC_MAJOR) major++;
  }).observe({ entryTypes: ['gc'] });
  const live = Array.from({ length: 300_000 }, (_, i) => ({ a: i, b: 'x' + i }));
  const ring = new Array(300_000);
  for (let k = 0; k < 6_000_000; k++) ring[k % ring.length] = { s: 'y' + k, n: [k, k] };
  await new Promise((r) => setTimeout(r, 50));
  console.log(major, live.length);
`;

function majorCollections(nodeArgs: string[], env: NodeJS.ProcessEnv = {}): number {
  const res = spawnSync(process.execPath, [...nodeArgs, '--import', 'tsx', '--input-type=module', '-e', WORK], {
    cwd: REPO_ROOT,
    env: { ...process.env, ...env },
    encoding: 'utf8',
  });
  if (res.status !== 0) throw new Error(res.stderr);
  return Number(res.stdout.trim().split(' ')[0]);
}

describe('tune-heap', () => {
  it('collects the old generation as the command-line flag does, more often than V8 alone', () => {
    const untuned = majorCollections([]);
    const tuned = majorCollections([], { TUNE: '1' });
    const flagged = majorCollections([`--heap-growing-percent=${HEAP_GROWING_PERCENT}`]);
    expect(tuned).toBeGreaterThan(untuned * 1.3);
    expect(Math.abs(tuned - flagged)).toBeLessThanOrEqual(Math.max(2, flagged * 0.2));
  }, 60_000);

  it('is the setting the headless server gets on its command line', () => {
    expect(SERVER_NODE_FLAGS).toContain(`--heap-growing-percent=${HEAP_GROWING_PERCENT}`);
  });
});
