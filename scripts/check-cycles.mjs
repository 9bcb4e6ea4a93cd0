#!/usr/bin/env node
// Import cycles in src/ (`npm run check:cycles`, a step of `npm test`): every .ts/.tsx file, with type-only imports
// (`import type`, `import('./x.js').T`), re-exports, dynamic imports and require() counted like any import, since a
// type circle is a circle of the design too. dependency-cruiser parses and resolves the imports (relative `.js`
// specifiers name the `.ts`/`.tsx` sources); the strongly connected components of that graph (Tarjan) are the
// cycles. Each is printed as file chains, one per import that closes a loop, and the exit code is 1.
//   node scripts/check-cycles.mjs [folder...]     (default: src)
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { cruise } from 'dependency-cruiser';

const TYPE_ONLY = new Set(['type-only', 'type-import']);

/**
 * The import graph of the .ts/.tsx files under `roots` (paths relative to `baseDir`): Map file -> Map dep -> typeOnly.
 * Only files inside the project count; npm packages and node built-ins are left out.
 */
export async function importGraph(roots, { baseDir = process.cwd() } = {}) {
  const { output } = await cruise(
    roots,
    {
      baseDir,
      tsPreCompilationDeps: true,
      moduleSystems: ['es6', 'cjs'],
      exclude: { path: '(^|/)node_modules/' },
      doNotFollow: { path: '(^|/)node_modules/' },
      includeOnly: { path: '\\.(ts|tsx|mts|cts)$' },
    },
    { extensions: ['.ts', '.tsx', '.mts', '.cts', '.js', '.mjs', '.cjs', '.json'] },
  );
  const graph = new Map();
  for (const mod of output.modules) {
    if (mod.coreModule || mod.couldNotResolve || /(^|\/)node_modules\//.test(mod.source)) continue;
    const deps = new Map();
    for (const dep of mod.dependencies) {
      if (dep.coreModule || dep.couldNotResolve || /(^|\/)node_modules\//.test(dep.resolved)) continue;
      const typeOnly = dep.dependencyTypes.some((t) => TYPE_ONLY.has(t));
      // a file imported both as a type and as a value is a value import
      deps.set(dep.resolved, deps.has(dep.resolved) ? deps.get(dep.resolved) && typeOnly : typeOnly);
    }
    graph.set(mod.source, deps);
  }
  return graph;
}

/** Tarjan's strongly connected components with more than one file (or a file importing itself), sorted. */
export function stronglyConnected(graph) {
  let next = 0;
  const index = new Map();
  const low = new Map();
  const stack = [];
  const onStack = new Set();
  const found = [];
  const visit = (v) => {
    index.set(v, next);
    low.set(v, next);
    next += 1;
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v)?.keys() ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v), low.get(w)));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v), index.get(w)));
    }
    if (low.get(v) === index.get(v)) {
      const scc = [];
      let w;
      do {
        w = stack.pop();
        onStack.delete(w);
        scc.push(w);
      } while (w !== v);
      if (scc.length > 1 || graph.get(v)?.has(v)) found.push(scc.sort());
    }
  };
  for (const v of [...graph.keys()].sort()) if (!index.has(v)) visit(v);
  return found.sort((a, b) => (a[0] < b[0] ? -1 : 1));
}

/** The shortest path from `from` to `to` inside `members`, or null. */
function shortestPath(graph, members, from, to) {
  const prev = new Map([[from, null]]);
  const queue = [from];
  while (queue.length) {
    const v = queue.shift();
    if (v === to) {
      const chain = [];
      for (let x = to; x !== null; x = prev.get(x)) chain.unshift(x);
      return chain;
    }
    for (const w of [...(graph.get(v)?.keys() ?? [])].sort()) {
      if (members.has(w) && !prev.has(w)) {
        prev.set(w, v);
        queue.push(w);
      }
    }
  }
  return null;
}

/**
 * The cycles of the graph: one entry per strongly connected component, with its files and a set of elementary
 * cycles covering every import inside it (for each import a -> b, b's shortest way back to a), without repeats.
 * A chain starts and ends with the same file.
 */
export function findCycles(graph) {
  return stronglyConnected(graph).map((files) => {
    const members = new Set(files);
    const seen = new Set();
    const chains = [];
    for (const a of files) {
      for (const b of [...graph.get(a).keys()].sort()) {
        if (!members.has(b)) continue;
        const back = shortestPath(graph, members, b, a);
        if (!back) continue;
        const loop = [a, ...back.slice(0, -1)];
        const start = loop.indexOf([...loop].sort()[0]);
        const chain = [...loop.slice(start), ...loop.slice(0, start)];
        const key = chain.join('\n');
        if (seen.has(key)) continue;
        seen.add(key);
        chains.push([...chain, chain[0]]);
      }
    }
    return { files, chains };
  });
}

/**
 * The graph of the units the files belong to (`unitOf(file)`: a folder of the core allow-list, scripts/core-deps.mjs):
 * unit -> (imported unit -> whether every import behind it is type-only). Imports inside a unit, and files no unit
 * holds, are left out. A circle here is two folders importing each other with no file cycle needed: a room that
 * imports the room above it back.
 */
export function unitGraph(graph, unitOf) {
  const units = new Map();
  for (const [file, deps] of graph) {
    const from = unitOf(file);
    if (!from) continue;
    if (!units.has(from)) units.set(from, new Map());
    const out = units.get(from);
    for (const [dep, typeOnly] of deps) {
      const to = unitOf(dep);
      if (!to || to === from) continue;
      out.set(to, out.has(to) ? out.get(to) && typeOnly : typeOnly);
    }
  }
  return units;
}

/** The text `check-cycles` prints for the cycles found (the `graph` marks type-only imports). */
export function formatCycles(cycles, graph) {
  const lines = [];
  cycles.forEach(({ files, chains }, i) => {
    lines.push(`cycle ${i + 1} of ${cycles.length}: ${files.length} file${files.length === 1 ? '' : 's'}`);
    for (const chain of chains) {
      lines.push(`    ${chain[0]}`);
      for (let k = 1; k < chain.length; k++) {
        const typeOnly = graph.get(chain[k - 1])?.get(chain[k]);
        lines.push(`  -> ${chain[k]}${typeOnly ? '   (import type)' : ''}`);
      }
      lines.push('');
    }
  });
  return lines.join('\n');
}

/** The core's file graph as units of the allow-list (scripts/core-deps.mjs), by path relative to the repository. */
export async function coreUnitGraph(graph) {
  const { coreUnitOf } = await import('./eslint-layers.mjs');
  const CORE = 'src/main/core/';
  return unitGraph(graph, (file) => (file.startsWith(CORE) ? coreUnitOf(file.slice(CORE.length)) : null));
}

async function main() {
  const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
  const roots = process.argv.slice(2);
  const graph = await importGraph(roots.length ? roots : ['src'], { baseDir: root });
  const cycles = findCycles(graph);
  // Folder level too: two rooms of the core that import each other, file cycle or not (docs/architecture.md).
  const units = await coreUnitGraph(graph);
  const unitCycles = findCycles(units);
  if (unitCycles.length) {
    process.stdout.write(formatCycles(unitCycles, units).replace(/ files?$/gm, (m) => m.replace('file', 'folder')));
    process.stdout.write(
      `\n${unitCycles.length} folder cycle${unitCycles.length === 1 ? '' : 's'} in src/main/core: a folder imports ` +
        'one that imports it back; pass the part it needs as an argument, or move it down\n',
    );
    process.exitCode = 1;
  }
  if (!cycles.length) {
    process.stdout.write(
      `no import cycles among ${graph.size} files (type-only imports included)` +
        `${unitCycles.length || !units.size ? '' : `, nor among the ${units.size} folders of src/main/core`}\n`,
    );
    return;
  }
  process.stdout.write(formatCycles(cycles, graph));
  process.stdout.write(
    `\n${cycles.length} import cycle${cycles.length === 1 ? '' : 's'} among ${graph.size} files ` +
      '(type-only imports included): break each, e.g. by moving the shared part to a lower file\n',
  );
  process.exitCode = 1;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) await main();
