// Backup and restore of a data dir with media (issue 39): `backup create` and `backup restore` as a person runs them
// (the CLI, each in its own process), on a data dir holding BACKUP_MEDIA_MB of media in 4 MiB files. Measured: the
// wall time and throughput of each, and each process's peak memory (GNU time's maximum RSS, where it is installed),
// which shows whether the file is streamed (a bounded peak) or held whole (a peak that grows with the media).
import { spawnSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { tempDir } from '../test/helpers/temp-dir.js';
import { REPO_ROOT } from '../test/helpers/repo-root.js';
import { round } from './lib/stats.js';

const MEDIA_MB = Number(process.env.BACKUP_MEDIA_MB ?? 256);
const FILE_MB = 4;
const PASSPHRASE = 'a benchmark passphrase';
const GNU_TIME = '/usr/bin/time';

/** One CLI command; its wall time and, with GNU time, its peak resident memory (KiB). */
function cli(args: string[], env: NodeJS.ProcessEnv = {}): { ms: number; peakRssMb: number | null } {
  const node = [process.execPath, '--import', 'tsx', path.join(REPO_ROOT, 'src/main/cli.ts'), ...args];
  const timed = fs.existsSync(GNU_TIME);
  const started = performance.now();
  const res = spawnSync(timed ? GNU_TIME : node[0], timed ? ['-f', 'PEAK_RSS_KB=%M', ...node] : node.slice(1), {
    cwd: REPO_ROOT,
    env: { ...process.env, AGENT_STUDIO_BACKUP_PASSPHRASE: PASSPHRASE, ...env },
    encoding: 'utf8',
  });
  const ms = performance.now() - started;
  if (res.status !== 0) throw new Error(`cli ${args.join(' ')} exited ${res.status}: ${res.stderr}`);
  const kb = /PEAK_RSS_KB=(\d+)/.exec(res.stderr)?.[1];
  return { ms, peakRssMb: kb ? round(Number(kb) / 1024, 1) : null };
}

export async function runBackupBench(): Promise<Record<string, unknown>> {
  const dataDir = tempDir();
  cli(['orgs', 'create', 'bench', '--data-dir', dataDir]);
  cli(['webhooks', 'secret', '--org', 'bench', '--data-dir', dataDir]);
  const media = path.join(dataDir, 'blobs', 'bench');
  fs.mkdirSync(media, { recursive: true });
  for (let i = 0; i < MEDIA_MB / FILE_MB; i++) {
    fs.writeFileSync(path.join(media, `file-${i}.bin`), crypto.randomBytes(FILE_MB * 1024 * 1024));
  }
  const file = path.join(tempDir(), 'bench.asb');
  const create = cli(['backup', 'create', '--out', file, '--data-dir', dataDir]);
  const size = fs.statSync(file).size;
  const target = path.join(tempDir(), 'restored');
  const restore = cli(['backup', 'restore', file, '--data-dir', target]);
  const restoredMb = fs.readdirSync(path.join(target, 'blobs', 'bench')).length * FILE_MB;
  if (restoredMb !== MEDIA_MB) throw new Error(`restored ${restoredMb} MB of media, not ${MEDIA_MB}`);
  const mbps = (ms: number) => round(size / 1024 / 1024 / (ms / 1000), 1);
  const result = {
    media_mb: MEDIA_MB,
    backup_file_mb: round(size / 1024 / 1024, 1),
    create: { seconds: round(create.ms / 1000, 2), mb_per_s: mbps(create.ms), peak_rss_mb: create.peakRssMb },
    restore: { seconds: round(restore.ms / 1000, 2), mb_per_s: mbps(restore.ms), peak_rss_mb: restore.peakRssMb },
    note: 'each a CLI process (tsx start-up included); the peak is the whole process, Node and the core included',
  };
  process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
  return result;
}
