import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { media } from '../../../helpers/media-fixtures.js';
import { startTestServer, type TestServer } from '../../../helpers/test-server.js';
import {
  call,
  chargesOf,
  dataUri,
  generate,
  startMediaHost,
  templateBody,
  upload,
} from '../../../helpers/video-api.js';

let s: TestServer;
let host: Awaited<ReturnType<typeof startMediaHost>>;
beforeAll(async () => {
  s = await startTestServer({}, { credits: 10_000 });
  host = await startMediaHost({
    '/cat.png': { bytes: media.png(2048), type: 'image/png' },
    '/clip.mp4': { bytes: media.mp4(4096), type: 'video/mp4' },
    '/fake.png': { bytes: media.text(256), type: 'image/png' },
  });
});
afterAll(async () => {
  await host?.close();
  await s?.close();
});

const getGeneration = async (id: string, key?: string) => call(s, `/api/generations/${id}`, { key });
const firstId = (r: { body: { generations: { generation_id: string }[] } }) => r.body.generations[0].generation_id;

describe('text variables', () => {
  it('fills defaults, renders the prompt and answers the documented shape', async () => {
    const r = await generate(s, 'text-to-video-cinematic', {
      variables: { scene: 'A lighthouse at dusk, waves below', camera: '' },
    });
    expect(r.status).toBe(200);
    expect(r.body).toEqual({
      generations: [{ generation_id: expect.stringMatching(/^gen_/), status: 'generating' }],
      template_id: 'text-to-video-cinematic',
      credits_charged: 8,
      latency_estimate_sec: { typical: expect.any(Number), busy: expect.any(Number) },
    });
    // The local renderer's own speed here (an 8 s 720p render: seconds), not the hosted wait the JSON states (90 s).
    expect(r.body.latency_estimate_sec.typical).toBeLessThan(30);
    const g = await getGeneration(firstId(r));
    expect(g.body).toMatchObject({
      status: 'generating',
      progress: 0,
      template_id: 'text-to-video-cinematic',
      prompt:
        'A lighthouse at dusk, waves below. Style: cinematic, 35mm film, shallow depth of field. Camera: slow dolly-in.',
      credits_charged: 8,
      credits_refunded: 0,
      video_url: null,
      error: null,
      model: 'studio-v1',
      resolution: '720p',
      duration_sec: 8,
    });
    expect(g.body.inputs.scene).toEqual({
      type: 'text',
      source: 'request',
      value: 'A lighthouse at dusk, waves below',
      role: 'headline',
    });
    expect(g.body.inputs.style.source).toBe('default');
    // Each input records its layout role (the template's), so the local renderer lays it out the same way later.
    expect(g.body.inputs.camera).toEqual({ type: 'text', source: 'default', value: 'slow dolly-in', role: 'motion' });
  });

  it('names every missing required variable (400 validation_error)', async () => {
    const r = await generate(s, 'ingredients-product-spokesperson', { variables: {} });
    expect(r.status).toBe(400);
    expect(r.body.error).toBe('validation_error');
    expect(r.body.message).toMatch(/missing required variable\(s\): presenter, product_image, pitch/);
  });

  it('checks min_length / max_length, unknown keys and the body shape', async () => {
    const short = await generate(s, 'text-to-video-cinematic', { variables: { scene: 'short' } });
    expect(short.status).toBe(400);
    expect(short.body.message).toMatch(/variables\.scene: at least 10 characters/);
    const long = await generate(s, 'text-to-video-cinematic', { variables: { scene: 'x'.repeat(1001) } });
    expect(long.body.message).toMatch(/variables\.scene: at most 1000 characters/);
    const unknown = await generate(s, 'text-to-video-cinematic', {
      variables: { scene: 'A long enough scene', colour: 'red' },
    });
    expect(unknown.status).toBe(400);
    expect(unknown.body.message).toMatch(/unknown variable\(s\): colour/);
    for (const body of [
      {},
      { variables: 'x' },
      { variables: { scene: 5 } },
      { variables: {}, extra: 1 },
      { variables: {}, webhook_url: 'ftp://x' },
    ]) {
      const r = await generate(s, 'text-to-video-cinematic', body);
      expect(r.status, JSON.stringify(body)).toBe(400);
      expect(r.body.error).toBe('validation_error');
    }
    const notJson = await call(s, '/api/templates/text-to-video-cinematic/generate', {
      method: 'POST',
      body: 'hello',
      headers: { 'content-type': 'text/plain' },
    });
    expect(notJson.status).toBe(415);
    const malformed = await call(s, '/api/templates/text-to-video-cinematic/generate', {
      method: 'POST',
      body: '{"variables":',
      headers: { 'content-type': 'application/json' },
    });
    expect(malformed.status).toBe(400);
  });

  it('variable keys that are Object.prototype names are ordinary keys', async () => {
    const t = await call(s, '/api/templates', {
      method: 'POST',
      json: templateBody({
        input_variables: [
          { key: 'constructor', label: 'C', type: 'text', required: true },
          { key: 'toString', label: 'T', type: 'text', required: false, default_value: 'dflt' },
        ],
        prompt_template: '{{constructor}} / {{toString}}',
      }),
    });
    expect(t.status).toBe(200);
    const missing = await generate(s, t.body.id, { variables: {} });
    expect(missing.status).toBe(400);
    expect(missing.body.message).toMatch(/missing required variable\(s\): constructor$/);
    const ok = await generate(s, t.body.id, { variables: { constructor: 'built' } });
    expect(ok.status).toBe(200);
    expect((await getGeneration(firstId(ok))).body.prompt).toBe('built / dflt');
    const proto = await generate(s, 'text-to-video-cinematic', {
      variables: { scene: 'A long enough scene', hasOwnProperty: 'x' },
    });
    expect(proto.status).toBe(400);
  });

  it('an unknown template is a 404; generate needs templates:read', async () => {
    expect((await generate(s, 'nope', { variables: {} })).status).toBe(404);
    const noScope = s.newOrg('gen-no-scope', ['generations:read']);
    expect(
      (
        await generate(
          s,
          'text-to-video-cinematic',
          { variables: { scene: 'A long enough scene' } },
          { key: noScope.key },
        )
      ).status,
    ).toBe(403);
    const readOnly = s.newOrg('gen-read-only', ['templates:read']);
    expect(
      (
        await generate(
          s,
          'text-to-video-cinematic',
          { variables: { scene: 'A long enough scene' } },
          { key: readOnly.key },
        )
      ).status,
    ).toBe(200);
  });
});

describe('count and charging', () => {
  it('num_videos makes that many generations and charges count x price', async () => {
    const org = s.newOrg('count-org');
    const before = s.core.credits.balance(org.orgId);
    const r = await generate(
      s,
      'text-to-video-cinematic',
      { variables: { scene: 'Four views of the sea' }, num_videos: 3 },
      { key: org.key },
    );
    expect(r.status).toBe(200);
    expect(r.body.generations).toHaveLength(3);
    expect(new Set(r.body.generations.map((g: { generation_id: string }) => g.generation_id)).size).toBe(3);
    expect(r.body.credits_charged).toBe(24);
    expect(s.core.credits.balance(org.orgId)).toBe(before - 24);
    const charges = chargesOf(s, org.orgId);
    expect(charges).toHaveLength(1);
    expect(charges[0].ref).toBe(r.body.generations.map((g: { generation_id: string }) => g.generation_id).join(','));
    for (const n of [0, 5, 1.5]) {
      expect(
        (
          await generate(
            s,
            'text-to-video-cinematic',
            { variables: { scene: 'Four views of the sea' }, num_videos: n },
            { key: org.key },
          )
        ).status,
      ).toBe(400);
    }
  });

  it('402 insufficient_credits leaves no generation, no charge and no stored media', async () => {
    const poor = s.newOrg('poor-org');
    s.core.credits.charge(poor.orgId, s.core.credits.balance(poor.orgId) - 2, 'drain');
    const r = await generate(
      s,
      'image-to-video-animate',
      { variables: { photo: dataUri(media.png(), 'image/png') } },
      { key: poor.key },
    );
    expect(r.status).toBe(402);
    expect(r.body.error).toBe('insufficient_credits');
    expect(s.core.credits.balance(poor.orgId)).toBe(2);
    expect((await call(s, '/api/generations', { key: poor.key })).body.data).toHaveLength(0);
    // the re-hosted data URI is gone again: no object, no uploads row
    const keys = s.core.db.prepare('SELECT s3_key FROM uploads WHERE org_id = ?').all(poor.orgId) as {
      s3_key: string;
    }[];
    expect(keys).toEqual([]);
  });

  it('an unexpected failure while committing is a 500 generation_error and charges nothing', async () => {
    const org = s.newOrg('boom-org');
    const before = s.core.credits.balance(org.orgId);
    const repo = s.core.video.generations.repo;
    const original = repo.insertBatch;
    repo.insertBatch = () => {
      throw new Error('disk on fire');
    };
    try {
      const r = await generate(
        s,
        'text-to-video-cinematic',
        { variables: { scene: 'A long enough scene' } },
        { key: org.key },
      );
      expect(r.status).toBe(500);
      expect(r.body.error).toBe('generation_error');
      expect(r.body.message).not.toContain('disk on fire');
    } finally {
      repo.insertBatch = original;
    }
    expect(s.core.credits.balance(org.orgId)).toBe(before);
    expect(chargesOf(s, org.orgId)).toHaveLength(0);
  });
});

describe('media values (JSON)', () => {
  it('re-hosts an http URL, stores a data URI and accepts an uploaded storage key', async () => {
    const viaUrl = await generate(s, 'image-to-video-animate', { variables: { photo: host.url('/cat.png') } });
    expect(viaUrl.status).toBe(200);
    expect(host.hits).toContain('/cat.png');
    const a = (await getGeneration(firstId(viaUrl))).body.inputs.photo;
    expect(a).toMatchObject({
      type: 'image',
      source: 'url',
      content_type: 'image/png',
      size: 2048,
      slot: 'start_frame',
    });
    expect(a.storage_key).toMatch(/^uploads\//);
    expect(await s.core.video.blobs.head(a.storage_key)).toMatchObject({ size: 2048 });

    const viaData = await generate(s, 'image-to-video-animate', {
      variables: { photo: dataUri(media.png(100), 'image/png') },
    });
    expect(viaData.status).toBe(200);
    const g = await getGeneration(firstId(viaData));
    expect(g.body.inputs.photo).toMatchObject({ source: 'data_uri', size: 100 });
    expect(JSON.stringify(g.body)).not.toContain('base64');

    const key = await upload(s, media.png(300), 'image/png');
    const viaKey = await generate(s, 'image-to-video-animate', { variables: { photo: key } });
    expect(viaKey.status).toBe(200);
    expect((await getGeneration(firstId(viaKey))).body.inputs.photo).toMatchObject({
      source: 'storage_key',
      storage_key: key,
      size: 300,
    });

    const video = await generate(s, 'video-to-video-restyle', {
      variables: { source: host.url('/clip.mp4'), style: 'watercolor' },
    });
    expect(video.status).toBe(200);
    expect((await getGeneration(firstId(video))).body.inputs.source).toMatchObject({
      type: 'video',
      source: 'url',
      content_type: 'video/mp4',
    });

    const audio = await generate(s, 'audio-music-visualizer', {
      variables: { track: dataUri(media.wav(), 'audio/wav') },
    });
    expect(audio.status).toBe(200);
    expect((await getGeneration(firstId(audio))).body.inputs.track).toMatchObject({
      type: 'audio',
      content_type: 'audio/wav',
      slot: 'audio',
    });
  });

  it('bad media is a 400 naming the variable, and nothing is charged', async () => {
    const org = s.newOrg('bad-media-org');
    const before = s.core.credits.balance(org.orgId);
    const otherKey = await upload(s, media.png(), 'image/png');
    const cases = [
      dataUri(media.text(), 'image/png'),
      host.url('/fake.png'),
      host.url('/missing.png'),
      'uploads/nope/nothing.png',
      otherKey, // another org's upload
      dataUri(media.mp4(), 'video/mp4'), // a video for an image variable
      'ftp://example.com/a.png',
    ];
    for (const photo of cases) {
      const r = await generate(s, 'image-to-video-animate', { variables: { photo } }, { key: org.key });
      expect(r.status, photo.slice(0, 40)).toBe(400);
      expect(r.body.error).toBe('validation_error');
      expect(r.body.message).toMatch(/^variables\.photo: /);
    }
    expect(s.core.credits.balance(org.orgId)).toBe(before);
  });

  it('an org template with a media default_value uses it when the variable is omitted', async () => {
    const key = await upload(s, media.png(500), 'image/png');
    const t = await call(s, '/api/templates', {
      method: 'POST',
      json: templateBody({
        category: 'image-to-video',
        input_variables: [
          { key: 'topic', label: 'Topic', type: 'text', required: true },
          { key: 'bg', label: 'Background', type: 'image', required: true, default_value: key },
        ],
      }),
    });
    expect(t.status).toBe(200);
    const r = await generate(s, t.body.id, { variables: { topic: 'defaults' } });
    expect(r.status).toBe(200);
    expect((await getGeneration(firstId(r))).body.inputs.bg).toMatchObject({ source: 'default', storage_key: key });
  });
});

describe('characters in generate', () => {
  it('character_variables win over variables for the same key, and public images are stored', async () => {
    const r = await generate(s, 'ingredients-two-characters', {
      variables: {
        character_a: dataUri(media.png(), 'image/png'),
        character_b: host.url('/cat.png'),
        scene: 'They share a picnic by a lake',
      },
      character_variables: { character_a: 'chr_ava' },
    });
    expect(r.status).toBe(200);
    const g = (await getGeneration(firstId(r))).body;
    expect(g.inputs.character_a).toEqual({
      type: 'image',
      source: 'character',
      character_id: 'chr_ava',
      storage_key: 'public/characters/ava.png',
      slot: 'ingredient',
      role: 'subject',
    });
    expect(g.inputs.character_b).toMatchObject({ source: 'url' });
    expect(await s.core.video.blobs.head('public/characters/ava.png')).not.toBeNull();
  });

  it('only ingredients-to-video templates accept character_variables, only on image variables', async () => {
    const r = await generate(s, 'image-to-video-animate', {
      variables: { photo: dataUri(media.png(), 'image/png') },
      character_variables: { photo: 'chr_ava' },
    });
    expect(r.status).toBe(400);
    expect(r.body.message).toMatch(/ingredients-to-video templates only/);
    const onText = await generate(s, 'ingredients-two-characters', {
      variables: { scene: 'A scene long enough' },
      character_variables: { character_a: 'chr_ava', scene: 'chr_marcus' },
    });
    expect(onText.status).toBe(400);
    expect(onText.body.message).toMatch(/character_variables\.scene: only image variables/);
    const unknownKey = await generate(s, 'ingredients-two-characters', {
      variables: { scene: 'A scene long enough' },
      character_variables: { character_a: 'chr_ava', hero: 'chr_ava' },
    });
    expect(unknownKey.body.message).toMatch(/character_variables\.hero: no such variable/);
    const unknownChar = await generate(s, 'ingredients-two-characters', {
      variables: { scene: 'A scene long enough' },
      character_variables: { character_a: 'chr_nobody' },
    });
    expect(unknownChar.status).toBe(400);
    expect(unknownChar.body.message).toMatch(/character "chr_nobody" not found/);
  });

  it("a private character is usable by its org only; another org's is as if it did not exist", async () => {
    const a = s.newOrg('char-owner');
    const b = s.newOrg('char-stranger');
    const key = await upload(s, media.png(), 'image/png', a.key);
    const c = await call(s, '/api/characters', {
      method: 'POST',
      json: { name: 'Captain Private', reference_image_keys: [key] },
      key: a.key,
    });
    expect(c.status).toBe(200);
    const body = {
      variables: { scene: 'The captain waves from a boat' },
      character_variables: { character_a: c.body.id },
    };
    const mine = await generate(s, 'ingredients-two-characters', body, { key: a.key });
    expect(mine.status).toBe(200);
    expect((await getGeneration(firstId(mine), a.key)).body.inputs.character_a).toMatchObject({
      character_id: c.body.id,
      storage_key: key,
    });
    const theirs = await generate(s, 'ingredients-two-characters', body, { key: b.key });
    expect(theirs.status).toBe(400);
    expect(theirs.body.message).toContain(`character "${c.body.id}" not found`);
  });
});

describe('webhook_url', () => {
  it('is stored sealed and shown with its query values masked', async () => {
    const r = await generate(s, 'text-to-video-cinematic', {
      variables: { scene: 'A long enough scene' },
      webhook_url: 'https://user:pw@hooks.example.com/cb?token=s3cret&run=7#frag',
    });
    expect(r.status).toBe(200);
    const g = await getGeneration(firstId(r));
    expect(g.body.webhook_url).toBe('https://hooks.example.com/cb?token=***&run=***');
    const row = s.core.db.prepare('SELECT webhook_url FROM generations WHERE id = ?').get(firstId(r)) as {
      webhook_url: string;
    };
    expect(row.webhook_url).not.toContain('s3cret');
    expect(await s.core.video.generations.webhookUrl(firstId(r))).toBe(
      'https://user:pw@hooks.example.com/cb?token=s3cret&run=7#frag',
    );
  });
});
