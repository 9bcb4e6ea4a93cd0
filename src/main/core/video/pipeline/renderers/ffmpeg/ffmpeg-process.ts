import { spawn } from 'node:child_process';
import { ProviderError } from '../../video-provider.js';
import { tiedToParent } from '../../../../child-process.js';

export interface MediaToolRun {
  /** What the run does, for messages: "render the video", "read the input 'photo'". */
  what: string;
  signal?: AbortSignal;
  /** Output duration: with onProgress, ffmpeg's `-progress` out_time becomes 0-100. */
  durationSec?: number;
  onProgress?(percent: number): void;
  /** Folders whose paths are cut out of error messages (work dir, fonts dir). */
  hidePaths?: string[];
  /** A safety net for helper runs (probes): the process is killed after this long. */
  timeoutMs?: number;
  /** How long SIGTERM may take before SIGKILL. */
  killGraceMs?: number;
  /** A name for each `-i` input in order: a failure that mentions `#N:` names that input. */
  inputNames?: string[];
}

const STDERR_KEEP_BYTES = 16 * 1024;
const STDOUT_MAX_BYTES = 4 * 1024 * 1024;
const ERROR_LINES = 4;

/**
 * Paths become their last part and URLs lose everything after the host: an error message says which
 * file was wrong without revealing where the data lives (or a signed URL's token).
 */
export function sanitizeToolOutput(text: string, hidePaths: string[] = []): string {
  let out = text;
  for (const dir of hidePaths.filter(Boolean).sort((a, b) => b.length - a.length)) {
    const escaped = dir.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    out = out.replace(new RegExp(`(?:file:)?${escaped}[\\\\/]?`, 'g'), '');
  }
  return out
    .replace(/\b[a-z][a-z0-9+.-]*:\/\/([^/\s'"]+)[^\s'"]*/gi, '<url $1>')
    .replace(/(?<=^|[\s'"([=,])(?:file:)?(?:[A-Za-z]:)?(?:[\\/][^\\/\s'":]+)*[\\/]([^\\/\s'":]+)/g, '$1');
}

/** The last meaningful stderr lines, cleaned for a person to read. */
export function lastLines(stderr: string, hidePaths: string[] = []): string {
  return stderr
    .split(/\r?\n/)
    .map((l) => sanitizeToolOutput(l.trim(), hidePaths))
    .map((l) => l.replace(/ @ 0x[0-9a-f]+\]/g, ']'))
    .filter(Boolean)
    .slice(-ERROR_LINES)
    .map((l) => (l.length > 300 ? `${l.slice(0, 300)}…` : l))
    .join(' | ');
}

/** The inputs an ffmpeg error is about (`stream #1:0`, `Input #1`), by name. */
export function inputsMentioned(stderr: string, names: string[] = []): string[] {
  const found = new Set<string>();
  for (const m of stderr.matchAll(/(?:stream|input) #(\d+)/gi)) {
    const name = names[Number(m[1])];
    if (name) found.add(`'${name}'`);
  }
  return [...found];
}

/** Parses `-progress` key=value lines; returns microseconds of output written so far, or null. */
export function progressMicros(line: string): number | null {
  const m = /^out_time_us=(\d+)\s*$/.exec(line) ?? /^out_time_ms=(\d+)\s*$/.exec(line); // both are µs
  return m ? Number(m[1]) : null;
}

/**
 * Runs ffmpeg or ffprobe as a child process (never through a shell) and resolves with its stdout.
 * With onProgress, `-progress pipe:1 -nostats` is added and out_time is reported as a percentage.
 * An abort (cancel, the job's time limit) sends SIGTERM, then SIGKILL after a short grace; the promise
 * settles only once the process has exited, so no child outlives a rejected run. Failures reject with a
 * ProviderError carrying the last stderr lines, with paths cut out.
 */
export function runMediaTool(binary: string, args: string[], run: MediaToolRun): Promise<string> {
  const progress = run.onProgress && run.durationSec ? ['-progress', 'pipe:1', '-nostats'] : [];
  const tool = binary.split(/[\\/]/).pop() ?? binary;
  // ffprobe has no -nostdin (it never reads stdin); stdin is /dev/null for both anyway.
  const quiet = /ffprobe/i.test(tool) ? [] : ['-nostdin'];
  const fullArgs = ['-hide_banner', ...quiet, '-loglevel', 'error', ...progress, ...args];
  return new Promise<string>((resolve, reject) => {
    if (run.signal?.aborted) return reject(new ProviderError(`Stopped before ${tool} could ${run.what}.`));
    // Tied to this process: a render never outlives the server, even one killed with -9.
    const tied = tiedToParent(binary, fullArgs);
    const child = spawn(tied.command, tied.args, {
      stdio: ['ignore', 'pipe', 'pipe'],
      windowsHide: true,
      shell: false,
    });
    let stderr = '';
    let stdout = '';
    let pending = '';
    /** Why the run was stopped from outside: the message a person reads. */
    let stopped: string | null = null;
    let killTimer: NodeJS.Timeout | undefined;
    let lastPercent = -1;
    const notFound = `${tool} was not found: install ffmpeg (it provides ffmpeg and ffprobe) and make sure it is on the PATH.`;

    const stop = (why: string) => {
      if (stopped || child.exitCode !== null || child.signalCode !== null) return;
      stopped = why;
      child.kill('SIGTERM');
      killTimer = setTimeout(() => child.kill('SIGKILL'), run.killGraceMs ?? 750);
      killTimer.unref();
    };
    const onAbort = () => stop(`${tool} was stopped (canceled or out of time) while trying to ${run.what}.`);
    run.signal?.addEventListener('abort', onAbort, { once: true });
    const timeout = run.timeoutMs
      ? setTimeout(
          () => stop(`${tool} took longer than ${Math.round(run.timeoutMs! / 1000)} s to ${run.what}.`),
          run.timeoutMs,
        )
      : undefined;

    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (chunk: string) => {
      if (!progress.length) {
        if (stdout.length < STDOUT_MAX_BYTES) stdout += chunk;
        return;
      }
      pending += chunk;
      const lines = pending.split('\n');
      pending = lines.pop() ?? '';
      for (const line of lines) {
        const micros = progressMicros(line);
        if (micros === null) continue;
        const percent = Math.min(100, Math.floor(micros / 1e4 / run.durationSec!));
        if (percent > lastPercent) {
          lastPercent = percent;
          run.onProgress!(percent);
        }
      }
    });
    child.stderr.setEncoding('utf8');
    child.stderr.on('data', (chunk: string) => {
      stderr = (stderr + chunk).slice(-STDERR_KEEP_BYTES);
    });

    let settled = false;
    const cleanup = () => {
      settled = true;
      clearTimeout(killTimer);
      clearTimeout(timeout);
      run.signal?.removeEventListener('abort', onAbort);
    };
    child.on('error', (err: NodeJS.ErrnoException) => {
      // After a successful spawn, 'close' follows and reports; a failed spawn never gets a process.
      if (settled || child.pid !== undefined) return;
      cleanup();
      reject(
        new ProviderError(
          err.code === 'ENOENT' ? notFound : `${tool} could not be started to ${run.what} (${err.code ?? 'error'}).`,
        ),
      );
    });
    child.on('close', (code, signal) => {
      if (settled) return;
      cleanup();
      if (stopped) return reject(new ProviderError(stopped));
      if (code === 0) return resolve(stdout);
      // Started through setpriv (tiedToParent), a missing binary is setpriv's exit 127, not ENOENT.
      if (code === 127 && /setpriv: failed to execute/.test(stderr)) return reject(new ProviderError(notFound));
      const detail = lastLines(stderr, run.hidePaths);
      const how = signal ? `was killed by ${signal}` : `failed with exit code ${code}`;
      const about = inputsMentioned(stderr, run.inputNames);
      const which = about.length ? ` (input ${about.join(', ')})` : '';
      reject(new ProviderError(`${tool} ${how} while trying to ${run.what}${which}${detail ? `: ${detail}` : '.'}`));
    });
  });
}
