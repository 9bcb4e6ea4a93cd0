// What a backup's payload is made of: entries, each a 4-byte length, a JSON head and (files, secrets) its bytes.
// The writer and the reader share these definitions; the reader trusts no path it finds (backup-restore.ts).
import path from 'node:path';

/** Files of the data dir beside the database that a backup carries (each only when it exists). */
export const SIDE_FILES = ['config.json', 'settings.json', 'vault.enc.json'] as const;
/** The local media store, under the data dir. */
export const MEDIA_DIR = 'blobs';

export type BackupEntry =
  | { kind: 'secrets'; size: number }
  | { kind: 'file'; path: string; size: number }
  | { kind: 'end'; files: number; secrets: number };

export function entryBytes(entry: BackupEntry): Buffer {
  const json = Buffer.from(JSON.stringify(entry));
  const len = Buffer.alloc(4);
  len.writeUInt32BE(json.length);
  return Buffer.concat([len, json]);
}

/**
 * A path a backup may restore: the database, a side file, or a file under the media folder; relative, without `..`,
 * a drive or a backslash. Anything else is a damaged (or hostile) backup.
 */
export function restorablePath(p: unknown): string | null {
  if (typeof p !== 'string' || !p || p.length > 1024 || p.includes('\\') || p.includes('\0')) return null;
  if (p === 'agent-studio.db' || (SIDE_FILES as readonly string[]).includes(p)) return p;
  const norm = path.posix.normalize(p);
  if (norm !== p || path.posix.isAbsolute(p) || /^[A-Za-z]:/.test(p)) return null;
  const parts = p.split('/');
  if (parts[0] !== MEDIA_DIR || parts.length < 2 || parts.some((s) => s === '' || s === '.' || s === '..')) return null;
  return p;
}

/** Reads entries out of the payload as it is opened, chunk by chunk. */
export class EntryReader {
  private buf: Buffer = Buffer.alloc(0);
  private current: { entry: BackupEntry; left: number } | null = null;

  constructor(
    private readonly on: {
      entry(entry: BackupEntry): void | Promise<void>;
      data(entry: BackupEntry, bytes: Buffer): void | Promise<void>;
    },
  ) {}

  async push(plain: Buffer): Promise<void> {
    this.buf = this.buf.length ? Buffer.concat([this.buf, plain]) : plain;
    for (;;) {
      if (this.current) {
        if (this.current.left === 0) {
          this.current = null;
          continue;
        }
        if (!this.buf.length) return;
        const take = Math.min(this.current.left, this.buf.length);
        if (take > 0) await this.on.data(this.current.entry, this.buf.subarray(0, take));
        this.buf = this.buf.subarray(take);
        this.current.left -= take;
        continue;
      }
      if (this.buf.length < 4) return;
      const len = this.buf.readUInt32BE(0);
      if (len > 64 * 1024) throw new Error('an entry of the backup is damaged');
      if (this.buf.length < 4 + len) return;
      const entry = JSON.parse(this.buf.subarray(4, 4 + len).toString('utf8')) as BackupEntry;
      this.buf = this.buf.subarray(4 + len);
      await this.on.entry(entry);
      if (entry.kind === 'file' || entry.kind === 'secrets') {
        if (!Number.isSafeInteger(entry.size) || entry.size < 0) throw new Error('an entry of the backup is damaged');
        this.current = { entry, left: entry.size };
      }
    }
  }

  /** True when the payload ended between entries (not in the middle of one). */
  get clean(): boolean {
    return this.current === null && this.buf.length === 0;
  }
}
