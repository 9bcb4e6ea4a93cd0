// Types of scripts/test-loop.mjs for the TypeScript tests.
export function parseRepeatArgs(argv: string[]): { file: string; runs: number };
export function vitestCommand(args: string[], platform?: NodeJS.Platform): string[];
