// Settings → Crash reports' part of the IPC contract (spread into IPC_CONTRACT in ipc-contract.ts): where Electron's
// crash reporter keeps its dumps (in the data folder; nothing is uploaded), how many there are, and opening that one
// folder. The page never names a path: the main process knows the folder.
import { z } from 'zod';

const noArgs = z.undefined();

export const CrashReportsSchema = z.object({
  /** `<data dir>/crashes`: Electron's crashDumps path. */
  folder: z.string(),
  /** Minidumps (.dmp) in it, sent or not (none is ever sent). */
  count: z.number().int().min(0),
  /** When the newest was written (ms), or null. */
  newestAt: z.number().nullable(),
});
export type CrashReports = z.infer<typeof CrashReportsSchema>;

export const CRASH_REPORTS_CHANNELS = {
  'crashes:get': { kind: 'local', args: noArgs, result: CrashReportsSchema },
  /** Opens the crash dumps folder in the OS file manager (created first when no crash happened yet). */
  'crashes:openFolder': { kind: 'local', args: noArgs, result: z.object({ opened: z.boolean() }) },
} as const;
