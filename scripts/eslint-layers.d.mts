// Types of scripts/eslint-layers.mjs for the TypeScript tests.
import type { ESLint } from 'eslint';
export const layersPlugin: ESLint.Plugin;
/** The process-layer rule (`layers/boundaries`): a message, or null when the import is allowed. */
export function checkLayerImport(importer: string, source: string): string | null;
/** The core-folder rule (`layers/core-folders`) against `table` (default: scripts/core-deps.mjs). */
export function checkCoreImport(
  importer: string,
  source: string,
  table?: Record<string, readonly string[]>,
): string | null;
/** The unit of the table that a path relative to src/main/core belongs to, or null. */
export function coreUnitOf(rel: string, table?: Record<string, readonly string[]>): string | null;
