// Types of scripts/electron-scan-gate.mjs for the TypeScript tests.
export interface ScanFinding {
  check: string;
  severity: string;
  file: string;
  line: number;
  column: number;
  code: string;
  description: string;
}
export interface ScanError {
  file: string;
  message: string;
  tolerable: boolean;
}
export interface AllowlistEntry {
  check: string;
  file: string;
  code?: string;
  reason: string;
}
export declare const FAILING_SEVERITIES: Set<string>;
export declare const RAISED_SEVERITY: Record<string, string>;
export declare class AllowlistError extends Error {}
export declare function parseAllowlist(data: unknown, source?: string): AllowlistEntry[];
export declare function allowlistCovers(entry: AllowlistEntry, finding: ScanFinding): boolean;
export declare function judgeScan(scan: {
  findings: ScanFinding[];
  errors?: ScanError[];
  allowlist: AllowlistEntry[];
}): {
  findings: ScanFinding[];
  lines: string[];
  problems: string[];
};
