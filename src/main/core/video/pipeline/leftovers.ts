import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import type { Logger } from '../../logger.js';

/**
 * After a crash: renderer processes of an earlier run of this data dir (their arguments name its
 * work root) are killed, and the work dirs they wrote are removed. Children normally die with the
 * server's process group; this catches the ones that were moved out of it or outlived it.
 */
export function sweepRenderLeftovers(workRoot: string, log: Logger): { killed: number; removed: number } {
  let killed = 0;
  const marker = `${path.resolve(workRoot)}${path.sep}`;
  if (process.platform !== 'win32') {
    let listing = '';
    try {
      listing = execFileSync('ps', ['-eo', 'pid=,args='], { encoding: 'utf8', timeout: 5000 });
    } catch (err) {
      log.warn({ err: (err as Error).message }, 'could not list processes to sweep old renders');
    }
    for (const line of listing.split('\n')) {
      const m = /^\s*(\d+)\s+(.*)$/.exec(line);
      if (!m || Number(m[1]) === process.pid || !m[2]!.includes(marker)) continue;
      try {
        process.kill(Number(m[1]), 'SIGKILL');
        killed++;
      } catch {
        // already gone
      }
    }
  }
  let removed = 0;
  if (fs.existsSync(workRoot)) {
    for (const entry of fs.readdirSync(workRoot)) {
      fs.rmSync(path.join(workRoot, entry), { recursive: true, force: true });
      removed++;
    }
  }
  if (killed || removed) log.info({ killed, removed }, 'swept renders left by an earlier run');
  return { killed, removed };
}
