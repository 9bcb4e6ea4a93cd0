// Types of scripts/test-timings.mjs for the TypeScript tests.
export interface TestTiming {
  name: string;
  status: string;
  durationMs: number;
}
export interface FileTiming {
  file: string;
  status: string;
  durationMs: number;
  testCount: number;
  slowest: TestTiming[];
}
export interface TimingSummary {
  files: FileTiming[];
  fileCount: number;
  testCount: number;
  failedFiles: string[];
  sumMs: number;
  wallMs: number | null;
}
export const DEFAULT_REPORT: string;
export function summarize(
  report: unknown,
  options?: { top?: number; slowestTests?: number; baseDir?: string },
): TimingSummary;
export function seconds(ms: number): string;
export function format(summary: TimingSummary): string;
export function parseArgs(argv: string[]): { file: string; top: number };
