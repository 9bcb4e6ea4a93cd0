import { spawn, type ChildProcess } from 'node:child_process';

export interface VirtualDisplay {
  /** The DISPLAY value, e.g. ":99". */
  display: string;
  stop(): Promise<void>;
}

/**
 * Starts Xvfb on the first free display number and resolves once it accepts clients: Xvfb writes the
 * number to the -displayfd pipe only when it is ready, so there is nothing to poll.
 */
export function startXvfb(timeoutMs = 15_000): Promise<VirtualDisplay> {
  // No TCP and no /tmp/.X11-unix socket file; X clients on Linux connect through the abstract socket.
  const child: ChildProcess = spawn(
    'Xvfb',
    ['-displayfd', '3', '-screen', '0', '1440x900x24', '-nolisten', 'tcp', '-nolisten', 'unix'],
    { stdio: ['ignore', 'ignore', 'pipe', 'pipe'] },
  );
  const stop = () =>
    new Promise<void>((resolve) => {
      if (child.exitCode !== null || child.signalCode !== null) return resolve();
      child.once('exit', () => resolve());
      child.kill('SIGTERM');
    });
  return new Promise((resolve, reject) => {
    let stderr = '';
    let out = '';
    const timer = setTimeout(() => {
      void stop();
      reject(new Error(`Xvfb did not start within ${timeoutMs} ms: ${stderr.trim()}`));
    }, timeoutMs);
    child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.stdio[3]!.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      if (!out.includes('\n')) return;
      clearTimeout(timer);
      resolve({ display: `:${out.trim()}`, stop });
    });
    child.once('error', (err) => {
      clearTimeout(timer);
      reject(err);
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`Xvfb exited (${code}) before it was ready: ${stderr.trim()}`));
    });
  });
}
