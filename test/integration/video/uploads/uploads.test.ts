import fs from 'node:fs';
import { request } from 'node:http';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { UploadRow } from '../../../../src/main/core/video/uploads/uploads.repo.js';
import { LocalBlobStore } from '../../../../src/main/core/video/uploads/storage/local-blob-store.js';
import { magic, media, mp4Stream } from '../../../helpers/media-fixtures.js';
import { startTestServer, type TestServer } from '../../../helpers/test-server.js';
import { listFiles, sendRaw, waitFor } from '../../../helpers/upload-client.js';

const MiB = 1024 * 1024;

interface Presigned {
  s3_key: string;
  upload_url: string;
  content_type: string;
  max_bytes: number;
}

describe('presigned uploads (local storage)', () => {
  let t: TestServer;
  let blobsDir: string;
  /** Completed objects only: temp files start with ".tmp-" and metadata lives under ".meta/". */
  const dataFiles = () => listFiles(blobsDir).filter((f) => !f.startsWith('.meta'));

  beforeAll(async () => {
    t = await startTestServer({
      server: { rateLimit: { perKeyPerSecond: 1000, perKeyBurst: 1000, unauthenticatedPerMinute: 1000 } },
    });
    blobsDir = path.join(t.dataDir, 'blobs');
  });
  afterAll(() => t.close());

  const presign = async (contentType: string, fileName?: string): Promise<Presigned> => {
    const res = await t.request('/api/s3/presign-upload', {
      method: 'POST',
      json: { kind: 'upload', contentType, fileName },
    });
    expect(res.status).toBe(200);
    return (await res.json()) as Presigned;
  };
  const row = (key: string) => t.core.video.uploads.repo.get(key) as UploadRow;
  const noLeftovers = () => expect(listFiles(blobsDir).filter((f) => path.basename(f).startsWith('.tmp-'))).toEqual([]);

  it.each([
    ['image/png', 'image', 20 * MiB, 'png'],
    ['image/jpeg', 'image', 20 * MiB, 'jpg'],
    ['video/mp4', 'video', 200 * MiB, 'mp4'],
    ['video/quicktime', 'video', 200 * MiB, 'mov'],
    ['audio/mpeg', 'audio', 50 * MiB, 'mp3'],
    ['audio/x-wav', 'audio', 50 * MiB, 'wav'],
  ])('presigns %s with the %s limit and records a pending upload', async (type, kind, max, ext) => {
    const p = await presign(type, 'My Clip (final).bin');
    expect(p.content_type).toBe(type);
    expect(p.max_bytes).toBe(max);
    expect(p.s3_key).toMatch(new RegExp(`^uploads/${t.orgId}/[A-Za-z0-9]{22}/My_Clip_final\\.${ext}$`));
    const url = new URL(p.upload_url);
    expect(`${url.protocol}//${url.host}`).toBe(t.url);
    expect(url.pathname).toBe(`/api/uploads/${p.s3_key}`);
    expect(url.searchParams.get('ct')).toBe(type);
    expect(Number(url.searchParams.get('exp')) - Date.now() / 1000).toBeGreaterThan(890);
    expect(row(p.s3_key)).toMatchObject({
      org_id: t.orgId,
      kind,
      status: 'pending',
      max_bytes: max,
      file_name: 'My Clip (final).bin',
      source: 'presign',
    });
  });

  it('uses "file" when no file name is given and accepts the type in any case', async () => {
    const res = await t.request('/api/s3/presign-upload', {
      method: 'POST',
      json: { kind: 'upload', contentType: ' Image/WEBP ' },
    });
    const p = (await res.json()) as Presigned;
    expect(p.content_type).toBe('image/webp');
    expect(p.s3_key).toMatch(/\/file\.webp$/);
  });

  it.each([
    [{ kind: 'avatar', contentType: 'image/png' }, /kind must be "upload"/],
    [{ kind: 'upload', contentType: 'application/pdf' }, /unsupported contentType/],
    [{ kind: 'upload', contentType: 'image/svg+xml' }, /unsupported contentType/],
    [{ kind: 'upload' }, /contentType/],
    [{ contentType: 'image/png' }, /kind/],
  ])('refuses %j with 400 validation_error', async (body, message) => {
    const res = await t.request('/api/s3/presign-upload', { method: 'POST', json: body });
    expect(res.status).toBe(400);
    const err = (await res.json()) as { error: string; message: string };
    expect(err.error).toBe('validation_error');
    expect(err.message).toMatch(message);
  });

  it('sweeps presigned uploads that expired unused, and keeps completed ones', async () => {
    const unused = await presign('image/png', 'never.png');
    const used = await presign('image/png', 'used.png');
    const put = await fetch(used.upload_url, {
      method: 'PUT',
      headers: { 'content-type': 'image/png' },
      body: media.png(),
    });
    expect(put.status).toBeLessThan(300);
    const later = Date.now() + 2 * 3600 * 1000;
    expect(await t.core.video.uploads.sweepExpired(later)).toBeGreaterThanOrEqual(1);
    expect(t.core.video.uploads.repo.get(unused.s3_key)).toBeUndefined();
    expect(row(used.s3_key).status).toBe('complete');
  });

  it('needs a key (401) with the templates:read scope (403)', async () => {
    const json = { kind: 'upload', contentType: 'image/png' };
    const none = await t.request('/api/s3/presign-upload', { method: 'POST', json, key: null });
    expect(none.status).toBe(401);
    expect(await none.json()).toMatchObject({ error: 'unauthorized' });
    const narrow = t.newOrg('narrow', ['credits:read']);
    const res = await t.request('/api/s3/presign-upload', { method: 'POST', json, key: narrow.key });
    expect(res.status).toBe(403);
    expect(await res.json()).toMatchObject({ error: 'forbidden' });
  });

  it('stores a PUT with the signed type, marks it complete and serves it through a signed GET', async () => {
    const p = await presign('image/png', 'pic.png');
    const bytes = media.png(5000);
    const put = await fetch(p.upload_url, { method: 'PUT', headers: { 'content-type': 'image/png' }, body: bytes });
    expect(put.status).toBe(200);
    expect(await put.json()).toEqual({ s3_key: p.s3_key, size: 5000, content_type: 'image/png' });
    expect(fs.readFileSync(path.join(blobsDir, ...p.s3_key.split('/')))).toEqual(bytes);
    expect(row(p.s3_key)).toMatchObject({ status: 'complete', size: 5000 });

    const url = await t.core.video.blobs.presignDownload(p.s3_key, { expiresInSec: 60 });
    const get = await fetch(url);
    expect(get.status).toBe(200);
    expect(get.headers.get('content-type')).toBe('image/png');
    expect(get.headers.get('content-length')).toBe('5000');
    expect(Buffer.from(await get.arrayBuffer())).toEqual(bytes);
    const ranged = await fetch(url, { headers: { range: 'bytes=1-3' } });
    expect(ranged.status).toBe(206);
    expect(ranged.headers.get('content-range')).toBe('bytes 1-3/5000');
    expect(Buffer.from(await ranged.arrayBuffer())).toEqual(bytes.subarray(1, 4));
    expect((await fetch(url, { headers: { range: 'bytes=9000-' } })).status).toBe(416);
    const tampered = new URL(url);
    tampered.searchParams.set('exp', String(Number(tampered.searchParams.get('exp')) + 1000));
    expect((await fetch(tampered)).status).toBe(403);
    const named = await fetch(
      await t.core.video.blobs.presignDownload(p.s3_key, { expiresInSec: 60, fileName: 'Photo 1.png' }),
    );
    expect(named.headers.get('content-disposition')).toContain('filename="Photo 1.png"');
  });

  it('refuses a different Content-Type with 400 and stores nothing', async () => {
    const p = await presign('image/png');
    const res = await fetch(p.upload_url, {
      method: 'PUT',
      headers: { 'content-type': 'image/jpeg' },
      body: media.jpeg(),
    });
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({
      error: 'validation_error',
      message: expect.stringContaining('"image/png"'),
    });
    expect(dataFiles()).not.toContain(p.s3_key);
    expect(row(p.s3_key).status).toBe('pending');
  });

  it('refuses a tampered, missing or reused-for-another-key signature with 403', async () => {
    const p = await presign('image/png');
    const url = new URL(p.upload_url);
    const send = (u: URL | string) =>
      fetch(u, { method: 'PUT', headers: { 'content-type': 'image/png' }, body: media.png() });
    const bigger = new URL(url);
    bigger.searchParams.set('max', String(500 * MiB));
    const bad = await send(bigger);
    expect(bad.status).toBe(403);
    expect(await bad.json()).toMatchObject({
      error: 'forbidden',
      message: expect.stringMatching(/signature does not match/),
    });
    const unsigned = new URL(url);
    unsigned.searchParams.delete('sig');
    expect((await send(unsigned)).status).toBe(403);
    const other = await presign('image/png');
    expect((await send(`${t.url}/api/uploads/${other.s3_key}${url.search}`)).status).toBe(403);
    expect((await send(`${t.url}/api/uploads/..%2F..%2Fagent-studio.db${url.search}`)).status).toBe(400);
  });

  it('refuses an expired URL with 403', async () => {
    const store = t.core.video.blobs as LocalBlobStore;
    const url = await store.presignUpload({
      key: `uploads/${t.orgId}/expired/file.png`,
      contentType: 'image/png',
      maxBytes: MiB,
      expiresInSec: -5,
      baseUrl: t.url,
    });
    const res = await fetch(url, { method: 'PUT', headers: { 'content-type': 'image/png' }, body: media.png() });
    expect(res.status).toBe(403);
    expect(((await res.json()) as { message: string }).message).toMatch(/expired/);
  });

  it('answers 413 from Content-Length before reading the body', async () => {
    const p = await presign('image/png');
    const res = await sendRaw(p.upload_url, {
      headers: { 'content-type': 'image/png', 'content-length': p.max_bytes + 1 },
      endWithoutBody: true,
    });
    expect(res.status).toBe(413);
    expect(JSON.parse(res.body)).toMatchObject({
      error: 'payload_too_large',
      message: expect.stringContaining('20 MB'),
    });
    expect(dataFiles()).not.toContain(p.s3_key);
  });

  it('answers 413 when a streamed body passes max_bytes and leaves no partial file', async () => {
    const store = t.core.video.blobs as LocalBlobStore;
    const key = `uploads/${t.orgId}/chunked/file.mp4`;
    const maxBytes = 256 * 1024;
    const url = await store.presignUpload({
      key,
      contentType: 'video/mp4',
      maxBytes,
      expiresInSec: 60,
      baseUrl: t.url,
    });
    // The pending upload a presign records (the URL alone is not enough: a PUT claims that row).
    t.core.video.uploads.repo.insert({
      s3_key: key,
      org_id: t.orgId,
      kind: 'video',
      content_type: 'video/mp4',
      max_bytes: maxBytes,
      file_name: null,
      source: 'presign',
      status: 'pending',
      size: null,
      created_at: Date.now(),
      expires_at: null,
    });
    // No Content-Length: chunked transfer, so only the byte counter can stop it.
    const res = await sendRaw(url, {
      headers: { 'content-type': 'video/mp4', 'transfer-encoding': 'chunked' },
      body: mp4Stream(3 * MiB, 64 * 1024),
    });
    expect(res.status).toBe(413);
    expect(dataFiles()).not.toContain(key);
    noLeftovers();
  });

  it('refuses bytes that are not of the signed kind (magic numbers) and deletes them', async () => {
    const p = await presign('image/png');
    const res = await fetch(p.upload_url, {
      method: 'PUT',
      headers: { 'content-type': 'image/png' },
      body: media.mp4(4096),
    });
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({
      error: 'validation_error',
      message: 'The file is not an image: its content is video/mp4.',
    });
    const text = await presign('audio/mpeg');
    const res2 = await fetch(text.upload_url, {
      method: 'PUT',
      headers: { 'content-type': 'audio/mpeg' },
      body: media.text(),
    });
    expect(res2.status).toBe(400);
    expect(dataFiles()).not.toContain(p.s3_key);
    expect(dataFiles()).not.toContain(text.s3_key);
    noLeftovers();
  });

  it('decodes the file: a PNG signature followed by HTML is refused, and the URL can be used again', async () => {
    const p = await presign('image/png');
    const put = (body: Buffer<ArrayBuffer>) =>
      fetch(p.upload_url, { method: 'PUT', headers: { 'content-type': 'image/png' }, body });
    const html = Buffer.concat([magic.png(16), Buffer.from('<!doctype html><html><body>not an image</body></html>')]);
    const res = await put(html);
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({
      error: 'validation_error',
      message:
        'The file is not an image: it starts like image/png but does not decode (damaged, truncated or something else).',
    });
    expect(dataFiles()).not.toContain(p.s3_key);
    expect(row(p.s3_key)).toMatchObject({ status: 'pending', put_claim: null });
    noLeftovers();
    expect((await put(media.png(400))).status).toBe(200);
  });

  it('records the real type: GIF bytes sent to a PNG upload URL are stored as image/gif', async () => {
    const p = await presign('image/png', 'really.gif');
    const gif = media.gif();
    const res = await fetch(p.upload_url, { method: 'PUT', headers: { 'content-type': 'image/png' }, body: gif });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ s3_key: p.s3_key, size: gif.length, content_type: 'image/gif' });
    expect(row(p.s3_key)).toMatchObject({ status: 'complete', content_type: 'image/gif' });
    const get = await fetch(await t.core.video.blobs.presignDownload(p.s3_key, { expiresInSec: 60 }));
    expect(get.headers.get('content-type')).toBe('image/gif');
    expect(Buffer.from(await get.arrayBuffer())).toEqual(gif);
  });

  it('leaves no partial file when the client aborts mid-upload', async () => {
    const p = await presign('video/mp4');
    const dir = path.join(blobsDir, ...p.s3_key.split('/').slice(0, -1));
    const temps = () => (fs.existsSync(dir) ? fs.readdirSync(dir).filter((f) => f.startsWith('.tmp-')) : []);
    const req = request(p.upload_url, {
      method: 'PUT',
      headers: { 'content-type': 'video/mp4', 'content-length': 10 * MiB },
    });
    req.on('error', () => {});
    req.write(media.mp4(MiB));
    await waitFor(() => temps().length === 1); // the server is writing
    req.destroy();
    await waitFor(() => temps().length === 0); // and cleans up when the client goes away
    expect(dataFiles()).not.toContain(p.s3_key);
    expect(row(p.s3_key).status).toBe('pending');
  });

  it('answers HEAD on a signed download URL with the headers only', async () => {
    const p = await presign('audio/ogg');
    const ogg = media.ogg();
    expect(
      (await fetch(p.upload_url, { method: 'PUT', headers: { 'content-type': 'audio/ogg' }, body: ogg })).status,
    ).toBe(200);
    const res = await fetch(await t.core.video.blobs.presignDownload(p.s3_key, { expiresInSec: 60 }), {
      method: 'HEAD',
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-length')).toBe(String(ogg.length));
    expect(res.headers.get('content-type')).toBe('audio/ogg');
  });

  it('streams a 200 MB video to disk (exactly max_bytes)', async () => {
    const p = await presign('video/mp4', 'big.mp4');
    expect(p.max_bytes).toBe(200 * MiB);
    const res = await sendRaw(p.upload_url, {
      headers: { 'content-type': 'video/mp4', 'content-length': p.max_bytes },
      body: mp4Stream(p.max_bytes),
    });
    expect(res.status).toBe(200);
    expect(JSON.parse(res.body)).toMatchObject({ size: 200 * MiB });
    const file = path.join(blobsDir, ...p.s3_key.split('/'));
    expect(fs.statSync(file).size).toBe(200 * MiB);
    expect(row(p.s3_key)).toMatchObject({ status: 'complete', size: 200 * MiB });
    await t.core.video.blobs.delete(p.s3_key);
    expect(fs.existsSync(file)).toBe(false);
  });

  it('documents the routes in OpenAPI', async () => {
    const doc = (await (await t.request('/api/openapi.json')).json()) as {
      paths: Record<string, Record<string, { 'x-required-scope'?: string }>>;
    };
    expect(doc.paths['/api/s3/presign-upload'].post['x-required-scope']).toBe('templates:read');
    const put = doc.paths['/api/uploads/{key}'].put as unknown as { parameters: { name: string; in: string }[] };
    expect(put.parameters).toContainEqual(expect.objectContaining({ name: 'key', in: 'path' }));
    expect(doc.paths['/api/files/{key}'].get).toBeDefined();
  });
});
