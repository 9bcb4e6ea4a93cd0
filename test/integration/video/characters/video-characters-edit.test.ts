// PATCH and DELETE /api/characters/:id: an organization changes or removes its own private characters;
// public ones are read-only (403) and another organization's do not exist for it (404).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { media } from '../../../helpers/media-fixtures.js';
import { startTestServer, type TestServer } from '../../../helpers/test-server.js';
import { call, dataUri, upload } from '../../../helpers/video-api.js';

let s: TestServer;
beforeAll(async () => {
  s = await startTestServer({}, { credits: 100 });
});
afterAll(async () => {
  await s?.close();
});

async function makeCharacter(key: string, name = 'Robin') {
  const image = await upload(s, media.png(), 'image/png', key);
  const r = await call(s, '/api/characters', {
    method: 'POST',
    key,
    json: { name, description: 'first', reference_image_keys: [image] },
  });
  expect(r.status).toBe(200);
  return { id: r.body.id as string, image };
}

const patch = (id: string, json: unknown, key?: string) =>
  call(s, `/api/characters/${encodeURIComponent(id)}`, { method: 'PATCH', json, key });

describe('PATCH /api/characters/:id', () => {
  it('changes only the fields sent; the list and search show the change', async () => {
    const org = s.newOrg('edit-fields');
    const { id, image } = await makeCharacter(org.key);
    const r = await patch(id, { name: 'Robin Hood', description: null }, org.key);
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({
      id,
      name: 'Robin Hood',
      description: null,
      visibility: 'private',
      reference_image_keys: [image],
      reference_image_urls: [expect.stringContaining('/api/files/')],
    });
    const found = await call(s, '/api/characters?q=hood', { key: org.key });
    expect(found.body.data.map((c: { id: string }) => c.id)).toEqual([id]);
    expect((await call(s, '/api/characters?q=robin%20h', { key: org.key })).body.data).toHaveLength(1);
  });

  it('replaces the reference images (an upload, a data URI); the old upload stays in the org’s files', async () => {
    const org = s.newOrg('edit-images');
    const { id, image } = await makeCharacter(org.key);
    const second = await upload(s, media.jpeg(), 'image/jpeg', org.key);
    const r = await patch(id, { reference_image_keys: [second, dataUri(media.webp(), 'image/webp')] }, org.key);
    expect(r.status).toBe(200);
    expect(r.body.reference_image_keys[0]).toBe(second);
    expect(r.body.reference_image_keys).toHaveLength(2);
    expect(r.body.reference_image_urls).toHaveLength(2);
    for (const url of r.body.reference_image_urls as string[]) expect((await fetch(url)).status).toBe(200);
    expect(await s.core.video.blobs.head(image)).not.toBeNull();
    const files = (await call(s, '/api/uploads', { key: org.key })).body.data.map((u: { s3_key: string }) => u.s3_key);
    expect(files).toContain(image);
  });

  it('refuses bad input with 400 and keeps the character as it was', async () => {
    const org = s.newOrg('edit-bad');
    const { id, image } = await makeCharacter(org.key);
    const audio = await upload(s, media.wav(), 'audio/wav', org.key);
    const foreign = await upload(s, media.png(), 'image/png');
    const cases: unknown[] = [
      { name: '' },
      { reference_image_keys: [] },
      { reference_image_keys: [audio] },
      { reference_image_keys: [foreign] },
      { reference_image_keys: ['a', 'b', 'c', 'd', 'e'] },
      { visibility: 'public' },
    ];
    for (const json of cases) {
      const r = await patch(id, json, org.key);
      expect(r.status, JSON.stringify(json)).toBe(400);
      expect(r.body.error).toBe('validation_error');
    }
    const [now] = (await call(s, '/api/characters?q=robin', { key: org.key })).body.data;
    expect(now).toMatchObject({ name: 'Robin', description: 'first', reference_image_keys: [image] });
  });

  it('is 403 for a public character and 404 for another org’s or a missing one', async () => {
    const owner = s.newOrg('edit-owner');
    const { id } = await makeCharacter(owner.key);
    const other = s.newOrg('edit-other');
    const pub = await patch('chr_ava', { name: 'Eve' }, other.key);
    expect(pub.status).toBe(403);
    expect(pub.body).toEqual({ error: 'forbidden', message: expect.stringContaining('read-only') });
    expect((await patch(id, { name: 'Stolen' }, other.key)).status).toBe(404);
    expect((await patch('chr_nobody', { name: 'X' }, owner.key)).status).toBe(404);
    const reader = s.newOrg('edit-reader', ['characters:read']);
    expect((await patch('chr_ava', { name: 'X' }, reader.key)).status).toBe(403);
    expect((await call(s, '/api/characters?q=ava', { key: owner.key })).body.data[0].name).toBe('Ava');
  });
});

describe('DELETE /api/characters/:id', () => {
  it('deletes the org’s character (its images stay uploads); then 404; public ones are 403', async () => {
    const org = s.newOrg('delete-character');
    const { id, image } = await makeCharacter(org.key, 'Gone Soon');
    const other = s.newOrg('delete-other');
    expect((await call(s, `/api/characters/${id}`, { method: 'DELETE', key: other.key })).status).toBe(404);

    const r = await call(s, `/api/characters/${id}`, { method: 'DELETE', key: org.key });
    expect(r.status).toBe(204);
    expect((await call(s, '/api/characters?q=gone', { key: org.key })).body.data).toEqual([]);
    expect(await s.core.video.blobs.head(image)).not.toBeNull();
    // The image is no longer in use: it can be deleted now.
    expect(
      (await call(s, `/api/uploads/${encodeURIComponent(image)}`, { method: 'DELETE', key: org.key })).status,
    ).toBe(204);
    expect((await call(s, `/api/characters/${id}`, { method: 'DELETE', key: org.key })).status).toBe(404);

    const pub = await call(s, '/api/characters/chr_ava', { method: 'DELETE', key: org.key });
    expect(pub.status).toBe(403);
    expect((await call(s, '/api/characters?q=ava', { key: org.key })).body.data).toHaveLength(1);
  });
});
