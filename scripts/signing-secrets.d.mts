// Types of scripts/signing-secrets.mjs for the TypeScript tests.
export interface SigningStep {
  step: string;
  /** Variable name -> what it holds. */
  secrets: Record<string, string>;
  /** What the installers are without it. */
  without: string;
}
export const SIGNING_REQUIREMENTS: Record<'darwin' | 'win32' | 'linux', SigningStep[]>;

export interface SigningCheck {
  os: string;
  /** Whether this OS's installers are signed at all. */
  signs: boolean;
  rows: { name: string; what: string; set: boolean }[];
  gaps: { step: string; missing: string[]; consequence: string }[];
}
export function signingCheck(platform: NodeJS.Platform, env: NodeJS.ProcessEnv): SigningCheck;
export function escapeData(text: string): string;
export function escapeProperty(text: string): string;
export function warningCommands(check: SigningCheck): string[];
export function summaryMarkdown(check: SigningCheck): string;
export function main(options?: {
  platform?: NodeJS.Platform;
  env?: NodeJS.ProcessEnv;
  out?: { write(text: string): unknown };
}): SigningCheck;
