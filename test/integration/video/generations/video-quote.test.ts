// Quotes: POST /api/templates/:id/quote and POST /api/generations/quote answer what generate / Create Generation
// would charge, and store nothing. The property: over random valid bodies the quote's credits equal what generate
// then takes from the balance.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { media } from '../../../helpers/media-fixtures.js';
import { prng } from '../../../helpers/prng.js';
import { startTestServer, type TestServer } from '../../../helpers/test-server.js';
import { balanceOf, call, generate, startMediaHost, templateBody } from '../../../helpers/video-api.js';

let s: TestServer;
let host: Awaited<ReturnType<typeof startMediaHost>>;
beforeAll(async () => {
  s = await startTestServer({}, { credits: 1_000_000 });
  host = await startMediaHost({ '/cat.png': { bytes: media.png(2048), type: 'image/png' } });
});
afterAll(async () => {
  await host?.close();
  await s?.close();
});

const quote = (templateId: string, body: unknown, key?: string) =>
  call(s, `/api/templates/${encodeURIComponent(templateId)}/quote`, { method: 'POST', json: body, key });
const generationCount = (orgId = s.orgId) =>
  (s.core.db.prepare('SELECT COUNT(*) AS n FROM generations WHERE org_id = ?').get(orgId) as { n: number }).n;

/** Priced model configurations (GET /api/pricing) a custom template may take. */
const CONFIGS = [
  { model: 'studio-v1', resolutions: ['480p', '720p', '1080p'], max: 60 },
  { model: 'studio-v1-fast', resolutions: ['480p', '720p'], max: 20 },
  { model: 'studio-pro', resolutions: ['720p', '1080p', '4k'], max: 30 },
];

describe('quote equals the charge', () => {
  it('over random templates, num_videos, batches and drafts (seeded)', async () => {
    const rand = prng(20261127);
    const templates: string[] = ['text-to-video-cinematic'];
    // Hosted templates are quoted as drafts only: a hosted job would run (and fail, refunded) during the loop.
    const hosted = new Set<string>();
    for (let i = 0; i < 6; i++) {
      const c = rand.pick(CONFIGS);
      const created = await call(s, '/api/templates', {
        method: 'POST',
        json: templateBody({
          title: `Quote ${i}`,
          model: c.model,
          resolution: rand.pick(c.resolutions),
          duration_sec: rand.pick([null, 1, 2.5, 7, c.max]),
          ...(i % 3 === 0 ? { provider: { name: 'fal', model: 'fal-ai/some/model', input: {} } } : {}),
        }),
      });
      expect(created.status).toBe(200);
      templates.push(created.body.id);
      if (i % 3 === 0) hosted.add(created.body.id);
    }
    for (let run = 0; run < 24; run++) {
      const id = rand.pick(templates);
      const value = () =>
        id === 'text-to-video-cinematic' ? { scene: `A lighthouse at dusk, take ${run}` } : { topic: `topic ${run}` };
      const body: Record<string, unknown> = { variables: value() };
      if (rand.int(3) === 0) {
        body.batch = Array.from({ length: 1 + rand.int(5) }, () => ({ variables: value() }));
      } else if (rand.int(2) === 0) body.num_videos = 1 + rand.int(4);
      // Fewer than 30 drafts in all: the per-key limit of a minute.
      if (hosted.has(id) || rand.int(4) === 0) body.draft = true;
      const q = await quote(id, body);
      expect(q.status, JSON.stringify(q.body)).toBe(200);
      const before = balanceOf(s, s.orgId);
      expect(q.body.balance_after).toBe(before - q.body.credits);
      const g = await generate(s, id, body);
      expect(g.status, JSON.stringify(g.body)).toBe(200);
      expect(g.body.credits_charged).toBe(q.body.credits);
      expect(before - balanceOf(s, s.orgId)).toBe(q.body.credits);
      expect(q.body.num_videos).toBe(g.body.generations.length);
      expect(q.body.credits).toBe(q.body.per_video * q.body.num_videos);
      if (body.draft) expect(q.body).toMatchObject({ credits: 0, draft: true, provider: 'local', resolution: '360p' });
    }
  });

  it('names a hosted renderer and its model', async () => {
    const created = await call(s, '/api/templates', {
      method: 'POST',
      json: templateBody({ provider: { name: 'fal', model: 'fal-ai/kling-video/v2/master/text-to-video', input: {} } }),
    });
    const q = await quote(created.body.id, { variables: { topic: 'a lighthouse' } });
    expect(q.body).toMatchObject({ provider: 'fal', draft: false, credits: 4 });
    expect(q.body.renderer).toEqual({
      kind: 'hosted',
      name: 'fal',
      model: 'fal-ai/kling-video/v2/master/text-to-video',
      label: 'fal · fal-ai/kling-video/v2/master/text-to-video',
    });
    expect(created.body.renderer).toEqual(q.body.renderer);
    const replicate = await call(s, '/api/templates', {
      method: 'POST',
      json: templateBody({
        title: 'On Replicate',
        provider: { name: 'replicate', model: 'owner/video-model', input: {} },
      }),
    });
    expect(replicate.body.renderer).toEqual({
      kind: 'hosted',
      name: 'replicate',
      model: 'owner/video-model',
      label: 'Replicate · owner/video-model',
    });
    const draft = await quote(created.body.id, { variables: { topic: 'a lighthouse' }, draft: true });
    expect(draft.body).toMatchObject({ provider: 'local', credits: 0, renderer: { kind: 'local' } });
  });

  it('answers the documented shape, naming the renderer', async () => {
    const q = await quote('text-to-video-cinematic', { variables: { scene: 'A lighthouse at dusk' }, num_videos: 2 });
    expect(q.body).toEqual({
      credits: 16,
      per_video: 8,
      num_videos: 2,
      provider: 'local',
      model: 'studio-v1',
      resolution: '720p',
      duration_sec: 8,
      latency_estimate_sec: { typical: expect.any(Number), busy: expect.any(Number) },
      balance_after: balanceOf(s, s.orgId) - 16,
      draft: false,
      renderer: {
        kind: 'local',
        name: 'local',
        model: null,
        label: 'Local draft (offline motion graphics: title cards, pan and zoom, cards, waveforms)',
      },
    });
    // From the local renderer's speed on this machine, not the hosted wait the template's JSON states (90 s).
    expect(q.body.latency_estimate_sec.typical).toBeLessThan(30);
  });
});

describe('a quote keeps nothing', () => {
  it('no generation, no charge, no idempotency record, no download, no upload', async () => {
    const gens = generationCount();
    const balance = balanceOf(s, s.orgId);
    const uploads = (s.core.db.prepare('SELECT COUNT(*) AS n FROM uploads').get() as { n: number }).n;
    const hits = host.hits.length;
    const q = await call(s, '/api/templates/image-to-video-animate/quote', {
      method: 'POST',
      json: { variables: { photo: host.url('/cat.png') } },
      headers: { 'idempotency-key': 'quote-key-1' },
    });
    expect(q.status, JSON.stringify(q.body)).toBe(200);
    expect(host.hits.length).toBe(hits); // a URL is checked for shape, not fetched
    const form = new FormData();
    form.set('variables[photo]', new Blob([new Uint8Array(media.png(1024))], { type: 'image/png' }), 'cat.png');
    const multipart = await call(s, '/api/templates/image-to-video-animate/quote', { method: 'POST', body: form });
    expect(multipart.status, JSON.stringify(multipart.body)).toBe(200);
    expect(generationCount()).toBe(gens);
    expect(balanceOf(s, s.orgId)).toBe(balance);
    expect((s.core.db.prepare('SELECT COUNT(*) AS n FROM uploads').get() as { n: number }).n).toBe(uploads);
    const idem = s.core.db.prepare('SELECT COUNT(*) AS n FROM idempotency_keys WHERE key = ?').get('quote-key-1');
    expect(idem).toEqual({ n: 0 });
  });

  it('gives an invalid body the same 400 as generate', async () => {
    const bodies: [string, unknown][] = [
      ['text-to-video-cinematic', { variables: {} }],
      ['text-to-video-cinematic', { variables: { scene: 'short' } }],
      ['text-to-video-cinematic', { variables: { scene: 'A lighthouse at dusk', nope: 'x' } }],
      ['text-to-video-cinematic', { variables: { scene: 'A lighthouse at dusk' }, num_videos: 9 }],
      ['text-to-video-cinematic', { batch: [{ variables: { scene: 'A lighthouse at dusk' } }], num_videos: 2 }],
      ['text-to-video-cinematic', { batch: [{ variables: { scene: 'A lighthouse at dusk' } }, { variables: {} }] }],
      ['text-to-video-cinematic', { variables: { scene: 'A lighthouse at dusk' }, webhook_events: ['started'] }],
      ['image-to-video-animate', { variables: { photo: 'ftp://example.invalid/x.png' } }],
      ['no-such-template', { variables: {} }],
    ];
    for (const [id, body] of bodies) {
      const q = await quote(id, body);
      const g = await generate(s, id, body);
      expect(q.status, JSON.stringify(body)).toBe(g.status);
      expect(q.status).toBeGreaterThanOrEqual(400);
      if (id !== 'image-to-video-animate') expect(q.body).toEqual(g.body);
      else expect(q.body.error).toBe(g.body.error);
    }
    const bad = await quote('text-to-video-cinematic', {
      batch: [{ variables: { scene: 'A lighthouse at dusk' } }, { variables: {} }],
    });
    expect(bad.body.message).toMatch(/batch\[1\]: missing required variable\(s\): scene/);
  });

  it('needs the scope generate needs', async () => {
    const reader = s.newOrg('quote-scopes', ['templates:read']);
    const none = s.newOrg('quote-none', ['generations:read']);
    const body = { variables: { scene: 'A lighthouse at dusk' } };
    expect((await quote('text-to-video-cinematic', body, reader.key)).status).toBe(200);
    expect((await quote('text-to-video-cinematic', body, none.key)).status).toBe(403);
    const model = { prompt: 'A lighthouse', modelName: 'studio-v1-fast', num_videos: 3 };
    const q = await call(s, '/api/generations/quote', { method: 'POST', json: model, key: reader.key });
    expect(q.status).toBe(403); // as Create Generation: generations:write
    const mq = await call(s, '/api/generations/quote', { method: 'POST', json: model });
    const before = balanceOf(s, s.orgId);
    const mg = await call(s, '/api/generations', { method: 'POST', json: model });
    expect(mg.status).toBe(200);
    expect(mq.body).toMatchObject({ credits: mg.body.credits_charged, num_videos: 3, model: 'studio-v1-fast' });
    expect(before - balanceOf(s, s.orgId)).toBe(mq.body.credits);
  });
});
