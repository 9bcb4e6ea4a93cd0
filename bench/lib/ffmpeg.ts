import { spawn } from 'node:child_process';

/** The bare ffmpeg command a benchmark compares against (no progress pipe, errors only). */
export function runBareFfmpeg(args: string[]): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn('ffmpeg', ['-hide_banner', '-nostdin', '-loglevel', 'error', ...args], { stdio: 'ignore' });
    child.on('error', reject);
    child.on('close', (code) => (code === 0 ? resolve() : reject(new Error(`bare ffmpeg exited with ${code}`))));
  });
}
