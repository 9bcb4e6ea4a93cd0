// Types of scripts/core-deps.mjs for the TypeScript tests.
/** unit of src/main/core (folder or file, relative to it) -> the units it may import ('*': any) */
export const CORE_DEPS: Record<string, readonly string[]>;
export const ROUTE_LIST: string;
export const ROUTE_MODULE: RegExp;
export const ROUTE_MODULE_MAY_ALSO_IMPORT: readonly string[];
export const UNIT_GROUPS: Record<string, readonly string[]>;
