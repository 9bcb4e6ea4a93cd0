import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { media } from '../../../helpers/media-fixtures.js';
import { startTestServer, tempDir, type TestServer } from '../../../helpers/test-server.js';
import { call, dataUri, generate } from '../../../helpers/video-api.js';

/** ffprobe of a downloaded file: what a player would see. */
function probe(bytes: Buffer) {
  const file = path.join(tempDir(), 'out.mp4');
  fs.writeFileSync(file, bytes);
  const out = execFileSync('ffprobe', ['-v', 'error', '-show_streams', '-show_format', '-of', 'json', file], {
    encoding: 'utf8',
  });
  const json = JSON.parse(out) as {
    streams: { codec_type: string; codec_name: string; width?: number; height?: number }[];
    format: { duration: string };
  };
  const video = json.streams.find((s) => s.codec_type === 'video');
  const audio = json.streams.find((s) => s.codec_type === 'audio');
  return { video, audio, duration: Number(json.format.duration) };
}

async function until<T>(fn: () => Promise<T>, ok: (v: T) => boolean, timeoutMs = 120_000): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const v = await fn();
    if (ok(v) || Date.now() > end) return v;
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** ffmpeg processes working in this server's render dir (none may be left after cancel or time-out). */
function rendersRunning(dataDir: string): number {
  const out = execFileSync('ps', ['-eo', 'args='], { encoding: 'utf8' });
  return out.split('\n').filter((l) => l.includes('ffmpeg') && l.includes(path.join(dataDir, 'tmp', 'renders'))).length;
}

/** A GET's status, with the body read off so the connection is free again. */
async function status(url: string): Promise<number> {
  const res = await fetch(url);
  await res.arrayBuffer();
  return res.status;
}

let s: TestServer;
const finished = (id: string) =>
  until(
    () => call(s, `/api/generations/${id}`),
    (r) => r.body.status !== 'generating',
  );

beforeAll(async () => {
  s = await startTestServer({ jobs: { renderConcurrency: 1 } }, { credits: 10_000 });
  s.core.credits.grant(s.orgId, 10_000);
});
afterAll(() => s?.close());

describe('generation pipeline (local renderer)', () => {
  it('renders a text template to a playable MP4 with a thumbnail; video_url supports Range', async () => {
    const r = await generate(s, 'text-to-video-cinematic', { variables: { scene: 'A lighthouse on a cliff at dusk' } });
    expect(r.status).toBe(200);
    const id = r.body.generations[0].generation_id as string;
    const g = (await finished(id)).body;
    expect(g).toMatchObject({ status: 'completed', progress: 100, error: null, queue_position: null });
    const video = Buffer.from(await (await fetch(g.video_url)).arrayBuffer());
    const facts = probe(video);
    expect(facts.video).toMatchObject({ codec_name: 'h264', width: 1280, height: 720 });
    expect(facts.audio?.codec_name).toBe('aac');
    expect(Math.abs(facts.duration - 8)).toBeLessThanOrEqual(0.1);
    const thumb = Buffer.from(await (await fetch(g.thumbnail_url)).arrayBuffer());
    expect(thumb.subarray(0, 3).equals(Buffer.from([0xff, 0xd8, 0xff]))).toBe(true);
    const part = await fetch(g.video_url, { headers: { range: 'bytes=0-99' } });
    expect(part.status).toBe(206);
    expect((await part.arrayBuffer()).byteLength).toBe(100);
  });

  it('an image-to-video template animates the uploaded start frame', async () => {
    const photo = execFileSync('ffmpeg', [
      ...['-v', 'error', '-f', 'lavfi', '-i', 'testsrc2=s=640x480:d=1', '-frames:v', '1', '-f', 'image2pipe'],
      ...['-c:v', 'png', '-'],
    ]);
    const r = await generate(s, 'image-to-video-animate', { variables: { photo: dataUri(photo, 'image/png') } });
    expect(r.status).toBe(200);
    const g = (await finished(r.body.generations[0].generation_id)).body;
    expect(g.status).toBe('completed');
    const facts = probe(Buffer.from(await (await fetch(g.video_url)).arrayBuffer()));
    expect(facts.video).toMatchObject({ codec_name: 'h264', width: 1280, height: 720 });
    expect(Math.abs(facts.duration - 5)).toBeLessThanOrEqual(0.1);
  });

  it('cancel mid-render stops ffmpeg and refunds once', async () => {
    const before = s.core.credits.balance(s.orgId);
    const r = await generate(s, 'text-to-video-pro-1080p', { variables: { product: 'A silver watch' } });
    const id = r.body.generations[0].generation_id as string;
    await until(
      async () => rendersRunning(s.dataDir),
      (n) => n > 0,
      30_000,
    );
    const c = await call(s, `/api/generations/${id}/cancel`, { method: 'POST' });
    expect(c.status).toBe(200);
    expect(c.body.status).toBe('canceled');
    await until(
      async () => rendersRunning(s.dataDir),
      (n) => n === 0,
      10_000,
    );
    expect(rendersRunning(s.dataDir)).toBe(0);
    expect(s.core.credits.balance(s.orgId)).toBe(before);
    const job = s.core.jobs.repo.byRef(id, 'render_generation')[0];
    await until(
      async () => s.core.jobs.repo.get(job!.id)?.status,
      (st) => st === 'canceled',
      10_000,
    );
    expect((await call(s, `/api/generations/${id}`)).body.status).toBe('canceled');
  });

  it('DELETE removes a finished generation and its files; 409 while generating', async () => {
    const r = await generate(s, 'text-to-video-cinematic', { variables: { scene: 'Waves on a quiet beach at noon' } });
    const id = r.body.generations[0].generation_id as string;
    expect((await call(s, `/api/generations/${id}`, { method: 'DELETE' })).status).toBe(409);
    const g = (await finished(id)).body;
    expect(await status(g.video_url)).toBe(200);
    expect((await call(s, `/api/generations/${id}`, { method: 'DELETE' })).status).toBe(204);
    expect(await status(g.video_url)).toBe(404);
    expect((await call(s, `/api/generations/${id}`)).status).toBe(404);
    const other = s.newOrg('pipeline-other');
    expect((await call(s, `/api/generations/${id}`, { method: 'DELETE', key: other.key })).status).toBe(404);
  });

  it('retention removes old results but keeps the record', async () => {
    const r = await generate(s, 'text-to-video-cinematic', { variables: { scene: 'A red kite over green hills' } });
    const id = r.body.generations[0].generation_id as string;
    const g = (await finished(id)).body;
    expect(await s.core.video.generations.expireFiles(Date.now() + 1)).toBeGreaterThanOrEqual(1);
    expect(await status(g.video_url)).toBe(404);
    const after = (await call(s, `/api/generations/${id}`)).body;
    expect(after).toMatchObject({ status: 'completed', video_url: null, thumbnail_url: null });
    expect(after.files_expired_at).toEqual(expect.any(Number));
  });
});

describe('Create Generation (POST /api/generations)', () => {
  async function upload(bytes: Buffer, contentType: string, key = s.key) {
    const p = await call(s, '/api/s3/presign-upload', {
      method: 'POST',
      key,
      json: { kind: 'upload', contentType, fileName: 'f' },
    });
    const put = await fetch(p.body.upload_url, {
      method: 'PUT',
      headers: { 'content-type': contentType },
      body: new Uint8Array(bytes),
    });
    expect(put.status).toBe(200);
    return p.body.s3_key as string;
  }

  it('renders from a prompt and an uploaded start frame, priced per model', async () => {
    const frame = await upload(media.png(), 'image/png');
    const before = s.core.credits.balance(s.orgId);
    const r = await call(s, '/api/generations', {
      method: 'POST',
      json: { prompt: 'The frame slowly comes alive', modelName: 'studio-v1-fast', startFrameKey: frame },
      headers: { 'idempotency-key': 'create-1' },
    });
    expect(r.status).toBe(200);
    // studio-v1-fast: 5 s default at 720p, 0.5 credit/s -> 3 credits
    expect(r.body).toMatchObject({ template_id: 'model:studio-v1-fast', credits_charged: 3 });
    expect(s.core.credits.balance(s.orgId)).toBe(before - 3);
    const again = await call(s, '/api/generations', {
      method: 'POST',
      json: { prompt: 'The frame slowly comes alive', modelName: 'studio-v1-fast', startFrameKey: frame },
      headers: { 'idempotency-key': 'create-1' },
    });
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(s.core.credits.balance(s.orgId)).toBe(before - 3);
    const g = (await finished(r.body.generations[0].generation_id)).body;
    expect(g).toMatchObject({ status: 'completed', template_id: 'model:studio-v1-fast', duration_sec: 5 });
    expect(g.inputs.start_frame).toMatchObject({ storage_key: frame, slot: 'start_frame' });
  });

  it('refuses keys that are not this organization’s uploads of the right kind, URLs and unknown models', async () => {
    const audio = await upload(media.wav(), 'audio/wav');
    const other = s.newOrg('create-other');
    const theirs = await upload(media.png(), 'image/png', other.key);
    const cases: [Record<string, unknown>, RegExp][] = [
      [{ startFrameKey: audio }, /not an image/],
      [{ startFrameKey: theirs }, /does not refer to a file uploaded by this organization/],
      [{ ingredientImageKeys: ['https://example.com/a.png'] }, /storage key/],
      [{ modelName: 'no-such-model' }, /No pricing for model/],
    ];
    for (const [over, message] of cases) {
      const r = await call(s, '/api/generations', {
        method: 'POST',
        json: { prompt: 'x', modelName: 'studio-v1', ...over },
      });
      expect(r.status, JSON.stringify(over)).toBe(400);
      expect(r.body.message).toMatch(message);
    }
    const reader = s.newOrg('create-reader', ['templates:read']);
    expect(
      (
        await call(s, '/api/generations', {
          method: 'POST',
          key: reader.key,
          json: { prompt: 'x', modelName: 'studio-v1' },
        })
      ).status,
    ).toBe(403);
  });
});

describe('time-out', () => {
  let slow: TestServer;
  beforeAll(async () => {
    slow = await startTestServer({ jobs: { renderConcurrency: 1 }, generation: { timeoutSec: 1 } }, { credits: 100 });
  });
  afterAll(() => slow?.close());

  it('a render past the time limit fails with a clear error, is refunded, and leaves no ffmpeg', async () => {
    const before = slow.core.credits.balance(slow.orgId);
    const r = await generate(slow, 'text-to-video-pro-1080p', { variables: { product: 'A ceramic teapot' } });
    const id = r.body.generations[0].generation_id as string;
    const g = (
      await until(
        () => call(slow, `/api/generations/${id}`),
        (x) => x.body.status !== 'generating',
        30_000,
      )
    ).body;
    expect(g).toMatchObject({ status: 'failed', error: 'Timed out after 1 s.' });
    expect(slow.core.credits.balance(slow.orgId)).toBe(before);
    expect(rendersRunning(slow.dataDir)).toBe(0);
  });
});
