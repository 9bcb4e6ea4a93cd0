import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { media } from '../../../helpers/media-fixtures.js';
import { startTestServer, type TestServer } from '../../../helpers/test-server.js';
import { call, generate } from '../../../helpers/video-api.js';

let s: TestServer;
beforeAll(async () => {
  s = await startTestServer({}, { credits: 1000 });
});
afterAll(async () => {
  await s?.close();
});

const make = async (
  key?: string,
  templateId = 'text-to-video-cinematic',
  variables: Record<string, string> = { scene: 'A long enough scene' },
) => {
  const r = await generate(s, templateId, { variables }, { key });
  expect(r.status).toBe(200);
  return r.body.generations[0].generation_id as string;
};

describe('GET /api/generations/:id', () => {
  it("is the org's own only: another org's id is a 404, as is an unknown id", async () => {
    const id = await make();
    const other = s.newOrg('gen-other');
    const r = await call(s, `/api/generations/${id}`, { key: other.key });
    expect(r.status).toBe(404);
    expect(r.body.error).toBe('not_found');
    expect((await call(s, '/api/generations/gen_nope')).status).toBe(404);
    expect((await call(s, `/api/generations/${id}/cancel`, { method: 'POST', key: other.key })).status).toBe(404);
    expect((await call(s, `/api/generations/${id}`)).body.status).toBe('generating');
  });

  it('needs generations:read', async () => {
    const id = await make();
    const org = s.newOrg('gen-scope', ['templates:read']);
    expect((await call(s, `/api/generations/${id}`, { key: org.key })).status).toBe(403);
    expect((await call(s, '/api/generations', { key: org.key })).status).toBe(403);
    expect((await call(s, `/api/generations/${id}`, { key: null })).status).toBe(401);
  });
});

describe('GET /api/generations', () => {
  it('lists newest first, filters by status and template_id, paginates', async () => {
    const org = s.newOrg('gen-list');
    const a = await make(org.key);
    const b = await make(org.key, 'text-to-video-pro-1080p', { product: 'Acme' });
    const c = await make(org.key);
    expect((await call(s, `/api/generations/${c}/cancel`, { method: 'POST', key: org.key })).status).toBe(200);

    const all = await call(s, '/api/generations', { key: org.key });
    expect(all.body.data.map((g: { id: string }) => g.id)).toEqual([c, b, a]);
    expect(all.body.pagination).toEqual({ offset: 0, limit: 50, has_more: false });
    const generating = await call(s, '/api/generations?status=generating', { key: org.key });
    expect(generating.body.data.map((g: { id: string }) => g.id)).toEqual([b, a]);
    const canceled = await call(s, '/api/generations?status=canceled', { key: org.key });
    expect(canceled.body.data.map((g: { id: string }) => g.id)).toEqual([c]);
    const byTemplate = await call(s, '/api/generations?template_id=text-to-video-pro-1080p', { key: org.key });
    expect(byTemplate.body.data.map((g: { id: string }) => g.id)).toEqual([b]);
    const both = await call(s, '/api/generations?template_id=text-to-video-cinematic&status=generating', {
      key: org.key,
    });
    expect(both.body.data.map((g: { id: string }) => g.id)).toEqual([a]);
    const page = await call(s, '/api/generations?limit=1&offset=1', { key: org.key });
    expect(page.body.data.map((g: { id: string }) => g.id)).toEqual([b]);
    expect(page.body.pagination).toEqual({ offset: 1, limit: 1, has_more: true });
    expect((await call(s, '/api/generations?limit=1000', { key: org.key })).body.pagination.limit).toBe(100);
    expect((await call(s, '/api/generations?status=done', { key: org.key })).status).toBe(400);
    expect((await call(s, '/api/generations?offset=-1', { key: org.key })).status).toBe(400);
    const stranger = s.newOrg('gen-list-stranger');
    expect((await call(s, '/api/generations', { key: stranger.key })).body.data).toEqual([]);
  });
});

describe('POST /api/generations/:id/cancel', () => {
  it('cancels a generating generation, refunds it, and a second cancel is a 409', async () => {
    const org = s.newOrg('gen-cancel');
    const before = s.core.credits.balance(org.orgId);
    const r = await generate(
      s,
      'text-to-video-cinematic',
      { variables: { scene: 'A long enough scene' }, num_videos: 2 },
      { key: org.key },
    );
    const [id, sibling] = r.body.generations.map((g: { generation_id: string }) => g.generation_id);
    expect(s.core.credits.balance(org.orgId)).toBe(before - 16);
    const canceled = await call(s, `/api/generations/${id}/cancel`, { method: 'POST', key: org.key });
    expect(canceled.status).toBe(200);
    expect(canceled.body).toMatchObject({
      id,
      status: 'canceled',
      credits_charged: 8,
      credits_refunded: 8,
      finished_at: expect.any(Number),
      completed_at: null,
    });
    expect(s.core.credits.balance(org.orgId)).toBe(before - 8);
    const ledger = s.core.credits.ledger(org.orgId).filter((e) => e.kind === 'refund');
    expect(ledger).toEqual([expect.objectContaining({ amount: 8, ref: id })]);
    expect(s.core.jobs.repo.byRef(id, 'render_generation').map((j) => j.status)).toEqual(['canceled']);
    expect(s.core.jobs.repo.byRef(sibling, 'render_generation').map((j) => j.status)).toEqual(['queued']);

    const again = await call(s, `/api/generations/${id}/cancel`, { method: 'POST', key: org.key });
    expect(again.status).toBe(409);
    expect(again.body.error).toBe('conflict');
    expect(s.core.credits.balance(org.orgId)).toBe(before - 8);
  });

  it('concurrent cancels refund once', async () => {
    const org = s.newOrg('gen-cancel-race');
    const id = await make(org.key);
    const before = s.core.credits.balance(org.orgId);
    const results = await Promise.all(
      Array.from({ length: 10 }, () => call(s, `/api/generations/${id}/cancel`, { method: 'POST', key: org.key })),
    );
    expect(results.filter((r) => r.status === 200)).toHaveLength(1);
    expect(results.filter((r) => r.status === 409)).toHaveLength(9);
    expect(s.core.credits.balance(org.orgId)).toBe(before + 8);
  });

  it('needs generations:write', async () => {
    const id = await make();
    const reader = s.newOrg('gen-cancel-reader', ['generations:read']);
    const r = await call(s, `/api/generations/${id}/cancel`, { method: 'POST', key: reader.key });
    expect(r.status).toBe(403);
  });
});

describe('transitions the render job drives', () => {
  it('progress, then completed with signed video and thumbnail URLs; failed with an error and a refund', async () => {
    const org = s.newOrg('gen-pipeline');
    const done = await make(org.key);
    const failed = await make(org.key);
    const canceled = await make(org.key);
    await call(s, `/api/generations/${canceled}/cancel`, { method: 'POST', key: org.key });
    // Rendering is paused in these tests (jobs.renderConcurrency 0): every render job waits in the queue.
    const queued = (await call(s, `/api/generations/${failed}`, { key: org.key })).body;
    expect(queued.queue_position).toBeGreaterThanOrEqual(1);

    const gens = s.core.video.generations;
    expect(gens.progress(done, 42)).toBe(true);
    expect((await call(s, `/api/generations/${done}`, { key: org.key })).body.progress).toBe(42);
    const video = media.mp4(1000);
    const thumb = media.jpeg();
    await s.core.video.blobs.put(`generations/${done}.mp4`, video, 'video/mp4');
    await s.core.video.blobs.put(`generations/${done}.jpg`, thumb, 'image/jpeg');
    const result = { videoKey: `generations/${done}.mp4`, thumbnailKey: `generations/${done}.jpg` };
    expect(gens.complete(done, result)).toBe(true);
    expect(gens.complete(done, result)).toBe(false);
    const g = (await call(s, `/api/generations/${done}`, { key: org.key })).body;
    expect(g).toMatchObject({ status: 'completed', progress: 100, error: null, completed_at: expect.any(Number) });
    expect(g.queue_position).toBeNull();
    expect(g.video_url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\//);
    expect(g.video_url_expires_at).toBeGreaterThan(Date.now());
    const download = await fetch(g.video_url);
    expect(download.status).toBe(200);
    expect(Buffer.from(await download.arrayBuffer()).equals(video)).toBe(true);
    const thumbnail = await fetch(g.thumbnail_url);
    expect(Buffer.from(await thumbnail.arrayBuffer()).equals(thumb)).toBe(true);
    expect((await call(s, `/api/generations/${done}/cancel`, { method: 'POST', key: org.key })).status).toBe(409);

    const before = s.core.credits.balance(org.orgId);
    expect(gens.fail(failed, 'render timed out')).toBe(true);
    const f = (await call(s, `/api/generations/${failed}`, { key: org.key })).body;
    expect(f).toMatchObject({ status: 'failed', error: 'render timed out', video_url: null, credits_refunded: 8 });
    expect(s.core.credits.balance(org.orgId)).toBe(before + 8);
    expect(gens.fail(canceled, 'late')).toBe(false);
    expect(gens.fail(failed, 'twice')).toBe(false);
    expect(s.core.credits.balance(org.orgId)).toBe(before + 8);
  });
});
