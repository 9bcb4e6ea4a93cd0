// Types of scripts/test-timings.mjs for the TypeScript tests.
export interface TestTiming {
  name: string;
  status: string;
  durationMs: number;
}
/**
 * A file's CPU as test/setup/cpu-meter.ts measured it, in seconds: `totalS` is the whole process tree when `whole`
 * (a cgroup), else its own process and its reaped children (a lower bound); `selfS` is its own process.
 */
export interface FileCpu {
  totalS: number;
  selfS: number;
  whole: boolean;
  at: number;
}
export interface FileTiming {
  file: string;
  status: string;
  durationMs: number;
  cpu: FileCpu | null;
  testCount: number;
  slowest: TestTiming[];
}
export interface TimingSummary {
  files: FileTiming[];
  fileCount: number;
  testCount: number;
  failedFiles: string[];
  sumMs: number;
  cpu: { files: number; totalS: number; selfS: number; whole: boolean } | null;
  wallMs: number | null;
}
export const DEFAULT_REPORT: string;
export function readCpu(cpuDir: string, since?: number): Map<string, FileCpu>;
export function summarize(
  report: unknown,
  options?: {
    top?: number;
    slowestTests?: number;
    baseDir?: string;
    cpu?: Map<string, FileCpu>;
    by?: 'wall' | 'cpu';
  },
): TimingSummary;
export function seconds(ms: number): string;
export function format(summary: TimingSummary): string;
export function parseArgs(argv: string[]): { file: string; top: number; by: 'wall' | 'cpu' };
