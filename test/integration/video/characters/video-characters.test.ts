import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { media } from '../../../helpers/media-fixtures.js';
import { startTestServer, type TestServer } from '../../../helpers/test-server.js';
import { call, dataUri, startMediaHost, upload } from '../../../helpers/video-api.js';

let s: TestServer;
let host: Awaited<ReturnType<typeof startMediaHost>>;
beforeAll(async () => {
  s = await startTestServer({}, { credits: 100 });
  host = await startMediaHost({ '/face.jpg': { bytes: media.jpeg(512), type: 'image/jpeg' } });
});
afterAll(async () => {
  await host?.close();
  await s?.close();
});

const PUBLIC = ['chr_ava', 'chr_marcus', 'chr_pixel_bot'];
const ids = (r: { body: { data: { id: string }[] } }) => r.body.data.map((c) => c.id);

describe('GET /api/characters', () => {
  it('lists the public characters with the spec fields', async () => {
    const r = await call(s, '/api/characters');
    expect(r.status).toBe(200);
    expect(ids(r)).toEqual(PUBLIC);
    expect(r.body.pagination).toEqual({ offset: 0, limit: 24, has_more: false });
    expect(r.body.data[0]).toEqual({
      id: 'chr_ava',
      name: 'Ava',
      description: expect.any(String),
      created_at: null,
      visibility: 'public',
      reference_image_keys: ['public/characters/ava.png'],
      reference_image_urls: [expect.stringMatching(/\/api\/files\/public\/characters\/ava\.png\?/)],
    });
    // The URL serves the image itself (no API key: the signature is the authorization).
    const image = await fetch(r.body.data[0].reference_image_urls[0]);
    expect(image.status).toBe(200);
    expect(image.headers.get('content-type')).toBe('image/png');
  });

  it('searches names case-insensitively; q needs 2 characters', async () => {
    expect(ids(await call(s, '/api/characters?q=AV'))).toEqual(['chr_ava']);
    expect(ids(await call(s, '/api/characters?q=bot'))).toEqual(['chr_pixel_bot']);
    expect(ids(await call(s, '/api/characters?q=zz'))).toEqual([]);
    for (const q of ['a', '', '%20b%20']) {
      const r = await call(s, `/api/characters?q=${q}`);
      expect(r.status, q).toBe(400);
      expect(r.body.error).toBe('validation_error');
    }
    // LIKE wildcards are plain characters.
    expect(ids(await call(s, '/api/characters?q=%25%25'))).toEqual([]);
  });

  it('clamps limit to 60, paginates, rejects bad values', async () => {
    expect((await call(s, '/api/characters?limit=500')).body.pagination.limit).toBe(60);
    const page = await call(s, '/api/characters?limit=2&offset=1');
    expect(ids(page)).toEqual(['chr_marcus', 'chr_pixel_bot']);
    expect(page.body.pagination).toEqual({ offset: 1, limit: 2, has_more: false });
    expect((await call(s, '/api/characters?limit=2')).body.pagination.has_more).toBe(true);
    expect((await call(s, '/api/characters?limit=0')).status).toBe(400);
    expect((await call(s, '/api/characters?offset=-3')).status).toBe(400);
  });

  it('needs characters:read; a listing failure is a 500 server_error', async () => {
    const org = s.newOrg('chars-no-scope', ['templates:read']);
    expect((await call(s, '/api/characters', { key: org.key })).status).toBe(403);
    expect((await call(s, '/api/characters', { key: null })).status).toBe(401);
    const svc = s.core.video.characters;
    const original = svc.list;
    svc.list = () => {
      throw new Error('database is gone');
    };
    try {
      const r = await call(s, '/api/characters');
      expect(r.status).toBe(500);
      expect(r.body).toEqual({ error: 'server_error', message: expect.any(String) });
      expect(r.body.message).not.toContain('database is gone');
    } finally {
      svc.list = original;
    }
  });
});

describe('POST /api/characters', () => {
  it('creates a private character from an upload, a URL or a data URI; only its org sees it', async () => {
    const a = s.newOrg('chars-a');
    const b = s.newOrg('chars-b');
    const key = await upload(s, media.png(), 'image/png', a.key);
    const r = await call(s, '/api/characters', {
      method: 'POST',
      key: a.key,
      json: {
        name: 'Zoë Quinn',
        description: 'Our mascot',
        reference_image_keys: [key, host.url('/face.jpg'), dataUri(media.webp(), 'image/webp')],
      },
    });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({
      id: expect.stringMatching(/^chr_/),
      name: 'Zoë Quinn',
      description: 'Our mascot',
      visibility: 'private',
    });
    expect(r.body.created_at).toBeGreaterThan(0);
    expect(r.body.reference_image_keys[0]).toBe(key);
    expect(r.body.reference_image_keys).toHaveLength(3);
    for (const k of r.body.reference_image_keys) expect(await s.core.video.blobs.head(k)).not.toBeNull();

    expect(ids(await call(s, '/api/characters?q=ZOË', { key: a.key }))).toEqual([r.body.id]);
    expect(ids(await call(s, '/api/characters', { key: a.key }))).toEqual([...PUBLIC, r.body.id]);
    expect(ids(await call(s, '/api/characters', { key: b.key }))).toEqual(PUBLIC);
    expect(ids(await call(s, '/api/characters?q=zo', { key: b.key }))).toEqual([]);
  });

  it('refuses bad input with 400', async () => {
    const org = s.newOrg('chars-bad');
    const foreign = await upload(s, media.png(), 'image/png');
    const audio = await upload(s, media.wav(), 'audio/wav', org.key);
    const cases: unknown[] = [
      { name: 'x', reference_image_keys: [] },
      { name: '', reference_image_keys: ['a'] },
      { name: 'x', reference_image_keys: ['uploads/none/x.png'] },
      { name: 'x', reference_image_keys: [foreign] },
      { name: 'x', reference_image_keys: [audio] },
      { name: 'x', reference_image_keys: [dataUri(media.text(), 'image/png')] },
      { name: 'x', reference_image_keys: ['a', 'b', 'c', 'd', 'e'] },
      { name: 'x', reference_image_keys: ['a'], extra: true },
    ];
    for (const json of cases) {
      const r = await call(s, '/api/characters', { method: 'POST', key: org.key, json });
      expect(r.status, JSON.stringify(json).slice(0, 80)).toBe(400);
      expect(r.body.error).toBe('validation_error');
    }
    expect(ids(await call(s, '/api/characters', { key: org.key }))).toEqual(PUBLIC);
  });

  it('needs characters:write', async () => {
    const org = s.newOrg('chars-reader', ['characters:read']);
    const r = await call(s, '/api/characters', {
      method: 'POST',
      key: org.key,
      json: { name: 'x', reference_image_keys: ['a'] },
    });
    expect(r.status).toBe(403);
  });
});
