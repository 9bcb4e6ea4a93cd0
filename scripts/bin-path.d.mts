// Types of scripts/bin-path.mjs for the TypeScript tests.
export function binEntry(pkgJson: { bin?: string | Record<string, string> }, name: string): string | null;
export function binCommand(
  name: string,
  options?: {
    platform?: NodeJS.Platform;
    root?: string;
    execPath?: string;
    readJson?: (file: string) => { bin?: string | Record<string, string> } | null;
  },
): { command: string; args: string[]; shell: boolean };
