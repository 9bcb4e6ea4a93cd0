// GET /api/uploads (the organization's stored files with time-limited URLs) and DELETE /api/uploads/:key
// (a file still used by a character or a running generation is kept: 409 upload_in_use).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { media } from '../../../helpers/media-fixtures.js';
import { startTestServer, type TestServer } from '../../../helpers/test-server.js';
import { call, dataUri, generate, upload } from '../../../helpers/video-api.js';

let s: TestServer;
beforeAll(async () => {
  s = await startTestServer({}, { credits: 1000 });
});
afterAll(async () => {
  await s?.close();
});

const keysOf = (r: { body: { data: { s3_key: string }[] } }) => r.body.data.map((u) => u.s3_key);
const del = (key: string, apiKey?: string) =>
  call(s, `/api/uploads/${encodeURIComponent(key)}`, { method: 'DELETE', key: apiKey });

describe('GET /api/uploads', () => {
  it('lists the org’s complete files newest first, with URLs that serve them; other orgs see none', async () => {
    const org = s.newOrg('uploads-list');
    const image = await upload(s, media.png(2048), 'image/png', org.key);
    const audio = await upload(s, media.wav(), 'audio/wav', org.key);
    // A presigned URL never used is not a stored file.
    const pending = await call(s, '/api/s3/presign-upload', {
      method: 'POST',
      key: org.key,
      json: { kind: 'upload', contentType: 'image/png', fileName: 'never.png' },
    });
    expect(pending.status).toBe(200);

    const r = await call(s, '/api/uploads', { key: org.key });
    expect(r.status).toBe(200);
    expect(keysOf(r)).toEqual([audio, image]);
    expect(r.body.pagination).toEqual({ offset: 0, limit: 50, has_more: false });
    expect(r.body.data[1]).toEqual({
      s3_key: image,
      file_name: null,
      kind: 'image',
      content_type: 'image/png',
      size: 2048,
      source: 'presign',
      created_at: expect.any(Number),
      url: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+\/api\/files\/uploads\/.+\?.*sig=/),
      used_by: null,
    });
    const served = await fetch(r.body.data[1].url);
    expect(served.status).toBe(200);
    expect(Buffer.from(await served.arrayBuffer())).toEqual(media.png(2048));

    expect(keysOf(await call(s, '/api/uploads?kind=image', { key: org.key }))).toEqual([image]);
    const page = await call(s, '/api/uploads?limit=1&offset=1', { key: org.key });
    expect(keysOf(page)).toEqual([image]);
    expect(page.body.pagination).toEqual({ offset: 1, limit: 1, has_more: false });
    expect((await call(s, '/api/uploads?limit=1', { key: org.key })).body.pagination.has_more).toBe(true);

    const other = s.newOrg('uploads-list-other');
    expect(keysOf(await call(s, '/api/uploads', { key: other.key }))).toEqual([]);
  });

  it('lists media the server stored from a request (data URI) with its source', async () => {
    const org = s.newOrg('uploads-ingested');
    const created = await call(s, '/api/characters', {
      method: 'POST',
      key: org.key,
      json: { name: 'Inline', reference_image_keys: [dataUri(media.webp(), 'image/webp')] },
    });
    expect(created.status).toBe(200);
    const r = await call(s, '/api/uploads', { key: org.key });
    expect(r.body.data).toMatchObject([
      { s3_key: created.body.reference_image_keys[0], source: 'data_uri', kind: 'image', content_type: 'image/webp' },
    ]);
  });

  it('refuses bad queries with 400 and needs templates:read', async () => {
    for (const q of ['kind=document', 'limit=0', 'offset=-1']) {
      const r = await call(s, `/api/uploads?${q}`);
      expect(r.status, q).toBe(400);
      expect(r.body.error).toBe('validation_error');
    }
    const noScope = s.newOrg('uploads-no-scope', ['characters:read']);
    expect((await call(s, '/api/uploads', { key: noScope.key })).status).toBe(403);
    expect((await call(s, '/api/uploads', { key: null })).status).toBe(401);
  });
});

describe('DELETE /api/uploads/:key', () => {
  it('deletes a file: gone from the list, the store and generate; a second delete is 404', async () => {
    const org = s.newOrg('uploads-delete');
    const key = await upload(s, media.png(), 'image/png', org.key);
    const url = (await call(s, '/api/uploads', { key: org.key })).body.data[0].url as string;
    expect(await s.core.video.blobs.head(key)).not.toBeNull();

    const r = await del(key, org.key);
    expect(r.status).toBe(204);
    expect(keysOf(await call(s, '/api/uploads', { key: org.key }))).toEqual([]);
    expect(await s.core.video.blobs.head(key)).toBeNull();
    expect((await fetch(url)).status).toBe(404);
    const gen = await generate(s, 'image-to-video-animate', { variables: { photo: key } }, { key: org.key });
    expect(gen.status).toBe(400);
    expect(gen.body.message).toContain('does not refer to a file uploaded by this organization');

    expect((await del(key, org.key)).status).toBe(404);
  });

  it('is 404 for another org’s file (which stays) and for a key that is not one', async () => {
    const owner = s.newOrg('uploads-owner');
    const key = await upload(s, media.png(), 'image/png', owner.key);
    const other = s.newOrg('uploads-thief');
    const r = await del(key, other.key);
    expect(r.status).toBe(404);
    expect(r.body).toEqual({ error: 'not_found', message: expect.any(String) });
    expect(await s.core.video.blobs.head(key)).not.toBeNull();
    expect((await del('../../etc/passwd', owner.key)).status).toBe(404);
    // A key with unescaped slashes is not one path segment: no such route.
    expect((await call(s, `/api/uploads/${key}`, { method: 'DELETE', key: owner.key })).status).toBe(404);
  });

  it('keeps a file a character uses (409 upload_in_use naming it) until the character lets it go', async () => {
    const org = s.newOrg('uploads-in-use');
    const key = await upload(s, media.png(), 'image/png', org.key);
    const spare = await upload(s, media.jpeg(), 'image/jpeg', org.key);
    const character = await call(s, '/api/characters', {
      method: 'POST',
      key: org.key,
      json: { name: 'Keeper', reference_image_keys: [key] },
    });
    const r = await del(key, org.key);
    expect(r.status).toBe(409);
    expect(r.body).toEqual({ error: 'upload_in_use', message: expect.stringContaining('the character "Keeper"') });
    expect(await s.core.video.blobs.head(key)).not.toBeNull();
    // The list says so before anyone tries (the desktop's Delete asks with it).
    const usedBy = async () =>
      Object.fromEntries(
        (
          (await call(s, '/api/uploads', { key: org.key })).body.data as { s3_key: string; used_by: string | null }[]
        ).map((u) => [u.s3_key, u.used_by]),
      );
    expect(await usedBy()).toEqual({ [key]: 'the character "Keeper"', [spare]: null });

    const patched = await call(s, `/api/characters/${character.body.id}`, {
      method: 'PATCH',
      key: org.key,
      json: { reference_image_keys: [spare] },
    });
    expect(patched.status).toBe(200);
    expect(await usedBy()).toEqual({ [key]: null, [spare]: 'the character "Keeper"' });
    expect((await del(key, org.key)).status).toBe(204);
  });

  it("keeps a file a template has as a variable's default until the template lets it go", async () => {
    const org = s.newOrg('uploads-template-default');
    const key = await upload(s, Buffer.from('WEBVTT\n\n00:00.000 --> 00:01.000\nHi\n'), 'text/vtt', org.key);
    const body = (default_value?: string) => ({
      title: 'Subtitled',
      category: 'text-to-video',
      input_variables: [{ key: 'subs', label: 'Subs', type: 'captions', default_value }],
    });
    const t = await call(s, '/api/templates', { method: 'POST', key: org.key, json: body(key) });
    expect(t.status).toBe(200);
    const r = await del(key, org.key);
    expect(r.status).toBe(409);
    expect(r.body).toEqual({
      error: 'upload_in_use',
      message: expect.stringContaining('the template "Subtitled" (as a default)'),
    });
    // Another organization's template naming the same text does not hold this org's file.
    const other = s.newOrg('uploads-template-other');
    expect((await call(s, '/api/templates', { method: 'POST', key: other.key, json: body(key) })).status).toBe(200);
    const replaced = await call(s, `/api/templates/${t.body.id}`, { method: 'PUT', key: org.key, json: body() });
    expect(replaced.status).toBe(200);
    expect((await del(key, org.key)).status).toBe(204);
  });

  it('keeps a file a generating generation uses', async () => {
    const org = s.newOrg('uploads-generating');
    s.core.credits.grant(org.orgId, 100);
    const key = await upload(s, media.png(), 'image/png', org.key);
    const gen = await generate(s, 'image-to-video-animate', { variables: { photo: key } }, { key: org.key });
    expect(gen.status).toBe(200);
    const id = gen.body.generations[0].generation_id as string;
    const r = await del(key, org.key);
    expect(r.status).toBe(409);
    expect(r.body.message).toContain(`generation ${id}`);
    await call(s, `/api/generations/${id}/cancel`, { method: 'POST', key: org.key });
    expect((await del(key, org.key)).status).toBe(204);
  });

  it('needs templates:write', async () => {
    const reader = s.newOrg('uploads-reader', ['templates:read']);
    const key = await upload(s, media.png(), 'image/png', reader.key);
    expect((await del(key, reader.key)).status).toBe(403);
  });
});
