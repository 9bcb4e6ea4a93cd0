import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, tempDir, type TestServer } from '../../../helpers/test-server.js';
import { call, generate } from '../../../helpers/video-api.js';

// outputs: ["mp4","webm","gif"] through the real server, pipeline, local renderer and ffmpeg: each file is
// downloaded from its signed URL and decoded by ffprobe; deleting the generation deletes every file.

interface Stream {
  codec_type: string;
  codec_name: string;
  width?: number;
  height?: number;
  nb_read_frames?: string;
}
function probe(bytes: Buffer, name: string) {
  const file = path.join(tempDir(), name);
  fs.writeFileSync(file, bytes);
  const json = JSON.parse(
    execFileSync('ffprobe', ['-v', 'error', '-count_frames', '-show_streams', '-show_format', '-of', 'json', file], {
      encoding: 'utf8',
    }),
  ) as { streams: Stream[]; format: { duration: string; format_name: string } };
  return {
    video: json.streams.find((s) => s.codec_type === 'video')!,
    audio: json.streams.find((s) => s.codec_type === 'audio'),
    format: json.format,
  };
}
const download = async (url: string) => {
  const res = await fetch(url);
  expect(res.status).toBe(200);
  return { type: res.headers.get('content-type'), bytes: Buffer.from(await res.arrayBuffer()) };
};

async function finished(id: string) {
  const end = Date.now() + 120_000;
  for (;;) {
    const r = await call(s, `/api/generations/${id}`);
    if (r.body.status !== 'generating' || Date.now() > end) return r.body;
    await new Promise((res) => setTimeout(res, 100));
  }
}

let s: TestServer;
let templateId: string;
beforeAll(async () => {
  s = await startTestServer({ jobs: { renderConcurrency: 1 } }, { credits: 10_000 });
  // A short 480p template: the formats, not the length, are under test.
  const t = await call(s, '/api/templates', {
    method: 'POST',
    json: {
      title: 'Formats test',
      category: 'text-to-video',
      duration_sec: 3,
      resolution: '480p',
      aspect_ratio: '9:16',
      input_variables: [{ key: 'scene', label: 'Scene', type: 'text', required: true }],
      prompt_template: '{{scene}}',
    },
  });
  expect([200, 201]).toContain(t.status);
  expect(t.body.aspect_ratio).toBe('9:16');
  templateId = t.body.id;
});
afterAll(() => s?.close());

describe('output formats', () => {
  it('mp4, webm and a gif preview, each a signed URL decoded by ffprobe; the request aspect ratio wins', async () => {
    const r = await generate(s, templateId, {
      variables: { scene: 'A lighthouse on a cliff at dusk' },
      aspect_ratio: '1:1',
      outputs: ['mp4', 'webm', 'gif'],
    });
    expect(r.status).toBe(200);
    const g = await finished(r.body.generations[0].generation_id);
    expect(g).toMatchObject({ status: 'completed', aspect_ratio: '1:1' });
    expect(Object.keys(g.outputs).sort()).toEqual(['gif', 'mp4', 'webm']);
    expect(g.outputs.mp4).toBe(g.video_url);

    const mp4 = probe((await download(g.outputs.mp4)).bytes, 'out.mp4');
    expect(mp4.video).toMatchObject({ codec_name: 'h264', width: 480, height: 480 });

    const webm = await download(g.outputs.webm);
    expect(webm.type).toContain('video/webm');
    const w = probe(webm.bytes, 'out.webm');
    expect(w.format.format_name).toContain('webm');
    expect(w.video).toMatchObject({ codec_name: 'vp9', width: 480, height: 480 });
    expect(w.audio?.codec_name).toBe('opus');
    expect(Math.abs(Number(w.format.duration) - 3)).toBeLessThanOrEqual(0.1);
    expect(Number(w.video.nb_read_frames)).toBe(72);

    const gif = await download(g.outputs.gif);
    expect(gif.type).toContain('image/gif');
    expect(gif.bytes.subarray(0, 6).toString('latin1')).toBe('GIF89a');
    const f = probe(gif.bytes, 'out.gif');
    expect(f.video).toMatchObject({ codec_name: 'gif', width: 480, height: 480 });
    expect(Number(f.video.nb_read_frames)).toBe(30); // 3 s at 10 fps

    // Deleting the generation deletes every file it made.
    const urls = [g.outputs.mp4, g.outputs.webm, g.outputs.gif, g.thumbnail_url] as string[];
    expect((await call(s, `/api/generations/${g.id}`, { method: 'DELETE' })).status).toBeLessThan(300);
    for (const url of urls) expect((await fetch(url)).status).toBe(404);
  }, 120_000);

  it('the template aspect ratio applies when the request names none; mp4 only by default', async () => {
    const r = await generate(s, templateId, { variables: { scene: 'A quiet harbour at dawn' } });
    const g = await finished(r.body.generations[0].generation_id);
    expect(g).toMatchObject({ status: 'completed', aspect_ratio: '9:16' });
    expect(Object.keys(g.outputs)).toEqual(['mp4']);
    const mp4 = probe((await download(g.video_url)).bytes, 'default.mp4');
    expect(mp4.video).toMatchObject({ width: 480, height: 854 });
  }, 120_000);

  it('an unknown format, a repeated one or a bad aspect ratio is a 400', async () => {
    for (const body of [
      { outputs: ['mp4', 'avi'] },
      { outputs: ['gif', 'gif'] },
      { outputs: [] },
      { aspect_ratio: '21:9' },
    ]) {
      const r = await generate(s, templateId, { variables: { scene: 'A quiet harbour at dawn' }, ...body });
      expect(r.status).toBe(400);
      expect(r.body.error).toBe('validation_error');
    }
  });
});
