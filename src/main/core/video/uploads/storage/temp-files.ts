import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { processAlive } from '../../../child-process.js';

/**
 * Names of the temp files the blob stores write (`.tmp-<pid>-<16 hex>`): the writer's process id is
 * in the name so a sweep at start can tell a dead writer's leftover (a `kill -9` mid-upload or
 * mid-download) from a file another live process is still writing — the CLI and a second server may
 * share the data dir.
 */
export function tempFileName(prefix = '.tmp-'): string {
  return `${prefix}${process.pid}-${crypto.randomBytes(8).toString('hex')}`;
}

/** `<prefix><pid>-<16 hex>`, or `<prefix><16 hex>` as written before the pid was added (legacy: owner unknown). */
function namePattern(prefix: string): RegExp {
  const p = prefix.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return new RegExp(`^${p}(?:(\\d{1,10})-)?[0-9a-f]{16}$`);
}

const PROCESS_STARTED_MS = Date.now() - process.uptime() * 1000;

/**
 * Whether a temp file's writer is gone. Our own pid: only files older than this process (a previous
 * process with the same pid, e.g. pid 1 in a restarted container). A legacy name has no owner and
 * is only ever made by a previous version, so it is a leftover.
 */
export function writerIsGone(pid: number | null, mtimeMs: number): boolean {
  if (pid === null) return true;
  if (pid === process.pid) return mtimeMs < PROCESS_STARTED_MS;
  if (pid <= 1) return false;
  return !processAlive(pid);
}

/**
 * Removes the leftover temp files in `dir` (and its subdirectories when `recursive`, never following
 * symlinks): regular files whose name is exactly one of the given prefixes' temp-file pattern and
 * whose writer is gone. Nothing else is touched. Returns how many files were removed.
 */
export async function sweepTempFiles(
  dir: string,
  opts: { prefixes?: readonly string[]; recursive?: boolean } = {},
): Promise<number> {
  const { prefixes = ['.tmp-'], recursive = true } = opts;
  const patterns = prefixes.map(namePattern);
  let removed = 0;
  const walk = async (current: string): Promise<void> => {
    let entries: fs.Dirent[];
    try {
      entries = await fs.promises.readdir(current, { withFileTypes: true });
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return;
      throw err;
    }
    for (const entry of entries) {
      const full = path.join(current, entry.name);
      // Dirent types come from lstat: a symlink is neither a directory nor a file here.
      if (entry.isDirectory()) {
        if (recursive) await walk(full);
        continue;
      }
      if (!entry.isFile()) continue;
      const match = patterns.map((p) => p.exec(entry.name)).find(Boolean);
      if (!match) continue;
      const stat = await fs.promises.lstat(full).catch(() => null);
      if (!stat?.isFile()) continue;
      if (!writerIsGone(match[1] === undefined ? null : Number(match[1]), stat.mtimeMs)) continue;
      await fs.promises.rm(full, { force: true });
      removed++;
    }
  };
  await walk(dir);
  return removed;
}
