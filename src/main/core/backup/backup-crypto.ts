// The sealed container of a backup: a passphrase, scrypt, and AES-256-GCM over the payload in 64 KiB chunks (the
// STREAM construction age uses: a chunk's nonce is its counter and a last-chunk flag, so chunks cannot be dropped,
// reordered or cut off at the end without the reader noticing). The header (format, app and schema versions, KDF
// parameters) is bound to every chunk, so it cannot be changed either.
import crypto from 'node:crypto';
import { promisify } from 'node:util';

const scrypt = promisify(crypto.scrypt) as (
  password: crypto.BinaryLike,
  salt: crypto.BinaryLike,
  keylen: number,
  options: crypto.ScryptOptions,
) => Promise<Buffer>;

export const BACKUP_MAGIC = Buffer.from('AGENT-STUDIO-BACKUP\n');
export const CHUNK = 64 * 1024;
const TAG = 16;
export const SEALED_CHUNK = CHUNK + TAG;
/** scrypt at 64 MiB of memory: about a quarter of a second on a laptop, per guess. */
const KDF = { N: 2 ** 16, r: 8, p: 1 } as const;
/** A file may ask for more work than we would choose, up to this (1 GiB of memory): never unbounded. */
const MAX_N = 2 ** 20;

export interface BackupHeader {
  format: 'agent-studio-backup';
  v: 1;
  app_version: string;
  schema: number;
  created_at: number;
  /** What the backup holds, for `backup restore` to say before it starts (counts, never names of secrets). */
  contents: { files: number; bytes: number; secrets: number; media: boolean };
  kdf: { name: 'scrypt'; N: number; r: number; p: number; salt: string };
  /** HMAC under a key of its own: tells a wrong passphrase apart from a changed file before any chunk is opened. */
  check: string;
}

export class BackupPassphraseError extends Error {
  override name = 'BackupPassphraseError';
}
export class BackupDamagedError extends Error {
  override name = 'BackupDamagedError';
}

interface Keys {
  payload: Buffer;
  check: Buffer;
}

async function deriveKeys(passphrase: string, kdf: BackupHeader['kdf']): Promise<Keys> {
  const salt = Buffer.from(kdf.salt, 'base64');
  const master = await scrypt(passphrase.normalize('NFC'), salt, 32, {
    N: kdf.N,
    r: kdf.r,
    p: kdf.p,
    maxmem: 128 * kdf.N * kdf.r * 2,
  });
  const sub = (info: string) => Buffer.from(crypto.hkdfSync('sha256', master, salt, info, 32));
  return { payload: sub('agent-studio backup payload'), check: sub('agent-studio backup passphrase check') };
}

const checkOf = (keys: Keys, header: Omit<BackupHeader, 'check'>) =>
  crypto.createHmac('sha256', keys.check).update(JSON.stringify(header)).digest('base64');

function nonce(counter: number, last: boolean): Buffer {
  const n = Buffer.alloc(12);
  n.writeUIntBE(counter, 5, 6);
  n[11] = last ? 1 : 0;
  return n;
}

/** The bytes before the first chunk: magic, the header's length (4 bytes), the header. */
function headerBytes(header: BackupHeader): Buffer {
  const json = Buffer.from(JSON.stringify(header));
  const len = Buffer.alloc(4);
  len.writeUInt32BE(json.length);
  return Buffer.concat([BACKUP_MAGIC, len, json]);
}

export function minPassphraseProblem(passphrase: string): string | null {
  return [...passphrase].length < 12 ? 'the backup passphrase must be at least 12 characters' : null;
}

/** Seals a payload, chunk by chunk, as it is written: `push` the plaintext, then `end`. */
export class BackupSealer {
  private pending: Buffer[] = [];
  private pendingBytes = 0;
  private counter = 0;
  private readonly aad: Buffer;

  private constructor(
    private readonly keys: Keys,
    readonly head: Buffer,
    private readonly emit: (sealed: Buffer) => Promise<void>,
  ) {
    this.aad = crypto.createHash('sha256').update(head).digest();
  }

  static async open(
    passphrase: string,
    header: Omit<BackupHeader, 'kdf' | 'check'>,
    emit: (bytes: Buffer) => Promise<void>,
  ): Promise<BackupSealer> {
    const kdf = { name: 'scrypt' as const, ...KDF, salt: crypto.randomBytes(32).toString('base64') };
    const keys = await deriveKeys(passphrase, kdf);
    const unchecked = { ...header, kdf };
    const head = headerBytes({ ...unchecked, check: checkOf(keys, unchecked) });
    await emit(head);
    return new BackupSealer(keys, head, emit);
  }

  private seal(plain: Buffer, last: boolean): Buffer {
    const cipher = crypto.createCipheriv('aes-256-gcm', this.keys.payload, nonce(this.counter++, last));
    cipher.setAAD(this.aad);
    return Buffer.concat([cipher.update(plain), cipher.final(), cipher.getAuthTag()]);
  }

  async push(data: Buffer): Promise<void> {
    this.pending.push(data);
    this.pendingBytes += data.length;
    // A full chunk is sealed only once more data follows it: the last chunk is then never an empty one after a full.
    while (this.pendingBytes > CHUNK) {
      const all = Buffer.concat(this.pending);
      await this.emit(this.seal(all.subarray(0, CHUNK), false));
      this.pending = [all.subarray(CHUNK)];
      this.pendingBytes = all.length - CHUNK;
    }
  }

  async end(): Promise<void> {
    await this.emit(this.seal(Buffer.concat(this.pending), true));
    this.pending = [];
    this.pendingBytes = 0;
  }
}

/** Reads the header of a backup file's first bytes (at least the magic, the length and the header). */
export function parseHeader(first: Buffer): { header: BackupHeader; length: number } {
  if (first.length < BACKUP_MAGIC.length + 4 || !first.subarray(0, BACKUP_MAGIC.length).equals(BACKUP_MAGIC)) {
    throw new BackupDamagedError('this is not an Agent Studio backup (no backup header)');
  }
  const len = first.readUInt32BE(BACKUP_MAGIC.length);
  const start = BACKUP_MAGIC.length + 4;
  if (len > 64 * 1024 || first.length < start + len) throw new BackupDamagedError('the backup header is damaged');
  let header: BackupHeader;
  try {
    header = JSON.parse(first.subarray(start, start + len).toString('utf8')) as BackupHeader;
  } catch {
    throw new BackupDamagedError('the backup header is damaged');
  }
  const k = header?.kdf;
  if (
    header?.format !== 'agent-studio-backup' ||
    header.v !== 1 ||
    k?.name !== 'scrypt' ||
    ![k.N, k.r, k.p].every((x) => Number.isInteger(x) && x > 0) ||
    k.N > MAX_N ||
    (k.N & (k.N - 1)) !== 0 ||
    k.r > 32 ||
    k.p > 16 ||
    typeof k.salt !== 'string'
  ) {
    throw new BackupDamagedError('the backup header is not one this version reads');
  }
  return { header, length: start + len };
}

/** Opens chunks in order; the passphrase is checked against the header first. */
export class BackupOpener {
  private counter = 0;
  private constructor(
    private readonly keys: Keys,
    private readonly aad: Buffer,
  ) {}

  static async open(passphrase: string, header: BackupHeader, head: Buffer): Promise<BackupOpener> {
    const keys = await deriveKeys(passphrase, header.kdf);
    const { check, ...unchecked } = header;
    const expected = Buffer.from(checkOf(keys, unchecked), 'base64');
    const given = Buffer.from(String(check), 'base64');
    if (given.length !== expected.length || !crypto.timingSafeEqual(given, expected)) {
      throw new BackupPassphraseError('the passphrase does not open this backup (or its header was changed)');
    }
    return new BackupOpener(keys, crypto.createHash('sha256').update(head).digest());
  }

  open(sealed: Buffer, last: boolean): Buffer {
    if (sealed.length < TAG) throw new BackupDamagedError('the backup is cut short');
    const decipher = crypto.createDecipheriv('aes-256-gcm', this.keys.payload, nonce(this.counter++, last));
    decipher.setAAD(this.aad);
    decipher.setAuthTag(sealed.subarray(sealed.length - TAG));
    try {
      return Buffer.concat([decipher.update(sealed.subarray(0, sealed.length - TAG)), decipher.final()]);
    } catch {
      throw new BackupDamagedError('the backup was changed or cut short after it was made (a chunk does not open)');
    }
  }
}
