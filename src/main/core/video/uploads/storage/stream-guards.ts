import fs from 'node:fs';
import path from 'node:path';
import { Readable, Transform, type TransformCallback } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { renameRetrying } from '../../../fs/replace-file.js';
import { tempFileName } from './temp-files.js';

export interface ByteGateOptions {
  maxBytes: number;
  /** The error to fail with once more than maxBytes have passed. */
  tooLarge: () => Error;
  /** Called once with the first `inspectBytes` bytes (or fewer at the end of a short stream); throw to reject. */
  inspect?: (head: Buffer) => void;
  inspectBytes?: number;
}

/**
 * A pass-through that counts bytes, fails as soon as the count passes maxBytes and lets a caller
 * check the first bytes (magic numbers) before anything else goes on. Holds at most inspectBytes.
 */
export class ByteGate extends Transform {
  bytes = 0;
  private head: Buffer[] | null = [];
  private headLength = 0;

  constructor(private readonly opts: ByteGateOptions) {
    super();
  }

  override _transform(chunk: Buffer, _enc: BufferEncoding, done: TransformCallback): void {
    this.bytes += chunk.length;
    if (this.bytes > this.opts.maxBytes) return done(this.opts.tooLarge());
    try {
      if (this.head) {
        this.head.push(chunk);
        this.headLength += chunk.length;
        if (this.headLength < (this.opts.inspectBytes ?? 16)) return done();
        this.release();
        return done();
      }
      done(null, chunk);
    } catch (err) {
      done(err as Error);
    }
  }

  override _flush(done: TransformCallback): void {
    try {
      if (this.head) this.release();
      done();
    } catch (err) {
      done(err as Error);
    }
  }

  /** Runs the inspection on the buffered head, then lets it through. */
  private release(): void {
    const buffered = Buffer.concat(this.head ?? []);
    this.head = null;
    this.opts.inspect?.(buffered);
    this.push(buffered);
  }
}

/** Reads the first n bytes (fewer if the stream is shorter) and returns them with a stream that still yields everything. */
export async function peekStream(src: Readable, n: number): Promise<{ head: Buffer; stream: Readable }> {
  const it = src[Symbol.asyncIterator]() as AsyncIterator<Buffer>;
  const chunks: Buffer[] = [];
  let length = 0;
  let ended = false;
  while (length < n) {
    const r = await it.next();
    if (r.done) {
      ended = true;
      break;
    }
    const chunk = Buffer.isBuffer(r.value) ? r.value : Buffer.from(r.value);
    chunks.push(chunk);
    length += chunk.length;
  }
  const head = Buffer.concat(chunks);
  async function* replay(): AsyncGenerator<Buffer> {
    if (head.length) yield head;
    if (ended) return;
    for (;;) {
      const r = await it.next();
      if (r.done) return;
      yield r.value;
    }
  }
  const stream = Readable.from(replay(), { objectMode: false });
  // Closing the replay early (e.g. a rejected download) must also release the source.
  stream.once('close', () => {
    if (!src.destroyed && !src.readableEnded) src.destroy();
  });
  return { head: head.subarray(0, n), stream };
}

/**
 * Marks a stream's errors as handled until a pipeline consumes it: a put may await (mkdir, open,
 * credentials) before it pipes, and an error in that gap must not become an uncaught exception.
 * The pipeline still sees the error (the stream stays errored).
 */
export function holdErrors(body: Readable | Buffer): void {
  if (!Buffer.isBuffer(body)) body.on('error', () => {});
}

/**
 * Checks a completely written temp file before it becomes visible (e.g. decodes it as media) and
 * returns what to record about it; throwing refuses the file, which is then removed.
 */
export type FileCheck<T> = (tempFile: string, size: number) => Promise<T>;

/**
 * Streams `source` into `dest` atomically: a temp file in the same directory, fsync, the optional
 * check, rename. On any error the temp file is removed, so nothing partial is ever visible at `dest`.
 * Temp files are named by `tempFileName()` so a sweep at start can remove a killed process's leftovers.
 */
export async function writeFileAtomic<T = undefined>(
  dest: string,
  source: Readable | Buffer,
  check?: FileCheck<T>,
): Promise<{ size: number; checked: T | undefined }> {
  const dir = path.dirname(dest);
  await fs.promises.mkdir(dir, { recursive: true });
  const tmp = path.join(dir, tempFileName());
  let size = 0;
  let checked: T | undefined;
  try {
    // flush: fsync before close, so the rename below never exposes a file whose bytes are not on disk.
    if (Buffer.isBuffer(source)) {
      await fs.promises.writeFile(tmp, source, { flag: 'wx', mode: 0o600, flush: true });
      size = source.length;
    } else {
      const out = fs.createWriteStream(tmp, { flags: 'wx', mode: 0o600, flush: true, highWaterMark: 1024 * 1024 });
      await pipeline(source, out);
      size = out.bytesWritten;
    }
    if (check) checked = await check(tmp, size);
    await renameRetrying(tmp, dest);
  } catch (err) {
    await fs.promises.rm(tmp, { force: true });
    throw err;
  }
  await fsyncDir(dir);
  return { size, checked };
}

/** Makes a rename durable (not supported on Windows, where it is skipped). */
async function fsyncDir(dir: string): Promise<void> {
  if (process.platform === 'win32') return;
  const h = await fs.promises.open(dir, 'r').catch(() => null);
  if (!h) return;
  await h.sync().catch(() => {});
  await h.close().catch(() => {});
}
