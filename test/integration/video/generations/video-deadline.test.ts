// deadline_sec: a generation not started by then ends `aborted`, refunded in full; one started and still rendering
// ends `failed` with the time-out reason, refunded as every failure.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FalStandin } from '../../../fixtures/providers/fal-standin.js';
import { startTestServer, type TestServer } from '../../../helpers/test-server.js';
import { balanceOf, call, generate, templateBody } from '../../../helpers/video-api.js';

const FAL_KEY = 'fal-test-key-0123456789';

async function until<T>(fn: () => Promise<T>, ok: (v: T) => boolean, timeoutMs = 60_000): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const v = await fn();
    if (ok(v) || Date.now() > end) return v;
    await new Promise((r) => setTimeout(r, 50));
  }
}

let s: TestServer;
let fal: FalStandin;
const getGeneration = (id: string) => call(s, `/api/generations/${id}`);
const settled = (id: string) =>
  until(
    () => getGeneration(id),
    (g) => g.body.status !== 'generating',
  );

beforeAll(async () => {
  fal = await new FalStandin(FAL_KEY).start();
  s = await startTestServer(
    { jobs: { renderConcurrency: 1 }, providers: { fal: { baseUrl: fal.url }, pollIntervalMs: 20 } },
    { credits: 1_000 },
  );
  await s.core.secrets.set('providers.fal.key', FAL_KEY);
});
afterAll(async () => {
  await s?.close();
  await fal?.stop();
});

describe('deadline_sec', () => {
  it('aborts a generation still queued at its deadline and refunds it in full', async () => {
    // Fill the one render slot with a long local render (a minute of 1080p cannot be made in a second).
    const long = await call(s, '/api/templates', {
      method: 'POST',
      json: templateBody({ title: 'A long one', duration_sec: 60, resolution: '1080p' }),
    });
    const filler = await generate(s, long.body.id, { variables: { topic: 'the long one' } });
    expect(filler.status, JSON.stringify(filler.body)).toBe(200);
    const fillerId = filler.body.generations[0].generation_id as string;
    await until(
      () => getGeneration(fillerId),
      (g) => g.body.started_at !== null,
    );

    const before = balanceOf(s, s.orgId);
    const r = await generate(s, 'text-to-video-cinematic', {
      variables: { scene: 'A lighthouse at dusk, waves below' },
      deadline_sec: 1,
      num_videos: 2,
    });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(balanceOf(s, s.orgId)).toBe(before - 16);
    const ids = r.body.generations.map((g: { generation_id: string }) => g.generation_id) as string[];
    const queued = await getGeneration(ids[0]);
    expect(queued.body).toMatchObject({ status: 'generating', started_at: null, queue_position: 1 });
    expect(queued.body.deadline_at - queued.body.created_at).toBe(1000);

    for (const id of ids) {
      const g = await settled(id);
      expect(g.body).toMatchObject({
        status: 'aborted',
        started_at: null,
        credits_charged: 8,
        credits_refunded: 8,
        error: expect.stringMatching(/^Aborted: the render had not started when deadline_sec \(1 s\) passed/),
      });
      expect(g.body.finished_at).not.toBeNull();
    }
    expect(balanceOf(s, s.orgId)).toBe(before);
    // Its render job never ran, and never will.
    const jobs = s.core.db
      .prepare("SELECT status FROM jobs WHERE kind = 'render_generation' AND ref_id IN (?, ?)")
      .all(...ids) as { status: string }[];
    expect(jobs.map((j) => j.status)).toEqual(['canceled', 'canceled']);
    expect((await call(s, '/api/generations?status=aborted')).body.data).toHaveLength(2);

    const canceled = await call(s, `/api/generations/${fillerId}/cancel`, { method: 'POST' });
    expect(canceled.body.status).toBe('canceled');
  });

  it('fails a generation still rendering at its deadline with the time-out reason, refunded', async () => {
    fal.script = { hold: true }; // the provider keeps the job running until it is canceled
    const t = await call(s, '/api/templates', {
      method: 'POST',
      json: templateBody({
        title: 'Hosted and slow',
        provider: { name: 'fal', model: 'fal-ai/kling-video/v2/master/text-to-video', input: { prompt: '{{prompt}}' } },
      }),
    });
    const before = balanceOf(s, s.orgId);
    const r = await call(s, '/api/generations', {
      method: 'POST',
      json: { prompt: 'placeholder', modelName: 'studio-v1-fast', deadline_sec: 600 },
    });
    expect(r.status, JSON.stringify(r.body)).toBe(200); // Create Generation takes deadline_sec too
    const g0 = await getGeneration(r.body.generations[0].generation_id);
    expect(g0.body.deadline_at - g0.body.created_at).toBe(600_000);
    await call(s, `/api/generations/${g0.body.id}/cancel`, { method: 'POST' });

    const slow = await generate(s, t.body.id, { variables: { topic: 'a slow fox' }, deadline_sec: 2 });
    expect(slow.status, JSON.stringify(slow.body)).toBe(200);
    const id = slow.body.generations[0].generation_id as string;
    const g = await settled(id);
    expect(g.body).toMatchObject({
      status: 'failed',
      credits_charged: 4,
      credits_refunded: 4,
      error: expect.stringMatching(/^Timed out: still rendering when deadline_sec \(2 s\) passed/),
    });
    expect(g.body.started_at).not.toBeNull();
    expect(balanceOf(s, s.orgId)).toBe(before);
    // The provider was told to stop.
    await until(
      async () => [...fal.jobs.values()].some((j) => j.canceled),
      (v) => v,
    );
  });
});
