// `npm run cli -- backup restore FILE`: a backup made by `backup create` becomes a working data dir on this computer,
// its secrets put into this computer's secret store. Everything is opened and checked in a folder of its own first;
// the data dir receives the files only when the whole backup opened, so a wrong passphrase, a changed or cut file,
// or a backup of a newer version leaves it as it was.
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { openDatabase } from '../db/database.js';
import { MIGRATIONS } from '../db/migrations/index.js';
import { renameSyncRetrying } from '../fs/replace-file.js';
import type { InventoriedSecretStore } from '../secrets/secret-inventory.js';
import type { SecretEntry } from '../secrets/secret-store.js';
import { BackupDamagedError, BackupOpener, parseHeader, SEALED_CHUNK, type BackupHeader } from './backup-crypto.js';
import { EntryReader, restorablePath, type BackupEntry } from './backup-entries.js';

export class RestoreRefusedError extends Error {
  override name = 'RestoreRefusedError';
}

/**
 * The restored data dir's core, opened on the folder being restored (the caller builds it: this folder never imports
 * the composition root): its own secret store takes the secrets.
 */
export interface RestoreTarget {
  secretsInventory: Pick<InventoriedSecretStore, 'setMany' | 'missing' | 'backend'>;
  dispose(): Promise<void>;
}

export interface RestoreOptions {
  file: string;
  dataDir: string;
  passphrase: string;
  openTarget(dataDir: string): Promise<RestoreTarget>;
}

export interface RestoreSummary {
  header: BackupHeader;
  files: number;
  secrets: number;
  secretsBackend: 'keychain' | 'file';
  /** Secrets the installation had named that the backup did not hold (missing when the backup was made). */
  stillMissing: string[];
}

/** Reads the file's header: what `restore` says before it asks for the passphrase. */
export function readBackupHeader(file: string): { header: BackupHeader; head: Buffer } {
  const fd = fs.openSync(file, 'r');
  try {
    const first = Buffer.alloc(70 * 1024);
    const n = fs.readSync(fd, first, 0, first.length, 0);
    const { header, length } = parseHeader(first.subarray(0, n));
    return { header, head: Buffer.from(first.subarray(0, length)) };
  } finally {
    fs.closeSync(fd);
  }
}

export async function restoreBackup(opts: RestoreOptions): Promise<RestoreSummary> {
  const dataDir = path.resolve(opts.dataDir);
  if (fs.existsSync(path.join(dataDir, 'agent-studio.db'))) {
    throw new RestoreRefusedError(
      `${dataDir} already holds an installation; restore into a new data dir (--data-dir DIR), or move this one away first`,
    );
  }
  // Only a new or empty folder: a restore replaces what it writes, and a folder of other things (a home directory
  // given by mistake) must never lose a `config.json` or `logs` of its own.
  const present = fs.existsSync(dataDir) ? fs.readdirSync(dataDir).filter((n) => !n.startsWith('.restore-')) : [];
  if (present.length) {
    throw new RestoreRefusedError(
      `${dataDir} is not empty (${present.slice(0, 3).join(', ')}${present.length > 3 ? ', …' : ''}); restore into a new ` +
        'or empty folder (--data-dir DIR)',
    );
  }
  const { header, head } = readBackupHeader(opts.file);
  const known = Math.max(...MIGRATIONS.map((m) => m.version));
  if (header.schema > known) {
    throw new RestoreRefusedError(
      `this backup was made by a newer Agent Studio (${header.app_version}, database schema ${header.schema}; this ` +
        `version knows schemas up to ${known}); restore it with that version or a later one`,
    );
  }
  const opener = await BackupOpener.open(opts.passphrase, header, head);
  fs.mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  const staging = path.join(dataDir, `.restore-${crypto.randomBytes(6).toString('hex')}`);
  fs.mkdirSync(staging, { mode: 0o700 });
  try {
    const { secrets, files } = await unpack(opts.file, head.length, opener, staging);
    prepareDatabase(staging);
    const target = await opts.openTarget(staging);
    let stillMissing: string[];
    let backend: 'keychain' | 'file';
    try {
      await target.secretsInventory.setMany(secrets);
      stillMissing = await target.secretsInventory.missing();
      backend = target.secretsInventory.backend;
    } finally {
      await target.dispose();
    }
    publish(staging, dataDir);
    return { header, files, secrets: secrets.length, secretsBackend: backend, stillMissing };
  } finally {
    fs.rmSync(staging, { recursive: true, force: true });
  }
}

/** Opens every chunk in order and writes the files into `staging`; the secrets are kept in memory. */
async function unpack(
  file: string,
  start: number,
  opener: BackupOpener,
  staging: string,
): Promise<{ secrets: SecretEntry[]; files: number }> {
  const secretParts: Buffer[] = [];
  let out: number | null = null;
  let files = 0;
  let end: Extract<BackupEntry, { kind: 'end' }> | null = null;
  const closeOut = () => {
    if (out !== null) fs.closeSync(out);
    out = null;
  };
  const reader = new EntryReader({
    entry(entry) {
      closeOut();
      if (end) throw new BackupDamagedError('the backup goes on after its end');
      if (entry.kind === 'end') end = entry;
      else if (entry.kind === 'file') {
        const rel = restorablePath(entry.path);
        if (!rel) throw new BackupDamagedError('the backup names a file outside what a data dir holds');
        const dest = path.join(staging, ...rel.split('/'));
        fs.mkdirSync(path.dirname(dest), { recursive: true, mode: 0o700 });
        out = fs.openSync(dest, 'wx', 0o600);
        files++;
      } else if (entry.kind !== 'secrets') throw new BackupDamagedError('the backup holds an entry of an unknown kind');
    },
    data(entry, bytes) {
      if (entry.kind === 'secrets') secretParts.push(Buffer.from(bytes));
      else if (out !== null) fs.writeSync(out, bytes);
    },
  });
  const fd = fs.openSync(file, 'r');
  try {
    const size = fs.fstatSync(fd).size;
    const buf = Buffer.alloc(SEALED_CHUNK);
    let offset = start;
    if (offset >= size) throw new BackupDamagedError('the backup is cut short');
    while (offset < size) {
      const want = Math.min(SEALED_CHUNK, size - offset);
      const n = fs.readSync(fd, buf, 0, want, offset);
      if (n !== want) throw new BackupDamagedError('the backup could not be read whole');
      offset += n;
      await reader.push(opener.open(buf.subarray(0, n), offset === size));
    }
  } finally {
    fs.closeSync(fd);
    closeOut();
  }
  const done = end as Extract<BackupEntry, { kind: 'end' }> | null;
  if (!done || !reader.clean || done.files !== files) throw new BackupDamagedError('the backup is incomplete');
  const secrets = JSON.parse(Buffer.concat(secretParts).toString('utf8') || '[]') as unknown;
  if (
    !Array.isArray(secrets) ||
    secrets.length !== done.secrets ||
    !secrets.every((e) => Array.isArray(e) && e.length === 2 && e.every((x) => typeof x === 'string'))
  ) {
    throw new BackupDamagedError('the secrets of the backup are damaged');
  }
  if (!fs.existsSync(path.join(staging, 'agent-studio.db'))) throw new BackupDamagedError('the backup has no database');
  return { secrets: secrets as SecretEntry[], files };
}

/**
 * The restored database, brought to this version's schema, as a new installation of the same data: a new install id
 * (the keychain items of the original, if it still runs on this computer, stay its own) and no record of where the
 * secrets were kept (this computer's store is chosen afresh).
 */
function prepareDatabase(staging: string): void {
  const db = openDatabase(staging);
  try {
    db.prepare("UPDATE settings SET value = ? WHERE key = 'install_id'").run(crypto.randomUUID());
    db.prepare("DELETE FROM settings WHERE key = 'secrets_backend'").run();
  } finally {
    db.close();
  }
}

/**
 * Moves the opened files into the (empty) data dir, the database last: a data dir without it is not an installation,
 * so a restore cut short is refused by nothing and can be run again once the folder is emptied.
 */
function publish(staging: string, dataDir: string): void {
  // agent-studio.db-wal and -shm (longer names) before agent-studio.db itself
  const rank = (n: string) => (n.startsWith('agent-studio.db') ? 1_000 - n.length : 0);
  for (const name of fs.readdirSync(staging).sort((a, b) => rank(a) - rank(b))) {
    renameSyncRetrying(path.join(staging, name), path.join(dataDir, name));
  }
}
