// scripts/check-cycles.mjs: import cycles (type-only imports included) in small trees written to a temp folder,
// and the script itself on a tree with a cycle and on one without.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import {
  coreUnitGraph,
  findCycles,
  formatCycles,
  importGraph,
  stronglyConnected,
  unitGraph,
} from '../../../scripts/check-cycles.mjs';
import { REPO_ROOT } from '../../helpers/repo-root.js';
import { tempDir } from '../../helpers/temp-dir.js';

const dirs: string[] = [];
afterAll(() => dirs.forEach((d) => fs.rmSync(d, { recursive: true, force: true })));

/** Writes `files` (path -> source) under a fresh temp folder and returns it. */
function tree(files: Record<string, string>): string {
  const dir = tempDir('check-cycles-');
  dirs.push(dir);
  for (const [file, text] of Object.entries(files)) {
    fs.mkdirSync(path.join(dir, path.dirname(file)), { recursive: true });
    fs.writeFileSync(path.join(dir, file), text);
  }
  return dir;
}

async function cyclesOf(files: Record<string, string>) {
  const dir = tree(files);
  const graph = await importGraph(['src'], { baseDir: dir });
  return { graph, cycles: findCycles(graph) };
}

describe('check-cycles', () => {
  it('passes an acyclic tree (a diamond, with a .tsx file, a type import and a package)', async () => {
    const { graph, cycles } = await cyclesOf({
      'src/top.ts':
        "import { left } from './left.js';\nimport { right } from './right.js';\nexport const t = [left, right];\n",
      'src/left.ts': "import { base } from './lib/base.js';\nexport const left = base;\n",
      'src/right.tsx':
        "import type { Base } from './lib/base.js';\nimport fs from 'node:fs';\nexport const right: Base = 1;\nexport const f = fs;\n",
      'src/lib/base.ts': 'export type Base = number;\nexport const base: Base = 0;\n',
    });
    expect(cycles).toEqual([]);
    expect([...graph.keys()].sort()).toEqual(['src/left.ts', 'src/lib/base.ts', 'src/right.tsx', 'src/top.ts']);
    // `.js` specifiers resolve to the .ts/.tsx sources
    expect([...graph.get('src/top.ts')!.keys()].sort()).toEqual(['src/left.ts', 'src/right.tsx']);
    expect(graph.get('src/right.tsx')!.get('src/lib/base.ts')).toBe(true);
    expect(graph.get('src/left.ts')!.get('src/lib/base.ts')).toBe(false);
  });

  it('finds a value cycle through three files as one chain', async () => {
    const { cycles } = await cyclesOf({
      'src/a.ts': "import { b } from './b.js';\nexport const a = () => b;\n",
      'src/b.ts': "import { c } from './sub/c.js';\nexport const b = () => c;\n",
      'src/sub/c.ts': "import { a } from '../a.js';\nexport const c = () => a;\n",
      'src/d.ts': "import { a } from './a.js';\nexport const d = a;\n",
    });
    expect(cycles).toEqual([
      {
        files: ['src/a.ts', 'src/b.ts', 'src/sub/c.ts'],
        chains: [['src/a.ts', 'src/b.ts', 'src/sub/c.ts', 'src/a.ts']],
      },
    ]);
  });

  it('finds a type-only cycle (import type, and import("x").T)', async () => {
    const { graph, cycles } = await cyclesOf({
      'src/core.ts': "import type { Feature } from './feature.js';\nexport interface Core { f: Feature }\n",
      'src/feature.ts': "export interface Feature { core: import('./core.js').Core }\n",
    });
    expect(cycles.map((c) => c.files)).toEqual([['src/core.ts', 'src/feature.ts']]);
    const text = formatCycles(cycles, graph);
    expect(text).toContain('cycle 1 of 1: 2 files');
    expect(text).toContain('  -> src/feature.ts   (import type)');
  });

  it('finds cycles through re-exports and dynamic imports, and separate components separately', async () => {
    const { cycles } = await cyclesOf({
      'src/index.ts': "export * from './x.js';\n",
      'src/x.ts': "import { y } from './index.js';\nexport const x = 1;\nexport const z = y;\n",
      'src/lazy.ts': "export const load = () => import('./eager.js');\n",
      'src/eager.ts': "import { load } from './lazy.js';\nexport const e = load;\n",
    });
    expect(cycles.map((c) => c.files)).toEqual([
      ['src/eager.ts', 'src/lazy.ts'],
      ['src/index.ts', 'src/x.ts'],
    ]);
  });

  it('lists one chain per import that closes a loop through a hub', async () => {
    const { cycles } = await cyclesOf({
      'src/hub.ts':
        "import { one } from './one.js';\nimport { two } from './two.js';\nexport const all = [one, two];\nexport type Step = number;\n",
      'src/one.ts': "import type { Step } from './hub.js';\nexport const one: Step = 1;\n",
      'src/two.ts': "import type { Step } from './hub.js';\nexport const two: Step = 2;\n",
    });
    expect(cycles).toHaveLength(1);
    expect(cycles[0].chains).toEqual([
      ['src/hub.ts', 'src/one.ts', 'src/hub.ts'],
      ['src/hub.ts', 'src/two.ts', 'src/hub.ts'],
    ]);
  });

  it("Tarjan's components include a file that imports itself", () => {
    const graph = new Map([
      ['a', new Map([['a', false]])],
      ['b', new Map([['a', false]])],
    ]);
    expect(stronglyConnected(graph)).toEqual([['a']]);
  });

  it('the script exits 1 and prints the chain on a cycle, 0 on an acyclic tree', () => {
    const script = path.join(REPO_ROOT, 'scripts', 'check-cycles.mjs');
    const cyclic = tree({
      'src/p.ts': "import type { Q } from './q.js';\nexport type P = Q[];\n",
      'src/q.ts': "import type { P } from './p.js';\nexport type Q = P | null;\n",
    });
    // the script resolves folders against the repository; give it the temp tree's absolute path
    const bad = spawnSync(process.execPath, [script, path.join(cyclic, 'src')], { encoding: 'utf8' });
    expect(bad.status).toBe(1);
    expect(bad.stdout).toMatch(/p\.ts\n {2}-> .*q\.ts {3}\(import type\)\n {2}-> .*p\.ts {3}\(import type\)/);
    expect(bad.stdout).toContain('1 import cycle among 2 files');
    const fine = tree({
      'src/p.ts': "import type { Q } from './q.js';\nexport type P = Q[];\n",
      'src/q.ts': 'export type Q = 1;\n',
    });
    const good = spawnSync(process.execPath, [script, path.join(fine, 'src')], { encoding: 'utf8' });
    expect(good.stderr).toBe('');
    expect(good.status).toBe(0);
    expect(good.stdout).toContain('no import cycles among 2 files');
  });

  it('finds a folder cycle that has no file cycle: a room importing the room above it back', async () => {
    const { graph, cycles } = await cyclesOf({
      'src/feature/feature.ts': "import { part } from './room/part.js';\nexport type Core = { part: typeof part };\n",
      'src/feature/room/part.ts': 'export const part = 1;\n',
      'src/feature/room/part.routes.ts':
        "import type { Core } from '../feature.js';\nexport const r = (c: Core) => c;\n",
    });
    expect(cycles).toEqual([]);
    const folderOf = (file: string) => path.dirname(file);
    const folders = unitGraph(graph, folderOf);
    expect(findCycles(folders).map((c) => c.files)).toEqual([['src/feature', 'src/feature/room']]);
    // the same tree with the route module taking its part as an argument instead
    const fixed = await cyclesOf({
      'src/feature/feature.ts': "import { part } from './room/part.js';\nexport const f = part;\n",
      'src/feature/room/part.ts': 'export const part = 1;\n',
      'src/feature/room/part.routes.ts':
        "import type { part } from './part.js';\nexport const r = (p: typeof part) => p;\n",
    });
    expect(findCycles(unitGraph(fixed.graph, folderOf))).toEqual([]);
  });
});

describe('the folders of src/main/core (units of scripts/core-deps.mjs), from the real imports', () => {
  it('have no cycle, and one import back up to a feature assembly would make one', async () => {
    const graph = await importGraph(['src/main/core'], { baseDir: REPO_ROOT });
    const units = await coreUnitGraph(graph);
    expect(units.size).toBeGreaterThan(40);
    expect(findCycles(units)).toEqual([]);
    // what the route modules did before they took their parts as arguments
    const back = new Map(graph);
    const routes = 'src/main/core/login/lifecycle/lifecycle.routes.ts';
    back.set(routes, new Map([...graph.get(routes)!, ['src/main/core/login/login.feature.ts', true]]));
    const found = findCycles(await coreUnitGraph(back));
    expect(found).toHaveLength(1);
    expect(found[0].files).toEqual(expect.arrayContaining(['login/lifecycle', 'login/login.feature.ts']));
  });
});
