import { spawn, type ChildProcess } from 'node:child_process';
import { AppError } from '../../errors.js';
import { tiedToParent } from '../../child-process.js';
import { noopLogSink, type LogSink } from '../../logger.js';
import type { BrowserMode } from '../../../../shared/login-browser.schema.js';

/** How long Xvfb may take to accept clients (it says so on -displayfd; seconds at most on a loaded machine). */
const XVFB_START_MS = 15_000;

/** Why a browser with a window cannot start here: 503 DISPLAY_UNAVAILABLE, the reason in details (never a 500). */
export function displayUnavailable(mode: BrowserMode, reason: 'xvfb_missing' | 'xvfb_failed', why: string): AppError {
  return new AppError(
    503,
    'display_unavailable',
    `Browser mode "${mode}" runs a browser with a window, and this computer has no display for it: ${why}. ` +
      'Run the app in a desktop session, install Xvfb (Debian/Ubuntu: sudo apt-get install xvfb; Fedora: sudo dnf ' +
      'install xorg-x11-server-Xvfb), or log in with browser mode "headless".',
    { mode, reason },
  );
}

/**
 * Where a headed login browser draws its window. A desktop session has a display: the window goes there, off-screen
 * (browser-modes.ts). Linux without one (a server, a container, a Wayland session without XWayland) gets an Xvfb the
 * app starts on first need, shared by every headed browser, stopped with the app; without Xvfb installed a headed
 * login is 503 DISPLAY_UNAVAILABLE saying what to install.
 */
export class VirtualDisplay {
  private readonly env: NodeJS.ProcessEnv;
  private readonly platform: NodeJS.Platform;
  private readonly log: LogSink;
  private xvfb: Promise<{ display: string; child: ChildProcess }> | undefined;
  private disposed = false;

  constructor(opts: { env?: NodeJS.ProcessEnv; platform?: NodeJS.Platform; log?: LogSink } = {}) {
    this.env = opts.env ?? process.env;
    this.platform = opts.platform ?? process.platform;
    this.log = opts.log ?? noopLogSink();
  }

  /** Whether this computer shows windows by itself (a desktop session): then nothing is started. */
  hasOwnDisplay(): boolean {
    return this.platform !== 'linux' || !!this.env.DISPLAY;
  }

  /** The environment a browser with a window runs in: this process's, with the app's own Xvfb where there is no display. */
  async browserEnv(mode: BrowserMode): Promise<NodeJS.ProcessEnv> {
    if (this.hasOwnDisplay()) return this.env;
    if (this.disposed) throw displayUnavailable(mode, 'xvfb_failed', 'the app is shutting down');
    const started = (this.xvfb ??= this.startXvfb(mode));
    // A start that failed is tried again by the next headed login (Xvfb may have been installed meanwhile).
    started.catch(() => {
      if (this.xvfb === started) this.xvfb = undefined;
    });
    const { display } = await started;
    return { ...this.env, DISPLAY: display };
  }

  async dispose(): Promise<void> {
    this.disposed = true;
    const started = await this.xvfb?.catch(() => undefined);
    this.xvfb = undefined;
    if (!started || started.child.exitCode !== null || started.child.signalCode !== null) return;
    await new Promise<void>((resolve) => {
      started.child.once('exit', () => resolve());
      started.child.kill('SIGTERM');
    });
  }

  /**
   * Xvfb on the first free display number; ready once it writes that number to -displayfd (nothing to poll). No TCP
   * and no socket file: X clients on Linux reach it through the abstract socket. Tied to this process, so a killed
   * app leaves no Xvfb behind.
   */
  private startXvfb(mode: BrowserMode): Promise<{ display: string; child: ChildProcess }> {
    const { command, args } = tiedToParent('Xvfb', [
      '-displayfd',
      '3',
      '-screen',
      '0',
      '1920x1080x24',
      '-nolisten',
      'tcp',
      '-nolisten',
      'unix',
    ]);
    const child = spawn(command, args, { env: this.env, stdio: ['ignore', 'ignore', 'pipe', 'pipe'] });
    return new Promise((resolve, reject) => {
      let stderr = '';
      let out = '';
      const fail = (reason: 'xvfb_missing' | 'xvfb_failed', why: string) => {
        clearTimeout(timer);
        if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
        reject(displayUnavailable(mode, reason, why));
      };
      const timer = setTimeout(
        () => fail('xvfb_failed', `Xvfb did not start within ${XVFB_START_MS / 1000} s`),
        XVFB_START_MS,
      );
      child.stderr!.on('data', (chunk: Buffer) => (stderr = (stderr + chunk.toString()).slice(-2000)));
      child.stdio[3]!.on('data', (chunk: Buffer) => {
        out += chunk.toString();
        if (!out.includes('\n')) return;
        clearTimeout(timer);
        const display = `:${out.trim()}`;
        this.log.info({ display }, 'started Xvfb for headed login browsers (no DISPLAY)');
        child.once('exit', (code, signal) => {
          if (!this.disposed) this.log.warn({ display, code, signal }, 'Xvfb exited; it is started again when needed');
          void this.xvfb?.then((x) => {
            if (x.child === child) this.xvfb = undefined;
          });
        });
        resolve({ display, child });
      });
      child.once('error', (err: NodeJS.ErrnoException) =>
        fail(
          err.code === 'ENOENT' ? 'xvfb_missing' : 'xvfb_failed',
          err.code === 'ENOENT'
            ? 'no DISPLAY is set and Xvfb is not installed'
            : `Xvfb could not start (${err.code ?? err.message})`,
        ),
      );
      child.once('exit', (code) => {
        if (out.includes('\n')) return;
        const last = stderr.trim().split('\n').at(-1) ?? '';
        // setpriv exits 127 when it cannot find the program it should run
        if (code === 127) fail('xvfb_missing', 'no DISPLAY is set and Xvfb is not installed');
        else fail('xvfb_failed', `Xvfb exited (${code}) before it was ready${last ? `: ${last}` : ''}`);
      });
    });
  }
}
