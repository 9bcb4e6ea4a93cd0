import fs from 'node:fs';
import path from 'node:path';
import pino, { type Logger } from 'pino';

export type { Logger };

/**
 * What the login engine and its browser code log through: the four levels, `log.info({ key: 1 },
 * 'message')` or `log.info('message')`. Narrower than pino's Logger (which is one), so a test can hand
 * in a plain object that records the lines.
 */
export interface LogSink {
  debug(obj: unknown, msg?: string): void;
  info(obj: unknown, msg?: string): void;
  warn(obj: unknown, msg?: string): void;
  error(obj: unknown, msg?: string): void;
}

/** A LogSink that drops everything (the engine's default when it is given none). */
export function noopLogSink(): LogSink {
  const noop = (): void => {};
  return { debug: noop, info: noop, warn: noop, error: noop };
}

/** Keys whose values never reach the log, at any of the first three levels of nesting. */
const SENSITIVE = [
  'authorization',
  'cookie',
  'cookies',
  'set-cookie',
  'cred',
  'password',
  'secret',
  'secrets',
  'token',
  'apiKey',
  'api_key',
  'plaintext',
  'storageState',
  'localStorage',
  'otp',
];

export function redactPaths(): string[] {
  const out: string[] = [];
  for (const k of SENSITIVE) {
    const seg = /^[A-Za-z_$][\w$]*$/.test(k) ? k : `["${k}"]`;
    const join = (prefix: string) => (seg.startsWith('[') ? `${prefix}${seg}` : `${prefix}.${seg}`);
    out.push(seg.startsWith('[') ? `${seg}` : seg, join('*'), join('*.*'));
  }
  return out;
}

export interface AppLogger {
  log: Logger;
  file: string;
  /** Resolves once everything logged so far is in the file. */
  flush(): Promise<void>;
  dispose(): void;
}

/** Lines wait in memory at most this long, or until this many characters are waiting, before one write takes them. */
const FLUSH_EVERY_MS = 100;
const BATCH_CHARS = 16 * 1024;

/**
 * pino's destination: lines batched in memory and written with one synchronous write per batch (every 100 ms, or
 * 16 K characters): a write per line was ~10 % of a cached login's CPU. Only synchronous writes, never one in flight,
 * so flush() always leaves every line logged so far in the file; no fsync (the OS keeps what was written).
 */
class BatchedFileWriter {
  private pending: string[] = [];
  private size = 0;

  constructor(private readonly fd: number) {}

  write(line: string): void {
    this.pending.push(line);
    this.size += line.length;
    if (this.size >= BATCH_CHARS) this.flush();
  }

  flush(): void {
    if (this.size === 0) return;
    const text = this.pending.join('');
    this.pending = [];
    this.size = 0;
    try {
      fs.writeSync(this.fd, text);
    } catch {
      // a full disk or a closed file: the lines are lost, the app goes on (a log must never take it down)
    }
  }

  close(): void {
    this.flush();
    fs.closeSync(this.fd);
  }
}

/** Every open log of this process: written out synchronously when the process exits, however it does. */
const open = new Set<BatchedFileWriter>();
let exitHookInstalled = false;
function flushAllOnExit(): void {
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  // 'exit' runs on process.exit(), a normal end and after an uncaught exception (which pino logs first):
  // the last lines reach the file. Only a SIGKILL or a power cut can lose the last 100 ms.
  process.on('exit', () => {
    for (const writer of open) writer.flush();
  });
}

/** pino to `<dataDir>/logs/agent-studio.log`, with redaction. `level: 'silent'` writes nothing. */
export function createLogger(dataDir: string, level: string): AppLogger {
  const dir = path.join(dataDir, 'logs');
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  const file = path.join(dir, 'agent-studio.log');
  // Opened synchronously so the destination is ready at once, owner-only.
  const writer = new BatchedFileWriter(fs.openSync(file, 'a', 0o600));
  const log = pino(
    {
      level,
      base: { pid: process.pid },
      redact: { paths: redactPaths(), censor: '[redacted]' },
      timestamp: pino.stdTimeFunctions.isoTime,
    },
    writer,
  );
  const timer = setInterval(() => writer.flush(), FLUSH_EVERY_MS);
  timer.unref();
  open.add(writer);
  flushAllOnExit();
  let disposed = false;
  return {
    log,
    file,
    async flush() {
      if (!disposed) writer.flush();
    },
    dispose() {
      if (disposed) return;
      disposed = true;
      clearInterval(timer);
      open.delete(writer);
      writer.close();
    },
  };
}
