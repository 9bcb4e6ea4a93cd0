// Types of scripts/python-types.mjs for the TypeScript tests.
export const TYPES_FILE: string;
export const PYTHON_ROUTES: Record<string, { params?: string; omit?: string[] }>;
export function snakeCase(key: string): string;
export function renderPythonTypes(doc?: Record<string, unknown>): string;
