import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '../../../../src/main/core/logger.js';
import { parseCaptions } from '../../../../src/shared/captions-format.js';
import { burnCaptions } from '../../../../src/main/core/video/pipeline/renderers/ffmpeg/burn-captions.js';
import {
  LocalRenderer,
  resolveFontsDir,
} from '../../../../src/main/core/video/pipeline/renderers/ffmpeg/local-renderer.js';
import { resolutionSize } from '../../../../src/main/core/video/pipeline/resolutions.js';
import type { ProviderJob } from '../../../../src/main/core/video/pipeline/video-provider.js';
import { builtinTemplates, jobFromTemplate } from '../../../helpers/render-jobs.js';
import { bands, changed, cueShown, FPS } from '../../../helpers/caption-frames.js';
import { startTestServer, tempDir, type TestServer } from '../../../helpers/test-server.js';
import { call, finishedGeneration, generate, generateMultipart } from '../../../helpers/video-api.js';

// Captions burned in by the real renderer: each frame of a render with captions is compared with the same
// frame of the same render without any on screen, in the band where captions sit. A frame differs exactly when a cue
// is on screen (start <= t < end, to the frame at 24 fps), as in the file.

const log = createLogger(tempDir(), 'silent').log;
const root = tempDir('agent-studio-captions-');
afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

const SRT = `1
00:00:00,500 --> 00:00:01,250
The first caption, long enough to wrap onto a second line in a portrait frame

2
00:00:02,000 --> 00:00:02,750
Second
`;
const VTT = `WEBVTT

00:00.500 --> 00:01.250
The first caption, long enough to wrap onto a second line in a portrait frame

00:02.000 --> 00:02.750
Second
`;
const DURATION_SEC = 3;

async function render(job: ProviderJob): Promise<string> {
  const workDir = fs.mkdtempSync(path.join(root, 'w-'));
  const renderer = new LocalRenderer();
  const ctx = { signal: new AbortController().signal, workDir, log, onProgress: () => undefined };
  return (await renderer.follow((await renderer.submit(job, ctx)).externalId, job, ctx)).videoPath;
}

describe('burned-in captions', () => {
  it.each([
    ['SRT', SRT, '9:16'],
    ['WebVTT', VTT, '16:9'],
  ] as const)(
    '%s cues are on screen exactly from start to end (%s)',
    async (_format, text, aspectRatio) => {
      const template = builtinTemplates().find((t) => t.id === 'text-to-video-cinematic')!;
      const { width, height } = resolutionSize('480p', aspectRatio);
      const base = jobFromTemplate(template, () => null, {
        width,
        height,
        aspectRatio,
        durationSec: DURATION_SEC,
      });
      const cues = parseCaptions(text);
      // The baseline has captions too, all after the end: the same layout (a title makes room for captions), none drawn.
      const [plain, captioned] = await Promise.all([
        render({ ...base, captions: { key: 'subtitles', cues: [{ start: 60, end: 61, text: 'later' }], burn: true } }),
        render({ ...base, captions: { key: 'subtitles', cues, burn: true } }),
      ]);
      const a = bands(plain, width, height);
      const b = bands(captioned, width, height);
      expect(a).toHaveLength(DURATION_SEC * FPS);
      expect(b).toHaveLength(DURATION_SEC * FPS);
      const shown = (n: number) => cueShown(cues, n);
      const diffs = a.map((frame, n) => changed(frame, b[n]!));
      for (const [n, d] of diffs.entries()) {
        if (shown(n)) expect(d, `frame ${n} (${(n / FPS).toFixed(3)} s) should show a caption`).toBeGreaterThan(20);
        else expect(d, `frame ${n} (${(n / FPS).toFixed(3)} s) should show none`).toBeLessThan(5);
      }
      // The edges: 0.5 s is frame 12, 1.25 s is frame 30, 2.0 s frame 48, 2.75 s frame 66.
      expect([11, 12, 29, 30, 47, 48, 65, 66].map(shown)).toEqual([false, true, true, false, false, true, true, false]);
    },
    120_000,
  );
});

describe("captions on another provider's video", () => {
  it('are drawn into the finished MP4 with the same timing (the sound kept)', async () => {
    const template = builtinTemplates().find((t) => t.id === 'text-to-video-cinematic')!;
    const { width, height } = resolutionSize('480p', '9:16');
    // A finished video as a hosted provider would return it: no captions in it.
    const hosted = await render(
      jobFromTemplate(template, () => null, { width, height, aspectRatio: '9:16', durationSec: DURATION_SEC }),
    );
    const workDir = fs.mkdtempSync(path.join(root, 'burn-'));
    const cues = parseCaptions(SRT);
    const captioned = await burnCaptions({ ffmpeg: 'ffmpeg', ffprobe: 'ffprobe' }, hosted, cues, {
      workDir,
      fontsDir: resolveFontsDir()!,
      signal: new AbortController().signal,
    });
    const a = bands(hosted, width, height);
    const b = bands(captioned, width, height);
    expect(b).toHaveLength(a.length);
    const shown = (n: number) => cueShown(cues, n);
    for (const [n, frame] of a.entries()) {
      const d = changed(frame, b[n]!);
      if (shown(n)) expect(d, `frame ${n} should show a caption`).toBeGreaterThan(20);
      else expect(d, `frame ${n} should show none`).toBeLessThan(5);
    }
    const streams = execFileSync(
      'ffprobe',
      ['-v', 'error', '-show_entries', 'stream=codec_name', '-of', 'csv=p=0', captioned],
      {
        encoding: 'utf8',
      },
    );
    expect(streams.trim().split('\n').sort()).toEqual(['aac', 'h264']);
  }, 120_000);
});

describe('captions through the API', () => {
  let s: TestServer;
  let templateId: string;
  beforeAll(async () => {
    s = await startTestServer({ jobs: { renderConcurrency: 1 } }, { credits: 10_000 });
    const t = await call(s, '/api/templates', {
      method: 'POST',
      json: {
        title: 'Captioned',
        category: 'text-to-video',
        duration_sec: 3,
        resolution: '480p',
        input_variables: [
          { key: 'scene', label: 'Scene', type: 'text', required: true },
          { key: 'subtitles', label: 'Captions', type: 'captions', required: false },
        ],
        prompt_template: '{{scene}}',
      },
    });
    expect([200, 201]).toContain(t.status);
    expect(t.body.input_variables[1].type).toBe('captions');
    templateId = t.body.id;
  });
  afterAll(() => s?.close());

  const finished = (id: string) => finishedGeneration(s, id);

  it('outputs "vtt" delivers the cues as a WebVTT sidecar with the times of the file', async () => {
    const r = await generate(s, templateId, {
      variables: { scene: 'A harbour at dawn', subtitles: SRT },
      outputs: ['mp4', 'vtt'],
    });
    expect(r.status).toBe(200);
    const g = await finished(r.body.generations[0].generation_id);
    expect(g.status).toBe('completed');
    expect(g.inputs.subtitles).toMatchObject({ type: 'captions', source: 'request' });
    const res = await fetch(g.outputs.vtt);
    expect(res.headers.get('content-type')).toContain('text/vtt');
    const vtt = await res.text();
    expect(vtt.startsWith('WEBVTT')).toBe(true);
    expect(parseCaptions(vtt)).toEqual(parseCaptions(SRT));
  }, 120_000);

  it('multipart: an .srt file part is the captions value; outputs and aspect_ratio as text fields', async () => {
    const form = new FormData();
    form.append('variables[scene]', 'A harbour at dawn');
    form.append('variables[subtitles]', new Blob([SRT], { type: 'application/x-subrip' }), 'subs.srt');
    form.append('outputs', 'mp4,vtt');
    form.append('aspect_ratio', '9:16');
    const r = await generateMultipart(s, templateId, form);
    expect(r.status).toBe(200);
    const g = await finished(r.body.generations[0].generation_id);
    expect(g).toMatchObject({ status: 'completed', aspect_ratio: '9:16' });
    expect(parseCaptions(await (await fetch(g.outputs.vtt)).text())).toEqual(parseCaptions(SRT));
  }, 120_000);

  it('bad captions, and vtt without captions, are 400s', async () => {
    const bad = await generate(s, templateId, { variables: { scene: 'x', subtitles: 'not captions at all' } });
    expect(bad.status).toBe(400);
    expect(bad.body.message).toContain('variables.subtitles: not valid SRT or WebVTT captions');
    const noCaptions = await generate(s, templateId, { variables: { scene: 'x' }, outputs: ['vtt'] });
    expect(noCaptions.status).toBe(400);
    expect(noCaptions.body.message).toContain('outputs: "vtt" needs captions in variables.subtitles');
  });

  it('a template refuses a captions default that is not captions, and a second captions variable', async () => {
    const t = await call(s, '/api/templates', {
      method: 'POST',
      json: {
        title: 'Bad',
        category: 'text-to-video',
        input_variables: [
          { key: 'a', label: 'A', type: 'captions', required: false, default_value: 'not captions at all' },
          { key: 'b', label: 'B', type: 'captions', required: false },
        ],
      },
    });
    expect(t.status).toBe(400);
    expect(t.body.message).toContain('default_value: not valid SRT or WebVTT captions');
    expect(t.body.message).toContain('a template has at most one');
  });
});
