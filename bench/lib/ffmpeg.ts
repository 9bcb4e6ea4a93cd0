import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { buildRenderCommand } from '../../src/main/core/video/pipeline/renderers/ffmpeg/filter-graph.js';
import { resolveFontsDir } from '../../src/main/core/video/pipeline/renderers/ffmpeg/local-renderer.js';
import type { ProviderJob } from '../../src/main/core/video/pipeline/video-provider.js';

/** The bare ffmpeg command a benchmark compares against (no progress pipe, errors only). */
export function runBareFfmpeg(args: string[]): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn('ffmpeg', ['-hide_banner', '-nostdin', '-loglevel', 'error', ...args], { stdio: 'ignore' });
    child.on('error', reject);
    child.on('close', (code) => (code === 0 ? resolve() : reject(new Error(`bare ffmpeg exited with ${code}`))));
  });
}

/** The arguments of the renderer's own ffmpeg command for `job` in `workDir`, caption files written (no progress pipe). */
export function bareRenderArgs(job: ProviderJob, workDir: string): string[] {
  const command = buildRenderCommand({
    job,
    videoHasAudio: new Map(),
    fontsDir: resolveFontsDir()!,
    workDir,
    outputPath: path.join(workDir, 'out.mp4'),
    thumbnailPath: path.join(workDir, 'thumb.jpg'),
  });
  for (const f of command.textFiles) fs.writeFileSync(f.path, f.text);
  return command.args;
}
