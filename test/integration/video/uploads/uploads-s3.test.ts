import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { text } from 'node:stream/consumers';
import { Readable } from 'node:stream';
// @ts-expect-error s3rver ships no type declarations
import S3rver from 's3rver';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readCaptionsText } from '../../../../src/main/core/video/uploads/captions-file.js';
import type { UploadRow } from '../../../../src/main/core/video/uploads/uploads.repo.js';
import { magic, media } from '../../../helpers/media-fixtures.js';
import { startTestServer, tempDir, type TestServer } from '../../../helpers/test-server.js';

const MiB = 1024 * 1024;

interface S3rverInstance {
  run(): Promise<AddressInfo>;
  close(): Promise<void>;
}

/** The S3 backend against s3rver (which does not check signatures: signature rules are tested on the local backend). */
describe('S3 blob store (s3rver)', () => {
  let s3: S3rverInstance;
  let t: TestServer;

  beforeAll(async () => {
    s3 = new S3rver({
      port: 0,
      address: '127.0.0.1',
      silent: true,
      directory: tempDir('s3rver-'),
      configureBuckets: [{ name: 'test' }],
    }) as S3rverInstance;
    const { port } = await s3.run();
    t = await startTestServer({
      storage: {
        backend: 's3',
        s3: { bucket: 'test', region: 'us-east-1', endpoint: `http://127.0.0.1:${port}`, forcePathStyle: true },
      },
    });
    // s3rver's built-in account; credentials live in the secret store, never the config file.
    await t.core.secrets.set('s3.accessKeyId', 'S3RVER');
    await t.core.secrets.set('s3.secretAccessKey', 'S3RVER');
  });
  afterAll(async () => {
    await t?.close();
    await s3?.close();
  });

  const presign = async (contentType: string) => {
    const res = await t.request('/api/s3/presign-upload', {
      method: 'POST',
      json: { kind: 'upload', contentType, fileName: 'a.bin' },
    });
    expect(res.status).toBe(200);
    return (await res.json()) as { s3_key: string; upload_url: string; max_bytes: number };
  };
  const put = (url: string, type: string, body: Buffer<ArrayBuffer>) =>
    fetch(url, { method: 'PUT', headers: { 'content-type': type }, body });

  it('presigns a PUT that signs the content type, then heads, gets, presigns a GET and deletes', async () => {
    const blobs = t.core.video.blobs;
    expect(blobs.kind).toBe('s3');
    const p = await presign('image/png');
    const url = new URL(p.upload_url);
    expect(url.pathname).toBe(`/test/${p.s3_key}`);
    expect(url.searchParams.get('X-Amz-SignedHeaders')?.split(';')).toContain('content-type');
    expect([...url.searchParams.keys()].some((k) => k.toLowerCase().includes('checksum'))).toBe(false);

    const bytes = media.png(3000);
    expect((await put(p.upload_url, 'image/png', bytes)).status).toBe(200);
    expect(await blobs.head(p.s3_key)).toEqual({ size: 3000, contentType: 'image/png', etag: expect.any(String) });
    expect(Buffer.from(await (await blobs.getStream(p.s3_key)).toArray().then((c) => Buffer.concat(c)))).toEqual(bytes);

    const dl = await fetch(await blobs.presignDownload(p.s3_key, { expiresInSec: 60 }));
    expect(dl.status).toBe(200);
    expect(Buffer.from(await dl.arrayBuffer())).toEqual(bytes);

    // The pending row is completed on first use, after a HEAD and decoding a downloaded copy.
    expect((t.core.video.uploads.repo.get(p.s3_key) as UploadRow).status).toBe('pending');
    expect(await t.core.video.ingest.resolve(t.orgId, 'image', p.s3_key)).toMatchObject({
      source: 'storage_key',
      size: 3000,
    });
    expect(t.core.video.uploads.repo.get(p.s3_key)).toMatchObject({
      status: 'complete',
      size: 3000,
      verified_etag: (await blobs.head(p.s3_key))?.etag,
    });

    await blobs.delete(p.s3_key);
    expect(await blobs.head(p.s3_key)).toBeNull();
    await expect(blobs.getStream(p.s3_key)).rejects.toMatchObject({ status: 404 });
  });

  it('puts streams (spooled for Content-Length) and buffers server-side', async () => {
    const blobs = t.core.video.blobs;
    expect(
      await blobs.put('generated/x/video.mp4', Readable.from([media.mp4(1000), Buffer.alloc(MiB)]), 'video/mp4'),
    ).toEqual({ size: 1000 + MiB });
    expect(await blobs.head('generated/x/video.mp4')).toMatchObject({ size: 1000 + MiB, contentType: 'video/mp4' });
    expect(await blobs.put('generated/x/note.txt', Buffer.from('hi'), 'text/plain')).toEqual({ size: 2 });
    expect(await text(await blobs.getStream('generated/x/note.txt'))).toBe('hi');
  });

  it('checks size and kind when an S3 upload is first used, deleting what breaks the rules', async () => {
    const notUploaded = await presign('image/png');
    await expect(t.core.video.ingest.resolve(t.orgId, 'image', notUploaded.s3_key)).rejects.toThrow(
      /not been uploaded yet/,
    );

    const wrong = await presign('image/png');
    expect((await put(wrong.upload_url, 'image/png', media.text())).status).toBe(200);
    await expect(t.core.video.ingest.resolve(t.orgId, 'image', wrong.s3_key)).rejects.toMatchObject({
      status: 400,
      message: expect.stringMatching(/not an image/),
    });
    expect(await t.core.video.blobs.head(wrong.s3_key)).toBeNull();

    // A presigned S3 PUT cannot enforce max_bytes: the first use does.
    const big = await presign('image/png');
    expect(
      (await put(big.upload_url, 'image/png', Buffer.concat([magic.png(16), Buffer.alloc(big.max_bytes)]))).status,
    ).toBe(200);
    await expect(t.core.video.ingest.resolve(t.orgId, 'image', big.s3_key)).rejects.toMatchObject({
      status: 400,
      message: expect.stringMatching(/larger than/),
    });
    expect(await t.core.video.blobs.head(big.s3_key)).toBeNull();
  });

  it('decodes the object at first use: a PNG signature followed by HTML is refused and deleted', async () => {
    const p = await presign('image/png');
    const html = Buffer.concat([magic.png(16), Buffer.from('<!doctype html><html><body>hi</body></html>')]);
    expect((await put(p.upload_url, 'image/png', html)).status).toBe(200); // S3 never looks at the bytes
    await expect(t.core.video.ingest.resolve(t.orgId, 'image', p.s3_key)).rejects.toMatchObject({
      status: 400,
      message: expect.stringMatching(/starts like image\/png but does not decode.*The uploaded object was deleted\.$/),
    });
    expect(await t.core.video.blobs.head(p.s3_key)).toBeNull();

    const gif = await presign('image/png');
    expect((await put(gif.upload_url, 'image/png', media.gif())).status).toBe(200);
    expect(await t.core.video.ingest.resolve(t.orgId, 'image', gif.s3_key)).toMatchObject({ contentType: 'image/gif' });
    expect(t.core.video.uploads.repo.get(gif.s3_key)).toMatchObject({ content_type: 'image/gif' });
  });

  it('cannot stop a second PUT (S3 accepts it until the URL expires), but refuses a key replaced after its check', async () => {
    const p = await presign('image/png');
    expect((await put(p.upload_url, 'image/png', media.png(500))).status).toBe(200);
    expect(await t.core.video.ingest.resolve(t.orgId, 'image', p.s3_key)).toMatchObject({ size: 500 });
    expect(await t.core.video.ingest.resolve(t.orgId, 'image', p.s3_key)).toMatchObject({ size: 500 });
    expect((await put(p.upload_url, 'image/png', media.png(600))).status).toBe(200);
    await expect(t.core.video.ingest.resolve(t.orgId, 'image', p.s3_key)).rejects.toMatchObject({
      status: 400,
      message: expect.stringMatching(/^The file for this storage key was replaced after it was checked/),
    });
  });

  it('a captions upload is checked as SRT/WebVTT text at first use, its text read back from the bucket', async () => {
    const vtt = 'WEBVTT\n\n00:00.000 --> 00:01.000\nFrom the bucket\n';
    const ok = await presign('text/vtt');
    expect((await put(ok.upload_url, 'text/vtt', Buffer.from(vtt))).status).toBe(200);
    const stored = await t.core.video.ingest.resolve(t.orgId, 'captions', ok.s3_key);
    const read = await readCaptionsText(await t.core.video.blobs.getStream(ok.s3_key));
    expect(stored).toMatchObject({ source: 'storage_key', size: Buffer.byteLength(vtt), contentType: 'text/vtt' });
    expect(read).toBe(vtt);
    expect(t.core.video.uploads.repo.get(ok.s3_key)).toMatchObject({ status: 'complete', kind: 'captions' });

    // S3 never looks at the bytes: a PNG sent as text/vtt is refused (and deleted) when it is first used.
    const png = await presign('text/vtt');
    expect((await put(png.upload_url, 'text/vtt', media.png(200))).status).toBe(200);
    await expect(t.core.video.ingest.resolve(t.orgId, 'captions', png.s3_key)).rejects.toMatchObject({ status: 400 });
    expect(await t.core.video.blobs.head(png.s3_key)).toBeNull();

    // Text that is not captions is refused the same way: the first use reads and checks the whole file.
    const prose = await presign('text/vtt');
    expect((await put(prose.upload_url, 'text/vtt', Buffer.from('just a note, no cues\n'))).status).toBe(200);
    await expect(t.core.video.ingest.resolve(t.orgId, 'captions', prose.s3_key)).rejects.toMatchObject({ status: 400 });
    expect(await t.core.video.blobs.head(prose.s3_key)).toBeNull();
  });

  it("sweeps only its own spool dir's leftovers of dead processes", async () => {
    const dead = spawnSync('true').pid; // a process that has exited
    const spool = path.join(t.dataDir, 'tmp');
    const hex = '0123456789abcdef';
    const leftovers = [`s3-spool-${dead}-${hex}`, `.tmp-${dead}-${hex}`].map((f) => path.join(spool, f));
    const kept = [
      path.join(spool, `s3-spool-${process.pid}-${hex}`), // a live writer: this process
      path.join(spool, 'renders', `.tmp-${dead}-${hex}`), // another feature's subdirectory
      path.join(spool, `s3-spool-${dead}-${hex}.part`),
    ];
    for (const f of [...leftovers, ...kept]) {
      fs.mkdirSync(path.dirname(f), { recursive: true });
      fs.writeFileSync(f, 'x');
    }
    expect(await t.core.video.blobs.sweepTempFiles()).toBe(2);
    for (const f of leftovers) expect(fs.existsSync(f)).toBe(false);
    for (const f of kept) expect(fs.existsSync(f)).toBe(true);
  });

  it('has no local upload endpoint to PUT to', async () => {
    const res = await fetch(`${t.url}/api/uploads/uploads/x/y/file.png?ct=image%2Fpng&max=1&exp=1&sig=00`, {
      method: 'PUT',
      headers: { 'content-type': 'image/png' },
      body: media.png(),
    });
    expect(res.status).toBe(404);
  });

  it('ingests data URIs into the bucket', async () => {
    const m = await t.core.video.ingest.resolve(
      t.orgId,
      'audio',
      `data:audio/wav;base64,${media.wav(800).toString('base64')}`,
    );
    expect(await t.core.video.blobs.head(m.storageKey)).toMatchObject({ size: 800, contentType: 'audio/wav' });
  });
});
