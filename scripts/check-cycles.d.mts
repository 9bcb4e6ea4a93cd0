// Types of scripts/check-cycles.mjs for the TypeScript tests.
/** file -> (imported file -> whether that import is type-only) */
export type ImportGraph = Map<string, Map<string, boolean>>;
export interface Cycle {
  /** The files of one strongly connected component, sorted. */
  files: string[];
  /** Elementary cycles covering its imports; each starts and ends with the same file. */
  chains: string[][];
}
export function importGraph(roots: string[], options?: { baseDir?: string }): Promise<ImportGraph>;
export function stronglyConnected(graph: ImportGraph): string[][];
export function findCycles(graph: ImportGraph): Cycle[];
export function formatCycles(cycles: Cycle[], graph: ImportGraph): string;
/** unit -> (imported unit -> whether every import behind it is type-only); `unitOf` null leaves a file out. */
export function unitGraph(graph: ImportGraph, unitOf: (file: string) => string | null): ImportGraph;
/** The graph of src/main/core's allow-list units (scripts/core-deps.mjs), from a file graph made at the repository. */
export function coreUnitGraph(graph: ImportGraph): Promise<ImportGraph>;
