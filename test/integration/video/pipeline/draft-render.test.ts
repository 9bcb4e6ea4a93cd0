import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createLogger } from '../../../../src/main/core/logger.js';
import { buildProviderJob, type PipelineGeneration } from '../../../../src/main/core/video/pipeline/provider-job.js';
import { LocalRenderer } from '../../../../src/main/core/video/pipeline/renderers/ffmpeg/local-renderer.js';
import type { BlobStore } from '../../../../src/main/core/video/uploads/storage/blob-store.js';
import { tempDir } from '../../../helpers/temp-dir.js';

// A draft: the template's own scene at 360 pixels on the short side and 12 fps, the fastest encoder
// settings, always the local renderer (never a hosted provider), through the real ffmpeg.

const log = createLogger(tempDir(), 'silent').log;
const root = tempDir('agent-studio-draft-');
afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

const generation = (over: Partial<PipelineGeneration>): PipelineGeneration => ({
  id: 'gen_draft',
  orgId: 'org_test',
  templateId: 'text-to-video-cinematic',
  status: 'generating',
  inputs: {
    scene: { type: 'text', source: 'request', value: 'A lighthouse on a cliff at dusk, waves crashing below' },
  },
  prompt: 'A lighthouse on a cliff at dusk, waves crashing below',
  model: 'studio-v1',
  resolution: '1080p',
  durationSec: 5,
  category: 'text-to-video',
  provider: { name: 'fal', model: 'fal-ai/some/model', input: { prompt: '{{prompt}}' } },
  ...over,
});

/** Text-only generations read nothing from storage. */
const noBlobs = {} as BlobStore;

const probe = (f: string) =>
  JSON.parse(
    execFileSync('ffprobe', ['-v', 'error', '-count_frames', '-show_streams', '-show_format', '-of', 'json', f], {
      encoding: 'utf8',
    }),
  ) as {
    streams: {
      codec_type: string;
      codec_name: string;
      width?: number;
      height?: number;
      r_frame_rate?: string;
      nb_read_frames?: string;
    }[];
    format: { duration: string };
  };

async function render(gen: PipelineGeneration) {
  const workDir = fs.mkdtempSync(path.join(root, 'w-'));
  const job = await buildProviderJob(gen, noBlobs, workDir);
  const renderer = new LocalRenderer();
  const ctx = { signal: new AbortController().signal, workDir, log, onProgress: () => undefined };
  const result = await renderer.follow((await renderer.submit(job, ctx)).externalId, job, ctx);
  return { job, result };
}

describe('draft render', () => {
  it('is the local renderer at 360p, whatever the template names', async () => {
    const job = await buildProviderJob(generation({ draft: true }), noBlobs, fs.mkdtempSync(path.join(root, 'j-')));
    expect(job.options).toEqual({ name: 'local' });
    expect(job).toMatchObject({ width: 640, height: 360, draft: true, aspectRatio: '16:9' });
    const full = await buildProviderJob(generation({}), noBlobs, fs.mkdtempSync(path.join(root, 'j-')));
    expect(full).toMatchObject({ width: 1920, height: 1080, options: { name: 'fal' } });
    expect(full.draft).toBeUndefined();
  });

  it.each([
    ['16:9', 640, 360],
    ['9:16', 360, 640],
  ] as const)(
    'renders %s at %ix%i, 12 fps, the full duration',
    async (aspectRatio, width, height) => {
      const { result } = await render(generation({ draft: true, aspectRatio }));
      const p = probe(result.videoPath);
      const video = p.streams.find((s) => s.codec_type === 'video')!;
      expect(video).toMatchObject({ codec_name: 'h264', width, height, r_frame_rate: '12/1' });
      expect(Number(video.nb_read_frames)).toBe(60);
      expect(p.streams.some((s) => s.codec_type === 'audio' && s.codec_name === 'aac')).toBe(true);
      expect(Math.abs(Number(p.format.duration) - 5)).toBeLessThanOrEqual(0.1);
      expect(fs.statSync(result.thumbnailPath!).size).toBeGreaterThan(0);
    },
    60_000,
  );
});
