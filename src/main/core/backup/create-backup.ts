// `npm run cli -- backup create --out FILE`: one sealed file holding what a data dir needs to be whole again on
// another computer: a consistent snapshot of the database, the files beside it, the media (unless left out) and
// every secret of the installation, from whichever store holds them (they are what a data dir copy lacks).
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { APP_VERSION } from '../../../shared/version.js';
import type { Db } from '../db/database.js';
import { schemaVersion } from '../db/database.js';
import { renameSyncRetrying } from '../fs/replace-file.js';
import { getMany, type SecretStore } from '../secrets/secret-store.js';
import { BackupSealer, minPassphraseProblem } from './backup-crypto.js';
import { entryBytes, MEDIA_DIR, SIDE_FILES, type BackupEntry } from './backup-entries.js';

export interface CreateBackupOptions {
  dataDir: string;
  db: Db;
  /** The installation's own store (below the vault file, which is copied as a file): every account it holds. */
  secrets: Pick<SecretStore, 'listAccounts' | 'get' | 'getMany'>;
  out: string;
  passphrase: string;
  /** `blobs/` (uploaded and generated media); false leaves it out (an S3 bucket is never copied). */
  media: boolean;
}

export interface BackupSummary {
  file: string;
  files: number;
  bytes: number;
  secrets: number;
  media: boolean;
}

/** Every file under `dir`, relative to `root`, with `/` separators (symlinks are not followed). */
function walk(root: string, dir: string): string[] {
  let names: fs.Dirent[];
  try {
    names = fs.readdirSync(dir, { withFileTypes: true });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw err;
  }
  return names.flatMap((d) => {
    const full = path.join(dir, d.name);
    if (d.isDirectory()) return walk(root, full);
    return d.isFile() ? [path.relative(root, full).split(path.sep).join('/')] : [];
  });
}

export async function createBackup(opts: CreateBackupOptions): Promise<BackupSummary> {
  const problem = minPassphraseProblem(opts.passphrase);
  if (problem) throw new Error(problem);
  const out = path.resolve(opts.out);
  const inside = path.relative(path.resolve(opts.dataDir), out);
  if (!inside.startsWith('..') && !path.isAbsolute(inside)) {
    throw new Error('write the backup outside the data dir (it would hold itself next time)');
  }
  const scratch = path.join(opts.dataDir, 'tmp');
  fs.mkdirSync(scratch, { recursive: true, mode: 0o700 });
  const snapshot = path.join(scratch, `backup-${crypto.randomBytes(6).toString('hex')}.db`);
  const partial = `${out}.partial-${crypto.randomBytes(4).toString('hex')}`;
  let fd: number | null = null;
  try {
    // SQLite's online backup: a consistent copy while the server and the CLI keep writing.
    await opts.db.backup(snapshot);
    const files: Array<{ name: string; from: string }> = [{ name: 'agent-studio.db', from: snapshot }];
    for (const name of SIDE_FILES) {
      const from = path.join(opts.dataDir, name);
      if (fs.existsSync(from)) files.push({ name, from });
    }
    if (opts.media) {
      for (const rel of walk(opts.dataDir, path.join(opts.dataDir, MEDIA_DIR))) {
        files.push({ name: rel, from: path.join(opts.dataDir, rel) });
      }
    }
    const accounts = await opts.secrets.listAccounts('');
    const values = await getMany(opts.secrets as SecretStore, accounts);
    const secrets = accounts.flatMap((a) => {
      const v = values.get(a);
      return v == null ? [] : [[a, v] as const];
    });
    const sized = files.map((f) => ({ ...f, size: fs.statSync(f.from).size }));
    const bytes = sized.reduce((n, f) => n + f.size, 0);

    fd = fs.openSync(partial, 'wx', 0o600);
    const target = fd;
    const emit = async (b: Buffer) => void fs.writeSync(target, b);
    const sealer = await BackupSealer.open(
      opts.passphrase,
      {
        format: 'agent-studio-backup',
        v: 1,
        app_version: APP_VERSION,
        schema: schemaVersion(opts.db),
        created_at: Date.now(),
        contents: { files: sized.length, bytes, secrets: secrets.length, media: opts.media },
      },
      emit,
    );
    const secretsJson = Buffer.from(JSON.stringify(secrets));
    await sealer.push(entryBytes({ kind: 'secrets', size: secretsJson.length }));
    await sealer.push(secretsJson);
    for (const f of sized) await pushFile(sealer, f);
    const end: BackupEntry = { kind: 'end', files: sized.length, secrets: secrets.length };
    await sealer.push(entryBytes(end));
    await sealer.end();
    fs.fsyncSync(fd);
    fs.closeSync(fd);
    fd = null;
    renameSyncRetrying(partial, out);
    return { file: out, files: sized.length, bytes, secrets: secrets.length, media: opts.media };
  } finally {
    if (fd !== null) fs.closeSync(fd);
    fs.rmSync(partial, { force: true });
    for (const f of [snapshot, `${snapshot}-wal`, `${snapshot}-shm`]) fs.rmSync(f, { force: true });
  }
}

/** One file: its entry, then its bytes as read now (the size said is the size sent: a file that grew is cut). */
async function pushFile(sealer: BackupSealer, f: { name: string; from: string; size: number }): Promise<void> {
  await sealer.push(entryBytes({ kind: 'file', path: f.name, size: f.size }));
  const fd = fs.openSync(f.from, 'r');
  try {
    const buf = Buffer.alloc(256 * 1024);
    let left = f.size;
    while (left > 0) {
      const n = fs.readSync(fd, buf, 0, Math.min(buf.length, left), null);
      if (n === 0) throw new Error(`${f.name} became shorter while it was backed up; try again`);
      await sealer.push(Buffer.from(buf.subarray(0, n)));
      left -= n;
    }
  } finally {
    fs.closeSync(fd);
  }
}
