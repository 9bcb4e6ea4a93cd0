// Batches: `batch: [{variables, character_variables?}, …]` on generate — validated all-or-nothing, charged once,
// one generation per row, listed and canceled together by batch_id.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { media } from '../../../helpers/media-fixtures.js';
import { startTestServer, type TestServer } from '../../../helpers/test-server.js';
import { balanceOf, call, chargesOf, generate, generateMultipart } from '../../../helpers/video-api.js';

let s: TestServer;
beforeAll(async () => {
  s = await startTestServer({}, { credits: 10_000 }); // rendering paused: the batch stays generating
});
afterAll(() => s?.close());

const rows = (n: number) =>
  Array.from({ length: n }, (_, i) => ({ variables: { scene: `Scene number ${i}: a lighthouse at dusk` } }));
const generationCount = () =>
  (s.core.db.prepare('SELECT COUNT(*) AS n FROM generations WHERE org_id = ?').get(s.orgId) as { n: number }).n;

describe('a batch of 50', () => {
  it('is charged once, one generation per row, and cancellable as one', async () => {
    const before = balanceOf(s, s.orgId);
    const charges = chargesOf(s, s.orgId).length;
    const body = { batch: rows(50), variables: { camera: 'locked-off tripod' } };
    const quote = await call(s, '/api/templates/text-to-video-cinematic/quote', { method: 'POST', json: body });
    expect(quote.body).toMatchObject({ credits: 400, per_video: 8, num_videos: 50 });

    const r = await generate(s, 'text-to-video-cinematic', body);
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body.credits_charged).toBe(400);
    expect(r.body.generations).toHaveLength(50);
    expect(r.body.generations.map((g: { batch_index: number }) => g.batch_index)).toEqual([...Array(50).keys()]);
    const batchId = r.body.batch_id as string;
    expect(batchId).toMatch(/^gbt_/);
    expect(balanceOf(s, s.orgId)).toBe(before - 400);
    const newCharges = chargesOf(s, s.orgId).slice(0, chargesOf(s, s.orgId).length - charges);
    expect(newCharges).toEqual([expect.objectContaining({ amount: -400, ref: batchId })]);

    const listed = await call(s, `/api/generations?batch_id=${batchId}&limit=100`);
    expect(listed.body.data).toHaveLength(50);
    const byIndex = [...listed.body.data].sort((a, b) => a.batch_index - b.batch_index);
    byIndex.forEach((g, i) => {
      expect(g).toMatchObject({ batch_id: batchId, batch_index: i, credits_charged: 8, status: 'generating' });
      expect(g.prompt).toMatch(
        new RegExp(`^Scene number ${i}: a lighthouse at dusk\\..*Camera: locked-off tripod\\.$`),
      );
    });

    const canceled = await call(s, `/api/batches/${batchId}/cancel`, { method: 'POST' });
    expect(canceled.status).toBe(200);
    expect(canceled.body.batch_id).toBe(batchId);
    expect(canceled.body.canceled).toHaveLength(50);
    expect(canceled.body.credits_refunded).toBe(400);
    expect(balanceOf(s, s.orgId)).toBe(before);
    const after = await call(s, `/api/generations?batch_id=${batchId}&status=canceled&limit=100`);
    expect(after.body.data).toHaveLength(50);
    const again = await call(s, `/api/batches/${batchId}/cancel`, { method: 'POST' });
    expect(again.body).toEqual({ batch_id: batchId, canceled: [], credits_refunded: 0 });
    expect(balanceOf(s, s.orgId)).toBe(before);
    const jobs = s.core.db
      .prepare(
        "SELECT COUNT(*) AS n FROM jobs j JOIN generations g ON g.id = j.ref_id WHERE g.batch_id = ? AND j.status = 'canceled'",
      )
      .get(batchId);
    expect(jobs).toEqual({ n: 50 });
  });
});

describe('validation', () => {
  it('is all-or-nothing and names the row', async () => {
    const before = balanceOf(s, s.orgId);
    const count = generationCount();
    const batch = rows(10);
    batch[7] = { variables: { scene: 'short' } };
    batch[3] = { variables: { nope: 'x', scene: 'A lighthouse at dusk' } } as never;
    const r = await generate(s, 'text-to-video-cinematic', { batch });
    expect(r.status).toBe(400);
    expect(r.body.error).toBe('validation_error');
    expect(r.body.message).toMatch(/batch\[3\]: unknown variable\(s\): nope/);
    expect(r.body.message).toMatch(/batch\[7\]: variables\.scene: at least 10 characters/);
    expect(balanceOf(s, s.orgId)).toBe(before);
    expect(generationCount()).toBe(count);
  });

  it('a media row that cannot be stored names its row and keeps nothing', async () => {
    const r = await generate(s, 'image-to-video-animate', {
      batch: [
        { variables: { photo: `data:image/png;base64,${media.png(512).toString('base64')}` } },
        { variables: { photo: 'uploads/not-a-key.png' } },
      ],
    });
    expect(r.status).toBe(400);
    expect(r.body.message).toMatch(/^batch\[1\]: variables\.photo:/);
  });

  it('refuses num_videos > 1 with batch, more than 100 rows, and a body with neither variables nor batch', async () => {
    const both = await generate(s, 'text-to-video-cinematic', { batch: rows(2), num_videos: 2 });
    expect(both.status).toBe(400);
    expect(both.body.message).toMatch(/num_videos > 1 cannot be combined with batch/);
    const many = await generate(s, 'text-to-video-cinematic', { batch: rows(101) });
    expect(many.status).toBe(400);
    const neither = await generate(s, 'text-to-video-cinematic', {});
    expect(neither.status).toBe(400);
    expect(neither.body.message).toMatch(/variables is required \(or send batch\)/);
  });
});

describe('multipart', () => {
  it('takes the rows as a JSON field and shares the files', async () => {
    const before = balanceOf(s, s.orgId);
    const form = new FormData();
    form.set('variables[photo]', new Blob([new Uint8Array(media.png(1024))], { type: 'image/png' }), 'me.png');
    form.set('batch', JSON.stringify([{ variables: { motion: 'slow zoom' } }, { variables: { motion: 'pan left' } }]));
    const r = await generateMultipart(s, 'image-to-video-animate', form);
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body.generations).toHaveLength(2);
    expect(balanceOf(s, s.orgId)).toBe(before - r.body.credits_charged);
    const listed = (await call(s, `/api/generations?batch_id=${r.body.batch_id}`)).body.data as {
      batch_index: number;
      inputs: Record<string, { storage_key?: string; value?: string }>;
    }[];
    const [a, b] = listed.sort((x, y) => x.batch_index - y.batch_index);
    expect(a.inputs.photo.storage_key).toBe(b.inputs.photo.storage_key);
    expect([a.inputs.motion.value, b.inputs.motion.value]).toEqual(['slow zoom', 'pan left']);
    const bad = new FormData();
    bad.set('batch', 'not json');
    expect((await generateMultipart(s, 'image-to-video-animate', bad)).status).toBe(400);
  });
});

describe('cancel by batch id', () => {
  it('404 for another organization’s batch', async () => {
    const r = await generate(s, 'text-to-video-cinematic', { batch: rows(2) });
    const other = s.newOrg('batch-other');
    const res = await call(s, `/api/batches/${r.body.batch_id}/cancel`, { method: 'POST', key: other.key });
    expect(res.status).toBe(404);
    expect(res.body.error).toBe('not_found');
    await call(s, `/api/batches/${r.body.batch_id}/cancel`, { method: 'POST' });
  });
});
