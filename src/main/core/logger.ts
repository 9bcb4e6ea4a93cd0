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

/** pino to `<dataDir>/logs/agent-studio.log`, with redaction. `level: 'silent'` writes nothing. */
export function createLogger(dataDir: string, level: string): AppLogger {
  const dir = path.join(dataDir, 'logs');
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  const file = path.join(dir, 'agent-studio.log');
  // Opened synchronously so the destination is ready at once, owner-only. Written synchronously too: a line
  // or two per request costs microseconds, and a crash, a kill or a test reading the file never misses one
  // (an asynchronous write in flight is not covered by flushSync).
  const fd = fs.openSync(file, 'a', 0o600);
  const dest = pino.destination({ fd, sync: true });
  const log = pino(
    {
      level,
      base: { pid: process.pid },
      redact: { paths: redactPaths(), censor: '[redacted]' },
      timestamp: pino.stdTimeFunctions.isoTime,
    },
    dest,
  );
  let disposed = false;
  return {
    log,
    file,
    async flush() {
      if (!disposed) dest.flushSync();
    },
    dispose() {
      if (disposed) return;
      dest.flushSync();
      disposed = true;
      dest.end();
    },
  };
}
