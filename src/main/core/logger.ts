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

/** Keys whose values never reach the log, at any of the first three levels of nesting (any letter case). */
const SENSITIVE = new Set(
  [
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
  ].map((k) => k.toLowerCase()),
);
const CENSOR = '[redacted]';
/** Levels whose keys are looked at: the line's own (0), and two below it. */
const REDACT_DEPTH = 3;

/**
 * The line's object with every sensitive key's value replaced by `[redacted]`; the caller's objects are never
 * changed (copied where something is replaced; the same object back when nothing is). One walk over the keys that are
 * there, instead of pino's path redaction: its 45 wildcard paths cost ~60 µs a line, more than the rest of a cached
 * login. An Error is copied as an Error of its own class (pino's serializer still names its type, message and stack).
 */
export function redactLogObject<T>(value: T, depth = 0): T {
  if (depth >= REDACT_DEPTH || value === null || typeof value !== 'object' || ArrayBuffer.isView(value)) return value;
  let copy: Record<string, unknown> | null = null;
  for (const key of Object.keys(value)) {
    const v = (value as Record<string, unknown>)[key];
    const next = SENSITIVE.has(key.toLowerCase()) ? CENSOR : redactLogObject(v, depth + 1);
    if (next === v) continue;
    copy ??= shallowCopy(value);
    copy[key] = next;
  }
  return (copy ?? value) as T;
}

function shallowCopy(value: object): Record<string, unknown> {
  if (Array.isArray(value)) return [...value] as unknown as Record<string, unknown>;
  if (!(value instanceof Error)) return { ...value } as Record<string, unknown>;
  const copy = Object.create(Object.getPrototypeOf(value) as object) as Record<string, unknown>;
  for (const key of Object.getOwnPropertyNames(value)) {
    const d = Object.getOwnPropertyDescriptor(value, key)!;
    // `stack` is an accessor on the error's own internals in V8: its value is copied, not the accessor.
    const v: unknown = 'value' in d ? d.value : (value as unknown as Record<string, unknown>)[key];
    Object.defineProperty(copy, key, { value: v, writable: true, enumerable: d.enumerable, configurable: true });
  }
  return copy;
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

/** pino's isoTime, the string made once per millisecond (toISOString was ~1 % of a cached login). */
let lastMs = 0;
let lastTime = '';
function isoTime(): string {
  const now = Date.now();
  if (now !== lastMs) {
    lastMs = now;
    lastTime = `,"time":"${new Date(now).toISOString()}"`;
  }
  return lastTime;
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
      formatters: { log: (obj) => redactLogObject(obj) },
      timestamp: isoTime,
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
