import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '../../../../src/main/core/logger.js';
import {
  LocalRenderer,
  resolveFontsDir,
} from '../../../../src/main/core/video/pipeline/renderers/ffmpeg/local-renderer.js';
import { extractThumbnail } from '../../../../src/main/core/video/pipeline/renderers/ffmpeg/thumbnail.js';
import { resolutionSize } from '../../../../src/main/core/video/pipeline/resolutions.js';
import {
  ProviderError,
  type ProviderContext,
  type ProviderJob,
} from '../../../../src/main/core/video/pipeline/video-provider.js';
import { resolveResourcesDir } from '../../../../src/main/core/video/resources.js';
import { builtinTemplates, jobFromTemplate, type BuiltinVariable } from '../../../helpers/render-jobs.js';
import { tempDir } from '../../../helpers/temp-dir.js';

const log = createLogger(tempDir(), 'silent').log;
const root = tempDir('agent-studio-render-');
const characters = path.join(resolveResourcesDir()!, 'characters');
const file = (name: string) => path.join(root, name);

function ffmpeg(...args: string[]) {
  execFileSync('ffmpeg', ['-loglevel', 'error', '-y', ...args]);
}

/** Small real media, made once: every container and codec the renderer reads in these tests. */
beforeAll(() => {
  ffmpeg('-f', 'lavfi', '-i', 'testsrc2=s=1024x768', '-frames:v', '1', file('photo.jpg'));
  ffmpeg('-f', 'lavfi', '-i', 'smptebars=s=600x600', '-frames:v', '1', file('product.png'));
  ffmpeg(
    ...['-f', 'lavfi', '-i', 'testsrc2=s=640x360:r=30', '-f', 'lavfi', '-i', 'sine=f=330:sample_rate=44100'],
    ...['-t', '3', '-c:v', 'libx264', '-preset', 'ultrafast', '-c:a', 'aac', '-shortest', file('clip.mp4')],
  );
  ffmpeg(
    '-f',
    'lavfi',
    '-i',
    'mandelbrot=s=320x240:r=25',
    '-t',
    '2',
    '-c:v',
    'libvpx',
    '-b:v',
    '200k',
    file('silent.webm'),
  );
  ffmpeg('-f', 'lavfi', '-i', 'sine=f=220:sample_rate=22050', '-t', '4', '-c:a', 'libmp3lame', file('voice.mp3'));
  ffmpeg('-f', 'lavfi', '-i', 'aevalsrc=sin(2*PI*110*t)*(0.6+0.4*sin(2*PI*2*t)):s=44100', '-t', '6', file('music.wav'));
  fs.writeFileSync(
    file('broken.png'),
    Buffer.concat([fs.readFileSync(file('product.png')).subarray(0, 40), Buffer.alloc(400, 7)]),
  );
}, 60_000);

afterAll(() => {
  // A safety net for a failed test: nothing this file started outlives it.
  for (const pid of ffmpegChildren()) process.kill(pid, 'SIGKILL');
  fs.rmSync(root, { recursive: true, force: true });
});

const media = (name: string, contentType: string, characterId?: string) => ({
  path: name.includes('/') ? name : file(name),
  contentType,
  ...(characterId ? { characterId } : {}),
});

/** What a person would give each built-in template: characters for people, uploads for the rest. */
function chooseMedia(v: BuiltinVariable) {
  if (v.key === 'background') return null; // the talking head as "an image + audio"
  if (v.type === 'video') return media('clip.mp4', 'video/mp4');
  if (v.type === 'audio') return v.key === 'track' ? media('music.wav', 'audio/wav') : media('voice.mp3', 'audio/mpeg');
  if (v.key === 'presenter' || v.key === 'character_a' || v.key === 'speaker') {
    return media(path.join(characters, 'ava.png'), 'image/png', 'chr_ava');
  }
  if (v.key === 'character_b') return media(path.join(characters, 'marcus.png'), 'image/png', 'chr_marcus');
  if (v.key === 'product_image') return media('product.png', 'image/png');
  return media('photo.jpg', 'image/jpeg');
}

interface Run {
  ctx: ProviderContext;
  progress: number[];
  firstProgress: Promise<void>;
}

function context(signal: AbortSignal = new AbortController().signal, workDir = fs.mkdtempSync(file('work-'))): Run {
  const progress: number[] = [];
  let started!: () => void;
  const firstProgress = new Promise<void>((r) => (started = r));
  const ctx: ProviderContext = {
    signal,
    workDir,
    log,
    onProgress: (p) => {
      progress.push(p.progress ?? -1);
      if ((p.progress ?? 0) > 0) started();
    },
  };
  return { ctx, progress, firstProgress };
}

async function render(job: ProviderJob, run = context(), renderer = new LocalRenderer()) {
  const { externalId } = await renderer.submit(job, run.ctx);
  return renderer.follow(externalId, job, run.ctx);
}

interface Probe {
  streams: { codec_type: string; codec_name: string; width?: number; height?: number; duration?: string }[];
  format: { duration: string; format_name: string };
}
const probe = (f: string): Probe =>
  JSON.parse(
    execFileSync('ffprobe', ['-v', 'error', '-show_streams', '-show_format', '-of', 'json', f], { encoding: 'utf8' }),
  );

/** Peak level of the sound in dB (about -91 for digital silence); volumedetect reports on stderr. */
function peakDb(f: string): number {
  const res = spawnSync('ffmpeg', ['-hide_banner', '-i', f, '-map', '0:a', '-af', 'volumedetect', '-f', 'null', '-'], {
    encoding: 'utf8',
  });
  return Number(/max_volume: (-?[\d.]+) dB/.exec(res.stderr)?.[1]);
}

/** A small checksum per second of picture: the picture changes over time (motion, fades). */
function distinctFrames(f: string): number {
  const out = execFileSync('ffmpeg', ['-v', 'error', '-i', f, '-vf', 'fps=2,scale=64:36', '-f', 'framemd5', '-'], {
    encoding: 'utf8',
  });
  return new Set(
    out
      .split('\n')
      .filter((l) => /^\d/.test(l))
      .map((l) => l.split(',').pop()!.trim()),
  ).size;
}

function expectMp4(f: string, durationSec: number, width: number, height: number) {
  const p = probe(f);
  expect(p.format.format_name).toContain('mp4');
  const v = p.streams.find((s) => s.codec_type === 'video')!;
  const a = p.streams.find((s) => s.codec_type === 'audio')!;
  expect(v).toMatchObject({ codec_name: 'h264', width, height });
  expect(a.codec_name).toBe('aac');
  for (const d of [p.format.duration, v.duration, a.duration])
    expect(Math.abs(Number(d) - durationSec)).toBeLessThanOrEqual(0.1);
}

function expectThumbnail(f: string | undefined) {
  expect(f).toBeDefined();
  expect(fs.readFileSync(f!).subarray(0, 3)).toEqual(Buffer.from([0xff, 0xd8, 0xff]));
  const w = probe(f!).streams[0]!.width!;
  expect(w).toBeGreaterThan(0);
  expect(w).toBeLessThanOrEqual(640);
}

/** ffmpeg processes (and the stand-in) whose parent is this test process (Linux /proc). */
function ffmpegChildren(): number[] {
  const pids: number[] = [];
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${entry}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      const argv = fs.readFileSync(`/proc/${entry}/cmdline`, 'utf8').split('\0').slice(0, 2);
      if (ppid === process.pid && argv.some((a) => /ff(mpeg|probe)$/.test(a))) pids.push(Number(entry));
    } catch {
      // ended while we looked
    }
  }
  return pids;
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

describe('every built-in template renders', () => {
  const templates = builtinTemplates();
  it('are the eight shipped ones, all five kinds', () => {
    expect(templates).toHaveLength(8);
    expect(new Set(templates.map((t) => t.category)).size).toBe(5);
  });

  it.each(templates.map((t) => [t.id, t] as const))('%s', async (_id, t) => {
    const job = jobFromTemplate(t, chooseMedia);
    const run = context();
    const started = Date.now();
    const result = await render(job, run);
    const ms = Date.now() - started;
    const { width, height } = resolutionSize(t.resolution);
    expectMp4(result.videoPath, job.durationSec, width, height);
    expectThumbnail(result.thumbnailPath);
    expect(path.dirname(result.videoPath)).toBe(run.ctx.workDir);
    // Progress from ffmpeg's -progress: rising, ending near the end (the pipeline reports 100 itself).
    expect(run.progress.length).toBeGreaterThan(1);
    expect(run.progress).toEqual([...run.progress].sort((a, b) => a - b));
    expect(run.progress.at(-1)).toBeGreaterThanOrEqual(90);
    // Sound: the inputs are heard; a template without sound has a silent track.
    const heard = job.media.some((m) => m.kind !== 'image');
    if (heard) expect(peakDb(result.videoPath)).toBeGreaterThan(-30);
    else expect(peakDb(result.videoPath)).toBeLessThan(-80);
    expect(distinctFrames(result.videoPath)).toBeGreaterThan(3);
    console.log(`${t.id}: ${width}x${height} ${job.durationSec} s rendered in ${ms} ms`);
  });
});

describe('inputs beyond the built-ins', () => {
  const base = () =>
    jobFromTemplate(
      builtinTemplates().find((t) => t.id === 'video-to-video-restyle')!,
      chooseMedia,
    );

  it('concatenates clips with and without sound, mixed with an audio input, at 480p', async () => {
    const job: ProviderJob = {
      ...base(),
      width: 854,
      height: 480,
      durationSec: 4,
      media: [
        { key: 'source', kind: 'video', slot: 'source_video', ...media('clip.mp4', 'video/mp4') },
        { key: 'ref', kind: 'video', slot: 'reference_video', ...media('silent.webm', 'video/webm') },
        { key: 'music', kind: 'audio', slot: 'audio', ...media('music.wav', 'audio/wav') },
      ],
    };
    const result = await render(job);
    expectMp4(result.videoPath, 4, 854, 480);
    expect(peakDb(result.videoPath)).toBeGreaterThan(-30);
  });

  it('crossfades a start frame into an end frame, with a fractional duration', async () => {
    const t = builtinTemplates().find((x) => x.id === 'image-to-video-animate')!;
    const job = jobFromTemplate(t, chooseMedia, { durationSec: 2.5 });
    job.media.push({ key: 'last', kind: 'image', slot: 'end_frame', ...media('product.png', 'image/png') });
    const result = await render(job);
    expectMp4(result.videoPath, 2.5, 1280, 720);
  });

  it('renders with fonts and a work dir whose paths hold filtergraph syntax', async () => {
    const odd = path.join(root, "it's, [odd]: dir; \\ x");
    fs.mkdirSync(path.join(odd, 'fonts'), { recursive: true });
    for (const f of ['DejaVuSans.ttf', 'DejaVuSans-Bold.ttf'])
      fs.copyFileSync(path.join(resolveFontsDir()!, f), path.join(odd, 'fonts', f));
    const work = fs.mkdtempSync(path.join(odd, 'work '));
    const t = builtinTemplates().find((x) => x.id === 'text-to-video-cinematic')!;
    const headline = "It's 100% {pts}: a [test]; ok, \\o/";
    const base = jobFromTemplate(t, chooseMedia, { durationSec: 1, width: 854, height: 480 });
    const job = { ...base, texts: { scene: headline } };
    const result = await render(
      job,
      context(undefined, work),
      new LocalRenderer({ fontsDir: path.join(odd, 'fonts') }),
    );
    expectMp4(result.videoPath, 1, 854, 480);
    // The headline's lines, read by drawtext from files (text-<block>-<line>.txt), are the text as written.
    const lines = fs.readdirSync(work).filter((f) => f.startsWith('text-0-'));
    expect(
      lines
        .sort()
        .map((f) => fs.readFileSync(path.join(work, f), 'utf8'))
        .join(' '),
    ).toBe(headline);
  });

  it('makes a thumbnail of any video, at the first frame when it is shorter than asked', async () => {
    const out = file('thumb-a.jpg');
    await extractThumbnail('ffmpeg', file('clip.mp4'), out, { signal: new AbortController().signal });
    expectThumbnail(out);
    const late = file('thumb-b.jpg');
    await extractThumbnail('ffmpeg', file('clip.mp4'), late, { signal: new AbortController().signal, atSec: 30 });
    expectThumbnail(late);
  });
});

describe('failures are readable', () => {
  it('names a broken input without revealing where it lives', async () => {
    const t = builtinTemplates().find((x) => x.id === 'image-to-video-animate')!;
    const run = context();
    const job = jobFromTemplate(t, () => media('broken.png', 'image/png'), { durationSec: 1 });
    const err = (await render(job, run).catch((e: unknown) => e)) as ProviderError;
    expect(err).toBeInstanceOf(ProviderError);
    expect(err.message).toMatch(
      /^ffmpeg failed with exit code \d+ while trying to render the video \(input 'photo'\): /,
    );
    expect(err.message).not.toContain(root);
    expect(err.retryable).toBe(false);
  });

  it('says when ffmpeg is not installed', async () => {
    const t = builtinTemplates().find((x) => x.id === 'text-to-video-cinematic')!;
    const renderer = new LocalRenderer({ ffmpegPath: path.join(root, 'no-such-ffmpeg') });
    await expect(render(jobFromTemplate(t, chooseMedia), context(), renderer)).rejects.toThrow(
      /no-such-ffmpeg was not found: install ffmpeg/,
    );
  });

  it('says when a sound input has no sound', async () => {
    const t = builtinTemplates().find((x) => x.id === 'audio-music-visualizer')!;
    const job = jobFromTemplate(t, () => media('silent.webm', 'audio/webm'));
    await expect(render(job)).rejects.toThrow("The input 'track' has no sound: it cannot be used as audio.");
  });
});

describe('stopping a render kills ffmpeg', () => {
  // Long enough that it is certainly still running when stopped; nothing waits for it to finish.
  const longJob = () =>
    jobFromTemplate(
      builtinTemplates().find((x) => x.id === 'text-to-video-pro-1080p')!,
      chooseMedia,
      { durationSec: 300 },
    );

  async function stoppedRender(stop: (run: Run, renderer: LocalRenderer, externalId: string) => void, run = context()) {
    const renderer = new LocalRenderer();
    const job = longJob();
    const { externalId } = await renderer.submit(job, run.ctx);
    const rendering = renderer.follow(externalId, job, run.ctx).catch((e: unknown) => e);
    await run.firstProgress;
    const pids = ffmpegChildren();
    expect(pids).toHaveLength(1);
    stop(run, renderer, externalId);
    const err = await rendering;
    return { err, pids, progress: run.progress };
  }

  it('on cancel (the job signal): mid-render, with no child left', async () => {
    const controller = new AbortController();
    const { err, pids, progress } = await stoppedRender(() => controller.abort(), context(controller.signal));
    expect(err).toBeInstanceOf(ProviderError);
    expect((err as Error).message).toMatch(/ffmpeg was stopped \(canceled or out of time\)/);
    // Stopped, not finished: a 300 s render never got near its end (how fast is the bench's business, not a test's).
    expect(Math.max(...progress)).toBeLessThan(90);
    expect(alive(pids[0]!)).toBe(false);
    expect(ffmpegChildren()).toEqual([]);
  });

  it('on the provider cancel and on dispose', async () => {
    const a = await stoppedRender((_run, renderer, id) => void renderer.cancel(id));
    expect(a.err).toBeInstanceOf(ProviderError);
    expect(alive(a.pids[0]!)).toBe(false);
    const b = await stoppedRender((_run, renderer) => void renderer.dispose());
    expect(b.err).toBeInstanceOf(ProviderError);
    expect(alive(b.pids[0]!)).toBe(false);
    expect(ffmpegChildren()).toEqual([]);
  });

  it('on the time limit', async () => {
    // The limit runs out mid-render: started once ffmpeg reports progress, so a busy machine that is slow to
    // start ffmpeg cannot make it run out first (then no progress would ever come).
    const limit = new AbortController();
    const run = context(limit.signal);
    const renderer = new LocalRenderer();
    const job = longJob();
    const rendering = renderer
      .follow((await renderer.submit(job, run.ctx)).externalId, job, run.ctx)
      .catch((e: unknown) => e);
    await run.firstProgress;
    const pids = ffmpegChildren();
    expect(pids).toHaveLength(1);
    // The job's time limit is an abort with a TimeoutError reason; it is given mid-render, on the progress event.
    limit.abort(new DOMException('The operation was aborted due to timeout', 'TimeoutError'));
    const err = await rendering;
    expect(err).toBeInstanceOf(ProviderError);
    expect((err as Error).message).toMatch(/ffmpeg was stopped \(canceled or out of time\)/);
    expect(Math.max(...run.progress)).toBeLessThan(90);
    expect(alive(pids[0]!)).toBe(false);
    expect(ffmpegChildren()).toEqual([]);
  });

  it('with SIGKILL when ffmpeg ignores SIGTERM', async () => {
    // A stand-in ffmpeg that reports progress and ignores SIGTERM (a hung encoder). It leaves by itself only after the
    // test's own time-out (60 s), so the render can end within the test only by the renderer's SIGKILL.
    const fake = file('fake-ffmpeg');
    fs.writeFileSync(
      fake,
      [
        `#!${process.execPath}`,
        "process.on('SIGTERM', () => {});",
        "process.stdout.write('out_time_us=60000000\\nprogress=continue\\n');",
        'setTimeout(() => process.exit(3), 90_000); // never outlives a failed test for long',
      ].join('\n'),
      { mode: 0o755 },
    );
    const controller = new AbortController();
    const run = context(controller.signal);
    const renderer = new LocalRenderer({ ffmpegPath: fake, killGraceMs: 300 });
    const job = longJob();
    const rendering = renderer.follow('local-x', job, run.ctx).catch((e: unknown) => e);
    await run.firstProgress;
    const pids = ffmpegChildren();
    expect(pids).toHaveLength(1);
    controller.abort();
    expect(await rendering).toBeInstanceOf(ProviderError);
    expect(alive(pids[0]!)).toBe(false);
  });
});
