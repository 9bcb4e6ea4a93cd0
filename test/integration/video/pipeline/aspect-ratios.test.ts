import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ASPECT_RATIOS, type AspectRatio } from '../../../../src/shared/video.schema.js';
import { createLogger } from '../../../../src/main/core/logger.js';
import { LocalRenderer } from '../../../../src/main/core/video/pipeline/renderers/ffmpeg/local-renderer.js';
import { resolutionSize } from '../../../../src/main/core/video/pipeline/resolutions.js';
import { resolveResourcesDir } from '../../../../src/main/core/video/resources.js';
import { builtinTemplates, jobFromTemplate, type BuiltinVariable } from '../../../helpers/render-jobs.js';
import { tempDir } from '../../../helpers/temp-dir.js';

// Every built-in template in every aspect ratio through the real local renderer and ffmpeg: 480p and 2 s
// each (the layout, not the length, is under test), two renders at a time on this 2-core machine.

const DURATION_SEC = 2;
const log = createLogger(tempDir(), 'silent').log;
const root = tempDir('agent-studio-aspect-');
const characters = path.join(resolveResourcesDir()!, 'characters');
const file = (name: string) => path.join(root, name);
const ffmpeg = (...args: string[]) => execFileSync('ffmpeg', ['-loglevel', 'error', '-y', ...args]);

beforeAll(() => {
  ffmpeg('-f', 'lavfi', '-i', 'testsrc2=s=1024x768', '-frames:v', '1', file('photo.jpg'));
  ffmpeg('-f', 'lavfi', '-i', 'smptebars=s=600x600', '-frames:v', '1', file('product.png'));
  ffmpeg(
    ...['-f', 'lavfi', '-i', 'testsrc2=s=640x360:r=30', '-f', 'lavfi', '-i', 'sine=f=330:sample_rate=44100'],
    ...['-t', '2', '-c:v', 'libx264', '-preset', 'ultrafast', '-c:a', 'aac', '-shortest', file('clip.mp4')],
  );
  ffmpeg('-f', 'lavfi', '-i', 'sine=f=220:sample_rate=22050', '-t', '2', '-c:a', 'libmp3lame', file('voice.mp3'));
  ffmpeg('-f', 'lavfi', '-i', 'aevalsrc=sin(2*PI*110*t):s=44100', '-t', '2', file('music.wav'));
}, 60_000);

afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

function chooseMedia(v: BuiltinVariable) {
  const media = (p: string, contentType: string, characterId?: string) => ({
    path: p,
    contentType,
    ...(characterId ? { characterId } : {}),
  });
  if (v.key === 'background') return null;
  if (v.type === 'video') return media(file('clip.mp4'), 'video/mp4');
  if (v.type === 'audio')
    return v.key === 'track' ? media(file('music.wav'), 'audio/wav') : media(file('voice.mp3'), 'audio/mpeg');
  if (['presenter', 'character_a', 'speaker'].includes(v.key))
    return media(path.join(characters, 'ava.png'), 'image/png', 'chr_ava');
  if (v.key === 'character_b') return media(path.join(characters, 'marcus.png'), 'image/png', 'chr_marcus');
  if (v.key === 'product_image') return media(file('product.png'), 'image/png');
  return media(file('photo.jpg'), 'image/jpeg');
}

/** At most `n` renders at once: the machine has two cores and other tests run too. */
function limiter(n: number) {
  let active = 0;
  const waiting: (() => void)[] = [];
  return async <T>(work: () => Promise<T>): Promise<T> => {
    if (active >= n) await new Promise<void>((r) => waiting.push(r));
    active++;
    try {
      return await work();
    } finally {
      active--;
      waiting.shift()?.();
    }
  };
}
const slot = limiter(2);

interface Stream {
  codec_type: string;
  codec_name: string;
  width?: number;
  height?: number;
  duration?: string;
}
const probe = (f: string): { streams: Stream[]; format: { duration: string; format_name: string } } =>
  JSON.parse(
    execFileSync('ffprobe', ['-v', 'error', '-show_streams', '-show_format', '-of', 'json', f], { encoding: 'utf8' }),
  );

describe('frame sizes', () => {
  it('name the short side, even sizes, 16:9 unchanged', () => {
    expect(resolutionSize('480p', '16:9')).toEqual({ width: 854, height: 480 });
    expect(resolutionSize('720p', '9:16')).toEqual({ width: 720, height: 1280 });
    expect(resolutionSize('480p', '9:16')).toEqual({ width: 480, height: 854 });
    expect(resolutionSize('720p', '1:1')).toEqual({ width: 720, height: 720 });
    expect(resolutionSize('720p', '4:5')).toEqual({ width: 720, height: 900 });
    expect(resolutionSize('1080p', '4:5')).toEqual({ width: 1080, height: 1350 });
    expect(resolutionSize('1080p', '9:16')).toEqual({ width: 1080, height: 1920 });
  });
});

const templates = builtinTemplates();
const cases = templates.flatMap((t) => ASPECT_RATIOS.map((ar) => [t.id, ar, t] as const));

describe.concurrent('every built-in template in every aspect ratio (480p)', () => {
  it.each(cases)(
    '%s %s',
    async (id, aspectRatio: AspectRatio, t) => {
      const { width, height } = resolutionSize('480p', aspectRatio);
      const job = jobFromTemplate(t, chooseMedia, {
        generationId: `gen_${id}_${aspectRatio.replace(':', 'x')}`,
        width,
        height,
        aspectRatio,
        durationSec: DURATION_SEC,
      });
      const workDir = fs.mkdtempSync(file('work-'));
      const renderer = new LocalRenderer();
      const ctx = { signal: new AbortController().signal, workDir, log, onProgress: () => undefined };
      const result = await slot(async () => renderer.follow((await renderer.submit(job, ctx)).externalId, job, ctx));

      const p = probe(result.videoPath);
      expect(p.format.format_name).toContain('mp4');
      expect(p.streams.map((s) => s.codec_type).sort()).toEqual(['audio', 'video']);
      const video = p.streams.find((s) => s.codec_type === 'video')!;
      const audio = p.streams.find((s) => s.codec_type === 'audio')!;
      expect(video).toMatchObject({ codec_name: 'h264', width, height });
      expect(audio.codec_name).toBe('aac');
      for (const d of [p.format.duration, video.duration, audio.duration])
        expect(Math.abs(Number(d) - DURATION_SEC)).toBeLessThanOrEqual(0.1);
      // The thumbnail keeps the frame's shape.
      const thumb = probe(result.thumbnailPath!).streams[0]!;
      expect(Math.abs(thumb.width! / thumb.height! - width / height)).toBeLessThan(0.02);
      fs.rmSync(workDir, { recursive: true, force: true });
    },
    120_000,
  );
});
