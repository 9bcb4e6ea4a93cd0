import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FalStandin } from '../../../fixtures/providers/fal-standin.js';
import { startTestServer, type TestServer } from '../../../helpers/test-server.js';
import { call, generate } from '../../../helpers/video-api.js';

const KEY = 'fal-test-key-0123456789';
let fal: FalStandin;
let s: TestServer;

async function finished(id: string) {
  const end = Date.now() + 60_000;
  for (;;) {
    const r = await call(s, `/api/generations/${id}`);
    if (r.body.status !== 'generating' || Date.now() > end) return r.body;
    await new Promise((res) => setTimeout(res, 50));
  }
}

beforeAll(async () => {
  fal = await new FalStandin(KEY).start();
  s = await startTestServer(
    { jobs: { renderConcurrency: 1 }, providers: { fal: { baseUrl: fal.url }, pollIntervalMs: 20 } },
    { credits: 100 },
  );
  await s.core.secrets.set('providers.fal.key', KEY);
  const t = await call(s, '/api/templates', {
    method: 'POST',
    json: {
      title: 'Kling text to video',
      category: 'text-to-video',
      duration_sec: 5,
      model: 'studio-pro',
      resolution: '720p',
      input_variables: [{ key: 'scene', label: 'Scene', type: 'text', required: true }],
      prompt_template: 'A scene: {{scene}}',
      provider: {
        name: 'fal',
        model: 'fal-ai/kling-video/v2/master/text-to-video',
        input: { prompt: '{{prompt}}', duration: '{{duration_sec}}', aspect_ratio: '16:9' },
      },
    },
  });
  expect(t.status, JSON.stringify(t.body)).toBe(200);
});
afterAll(async () => {
  await s?.close();
  await fal?.stop();
});

describe('a template whose provider is fal.ai (stand-in) runs through the pipeline', () => {
  it('completes with the provider’s video, stored with a thumbnail; the provider got the mapped input', async () => {
    const templates = (await call(s, '/api/templates')).body.data as { id: string; title: string }[];
    const id = templates.find((t) => t.title === 'Kling text to video')!.id;
    const r = await generate(s, id, { variables: { scene: 'a fox in the snow' } });
    expect(r.status).toBe(200);
    const g = await finished(r.body.generations[0].generation_id);
    expect(g).toMatchObject({ status: 'completed', error: null });
    const submitted = fal.seen('POST', '/text-to-video')[0]!;
    expect(submitted.body).toEqual({ prompt: 'A scene: a fox in the snow', duration: 5, aspect_ratio: '16:9' });
    const video = Buffer.from(await (await fetch(g.video_url)).arrayBuffer());
    expect(video.subarray(4, 8).toString('latin1')).toBe('ftyp');
    const thumbnail = await fetch(g.thumbnail_url);
    await thumbnail.arrayBuffer();
    expect(thumbnail.headers.get('content-type')).toMatch(/^image\/jpeg/);
    expect(fal.cdnSawAuthorization).toBe(false);
  });

  it('a provider failure is a readable failed generation, refunded; no key in the message', async () => {
    const templates = (await call(s, '/api/templates')).body.data as { id: string; title: string }[];
    const id = templates.find((t) => t.title === 'Kling text to video')!.id;
    fal.script = { failure: { status: 422, body: { detail: [{ msg: 'prompt violates the content policy' }] } } };
    const before = s.core.credits.balance(s.orgId);
    const r = await generate(s, id, { variables: { scene: 'something' } });
    const g = await finished(r.body.generations[0].generation_id);
    expect(g.status).toBe('failed');
    expect(g.error).toMatch(/content policy/);
    expect(g.error).not.toContain(KEY);
    expect(s.core.credits.balance(s.orgId)).toBe(before);
    fal.script = { queuePolls: 1, progressPolls: 1 };
  });

  it('a template naming an unknown variable in its provider input is refused when saved', async () => {
    const t = await call(s, '/api/templates', {
      method: 'POST',
      json: {
        title: 'Broken',
        category: 'text-to-video',
        input_variables: [{ key: 'scene', label: 'Scene', type: 'text' }],
        provider: { name: 'fal', model: 'fal-ai/x', input: { prompt: '{{nope}}' } },
      },
    });
    expect(t.status).toBe(400);
    expect(t.body.message).toMatch(/\{\{nope\}\} is neither a variable/);
  });
});
