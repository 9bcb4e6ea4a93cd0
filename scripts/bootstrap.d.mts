// Types of scripts/bootstrap.mjs (and of the scripts/bootstrap/*.mjs decisions it re-exports) for the TypeScript tests.
export type Mode = 'runtime' | 'test';
export type Manager = 'apt' | 'dnf' | 'pacman' | 'zypper' | 'brew' | 'winget';
export type Family = 'debian' | 'ubuntu' | 'fedora' | 'rhel' | 'arch' | 'suse' | 'macos' | 'windows' | null;

/** The machine as the decisions see it (scripts/bootstrap/facts.mjs reads the real one). */
export interface Facts {
  platform: NodeJS.Platform;
  mode: Mode;
  env: NodeJS.ProcessEnv;
  home: string;
  osRelease: string | null;
  uid: number | undefined;
  /** Whether a command is on PATH. */
  has(cmd: string): boolean;
  exists(file: string): boolean;
  /** A folder's entries, [] when it is missing. */
  list(dir: string): string[];
  /** `ffmpeg -encoders` output; null or absent when unknown. */
  ffmpegEncoders?: string | null;
  /** Linux, test mode: whether python3 can make a venv (ensurepip imports); null or absent when not asked. */
  pythonVenv?: boolean | null;
  /** macOS: `xcode-select -p` succeeded. */
  xcodeTools?: boolean;
  /** Windows: vswhere found the C++ build tools. */
  vcTools?: boolean;
}

export interface Need {
  id: string;
  what: string;
  mode: Mode;
  platforms: NodeJS.Platform[];
  onlyWherePackaged?: boolean;
  present(facts: Facts): boolean;
}
export interface Step {
  /** argv lists the bootstrap runs when it may. */
  run: string[][];
  /** What a person types. */
  lines: string[];
  mayRun: boolean;
}
export interface Plan {
  manager: Manager | null;
  family: Family;
  /** Need ids missing here. */
  missing: string[];
  packages: string[];
  steps: Step[];
  notes: string[];
  /** Missing needs no known package provides here. */
  unavailable: string[];
}

export function parseArgs(argv: string[]): { mode: Mode; check: boolean; thenArgs: string[] | null };
export function main(argv: string[]): void;

export function browserCandidates(facts: Pick<Facts, 'platform' | 'env' | 'home' | 'list'>): string[];
export function systemBrowserCandidates(platform: NodeJS.Platform, env: NodeJS.ProcessEnv, home: string): string[];
export function flatpakBrowserExports(home: string): string[];
export function findBrowser(facts: Facts): string | null;
export function onPath(cmd: string, env?: NodeJS.ProcessEnv, platform?: NodeJS.Platform): boolean;

export const MIN_NODE: [number, number, number];
export function versionOk(version: string): boolean;
export function nodePackage(
  platform: NodeJS.Platform,
  arch: string,
  line: string,
): { name: string; spec: string } | { name: string; spec: null; message: string };
export function nodeFetchFailed(platform: NodeJS.Platform, line: string, spec: string, error: string): string;
export function provisionedNodePath(dir: string, platform: NodeJS.Platform): string;
export function nodePrefix(nodeBin: string, platform: NodeJS.Platform): string;
export function npmInvocation(
  args: string[],
  platform: NodeJS.Platform,
): { file: string; args: string[]; shell: boolean };

export const NEEDS: Need[];
export const PACKAGES: Record<Manager, Record<string, string>>;
export function needsFor(platform: NodeJS.Platform, mode: Mode): Need[];
export function packageFor(manager: Manager, family: Family, id: string): string | null;

export function parseOsRelease(text: string | null): { id: string; idLike: string[]; name: string };
export function linuxFamily(release: { id: string; idLike: string[] }): Family;
export function detectPackageManager(facts: Pick<Facts, 'platform' | 'osRelease' | 'has'>): {
  manager: Manager | null;
  family: Family;
};
export function installCommands(
  manager: Manager,
  packages: string[],
  options: { root: boolean },
): { run: string[][]; lines: string[] };
export function systemPlan(facts: Facts): Plan;
export function describePlan(plan: Plan): string[];

export function venvPaths(
  root: string,
  platform: NodeJS.Platform,
): { dir: string; python: string; stamp: string; pyproject: string };
export function venvStamp(pyprojectText: string | Buffer, platform: NodeJS.Platform, arch: string): string;
export function venvCommands(
  root: string,
  platform: NodeJS.Platform,
  env: NodeJS.ProcessEnv,
): { argv: string[]; env: NodeJS.ProcessEnv }[];

export const WINDOWS_BUILD_TOOLS: string;
export const WINDOWS_PYTHON: string;
export function toolchainCheck(
  facts: Facts,
  installLines?: string[],
): { missing: string[]; advice: string | null; required: boolean };
