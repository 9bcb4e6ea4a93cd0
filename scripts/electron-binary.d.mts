// Types of scripts/electron-binary.mjs for the TypeScript tests.
export const FETCH_TIMEOUT_MS: number;
export function fetchTimeoutMs(env?: NodeJS.ProcessEnv): number;
export function electronDir(env?: NodeJS.ProcessEnv): string;
export function displayMissing(platform?: NodeJS.Platform, env?: NodeJS.ProcessEnv): string | null;
export function electronBinary(dir?: string): { path: string } | { missing: true } | { reason: string };
export function installerError(stderr: string): string;
export function fetchElectron(
  dir?: string,
  options?: { env?: NodeJS.ProcessEnv; timeoutMs?: number },
): Promise<{ ok: true } | { reason: string } | { signal: NodeJS.Signals }>;

export interface ElectronSandboxFacts {
  platform: NodeJS.Platform;
  uid: number | undefined;
  /** /proc/sys/kernel/apparmor_restrict_unprivileged_userns, trimmed; null where absent. */
  apparmorRestrictsUserns: string | null;
  /** The chrome-sandbox path next to the binary. */
  helper: string;
  helperExists: boolean;
  helperSetuidRoot: boolean;
}
export interface ElectronSandboxPlan {
  fixHelper: boolean;
  noSandbox: boolean;
  why: string;
}
export function electronSandboxFacts(bin: string, platform?: NodeJS.Platform): ElectronSandboxFacts;
export function electronSandboxPlan(facts: ElectronSandboxFacts): ElectronSandboxPlan;
export function applyElectronSandboxPlan(
  plan: ElectronSandboxPlan,
  facts: Pick<ElectronSandboxFacts, 'helper'>,
  options?: { log?: (line: string) => void },
): string[];
