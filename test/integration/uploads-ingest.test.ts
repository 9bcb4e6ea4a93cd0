import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MediaIngestService } from '../../src/main/core/video/uploads/media-ingest.service.js';
import { magic, media, zeroStream } from '../helpers/media-fixtures.js';
import { startTestServer, type TestServer } from '../helpers/test-server.js';
import { listFiles } from '../helpers/upload-client.js';

const MiB = 1024 * 1024;

/** Media hosted on 127.0.0.1 for URL ingestion. */
function startMediaServer(): Promise<{ url: string; close: () => Promise<void> }> {
  const open = new Set<http.ServerResponse>();
  const server = http.createServer((req, res) => {
    open.add(res);
    res.on('close', () => open.delete(res));
    switch (req.url) {
      case '/photo.png': // a lying Content-Type: the bytes decide
        res.writeHead(200, { 'content-type': 'text/plain' });
        return void res.end(media.png(2048));
      case '/clip.mp4':
        res.writeHead(200, { 'content-type': 'video/mp4' });
        return void res.end(media.mp4av(4096));
      case '/to-photo':
        res.writeHead(302, { location: '/photo.png' });
        return void res.end();
      case '/loop':
        res.writeHead(302, { location: '/loop' });
        return void res.end();
      case '/to-file':
        res.writeHead(302, { location: 'file:///etc/passwd' });
        return void res.end();
      case '/declared-big.png':
        res.writeHead(200, { 'content-type': 'image/png', 'content-length': String(21 * MiB) });
        return void zeroStream(magic.png(16), 21 * MiB).pipe(res);
      case '/chunked-big.png':
        res.writeHead(200, { 'content-type': 'image/png' });
        return void zeroStream(magic.png(16), 21 * MiB).pipe(res);
      case '/slow.png':
        res.writeHead(200, { 'content-type': 'image/png' });
        return void res.write(magic.png(16)); // and never ends
      case '/fake.png': // a PNG signature, then a web page
        res.writeHead(200, { 'content-type': 'image/png' });
        return void res.end(Buffer.concat([magic.png(16), Buffer.from('<html><body>not an image</body></html>')]));
      case '/page.html':
        res.writeHead(200, { 'content-type': 'image/png' });
        return void res.end('<!doctype html><html><body>not an image</body></html>');
      default:
        res.writeHead(404);
        res.end('missing');
    }
  });
  return new Promise((resolve) => {
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      resolve({
        url: `http://127.0.0.1:${port}`,
        close: () =>
          new Promise<void>((r) => {
            for (const res of open) res.destroy();
            server.closeAllConnections();
            server.close(() => r());
          }),
      });
    });
  });
}

describe('media ingestion', () => {
  let t: TestServer;
  let host: { url: string; close: () => Promise<void> };
  let ingest: MediaIngestService;

  beforeAll(async () => {
    host = await startMediaServer();
    t = await startTestServer({ storage: { download: { timeoutMs: 1500, maxRedirects: 3 } } });
    ingest = t.core.video.ingest;
  });
  afterAll(async () => {
    await t?.close();
    await host?.close();
  });

  const rejects = (p: Promise<unknown>, message: RegExp) =>
    expect(p).rejects.toMatchObject({ status: 400, code: 'validation_error', message: expect.stringMatching(message) });

  describe('from URLs', () => {
    it('downloads, sniffs and stores an image whatever its Content-Type header says (loopback allowed)', async () => {
      const m = await ingest.resolve(t.orgId, 'image', `${host.url}/photo.png`);
      expect(m).toMatchObject({ kind: 'image', contentType: 'image/png', size: 2048, source: 'url' });
      expect(m.storageKey).toMatch(new RegExp(`^uploads/${t.orgId}/\\w{22}/photo\\.png$`));
      expect(await t.core.video.blobs.head(m.storageKey)).toEqual({ size: 2048, contentType: 'image/png' });
      expect(t.core.video.uploads.repo.get(m.storageKey)).toMatchObject({
        org_id: t.orgId,
        status: 'complete',
        source: 'url',
      });
      // The stored key is now usable as a storage key by the same org.
      expect(await ingest.resolve(t.orgId, 'image', m.storageKey)).toMatchObject({ source: 'storage_key', size: 2048 });
    });

    it('follows a redirect; an MP4 can be used as audio', async () => {
      expect(await ingest.resolve(t.orgId, 'image', `${host.url}/to-photo`)).toMatchObject({
        contentType: 'image/png',
      });
      expect(await ingest.resolve(t.orgId, 'audio', `${host.url}/clip.mp4`)).toMatchObject({
        kind: 'audio',
        contentType: 'audio/mp4',
      });
    });

    it('refuses bytes of another kind', async () => {
      await rejects(
        ingest.resolve(t.orgId, 'video', `${host.url}/photo.png`),
        /^The file is not a video: its content is image\/png\.$/,
      );
      await rejects(ingest.resolve(t.orgId, 'image', `${host.url}/page.html`), /^The file is not an image/);
    });

    it('decodes what it downloads: a PNG signature followed by HTML is refused and nothing is kept', async () => {
      const before = t.core.video.uploads.repo.listForOrg(t.orgId, 1000).length;
      await rejects(
        ingest.resolve(t.orgId, 'image', `${host.url}/fake.png`),
        /^The file is not an image: it starts like image\/png but does not decode/,
      );
      expect(t.core.video.uploads.repo.listForOrg(t.orgId, 1000)).toHaveLength(before);
    });

    it('refuses files over the kind limit, by Content-Length and while streaming', async () => {
      await rejects(ingest.resolve(t.orgId, 'image', `${host.url}/declared-big.png`), /larger than the 20 MB/);
      await rejects(ingest.resolve(t.orgId, 'image', `${host.url}/chunked-big.png`), /larger than the 20 MB/);
    });

    it('refuses redirect loops, non-http redirects, HTTP errors and other schemes', async () => {
      await rejects(ingest.resolve(t.orgId, 'image', `${host.url}/loop`), /redirected more than 3 times/);
      await rejects(ingest.resolve(t.orgId, 'image', `${host.url}/to-file`), /Could not download/);
      await rejects(ingest.resolve(t.orgId, 'image', `${host.url}/nothing.png`), /HTTP 404/);
      await rejects(
        ingest.resolve(t.orgId, 'image', 'ftp://127.0.0.1/a.png'),
        /http\(s\) URL, a base64 data URI or a storage key/,
      );
      await rejects(ingest.resolve(t.orgId, 'image', 'file:///etc/passwd'), /http\(s\) URL/);
    });

    it('gives up on a slow server after the configured time limit', async () => {
      const started = Date.now();
      await rejects(ingest.resolve(t.orgId, 'image', `${host.url}/slow.png`), /took longer than 1.5 s/);
      expect(Date.now() - started).toBeLessThan(10_000);
    });

    it('leaves no temp files behind after the failures above', () => {
      const leftovers = listFiles(path.join(t.dataDir, 'blobs')).filter((f) => path.basename(f).startsWith('.tmp-'));
      expect(leftovers).toEqual([]);
    });
  });

  describe('from data URIs', () => {
    const uri = (type: string, bytes: Buffer) => `data:${type};base64,${bytes.toString('base64')}`;

    it('decodes, sniffs and stores', async () => {
      const m = await ingest.resolve(t.orgId, 'image', uri('image/jpeg', media.jpeg(300)));
      expect(m).toMatchObject({ kind: 'image', contentType: 'image/jpeg', size: 300, source: 'data_uri' });
      expect(m.storageKey).toMatch(/\/file\.jpg$/);
      // The declared type does not matter, the bytes do.
      expect(await ingest.resolve(t.orgId, 'audio', uri('application/octet-stream', media.wav()))).toMatchObject({
        contentType: 'audio/wav',
      });
    });

    it('refuses data that does not decode, and records the real type of data that does', async () => {
      const html = Buffer.concat([magic.png(16), Buffer.from('<!doctype html><p>hi</p>')]);
      await rejects(
        ingest.resolve(t.orgId, 'image', uri('image/png', html)),
        /it starts like image\/png but does not decode/,
      );
      const mp4 = media.mp4av();
      await rejects(
        ingest.resolve(t.orgId, 'video', uri('video/mp4', mp4.subarray(0, mp4.length - 40))),
        /^The file is not a video: it starts like video\/mp4 but does not decode/,
      );
      // An MP4 with video only is no audio file, whatever its container could hold.
      await rejects(ingest.resolve(t.orgId, 'audio', uri('audio/mp4', media.mp4())), /its content is video\/mp4/);
      expect(await ingest.resolve(t.orgId, 'image', uri('image/png', media.gif()))).toMatchObject({
        contentType: 'image/gif',
      });
    });

    it('refuses non-base64, bad base64, other kinds and oversize data', async () => {
      await rejects(ingest.resolve(t.orgId, 'image', 'data:image/png,%89PNG'), /base64-encoded/);
      await rejects(ingest.resolve(t.orgId, 'image', 'data:image/png;base64,@@@@'), /valid base64/);
      await rejects(
        ingest.resolve(t.orgId, 'image', uri('image/png', media.mp3())),
        /^The file is not an image: its content is audio\/mpeg\.$/,
      );
      const big = `data:image/png;base64,${'A'.repeat(Math.ceil((20 * MiB * 4) / 3) + 8)}`;
      await rejects(ingest.resolve(t.orgId, 'image', big), /larger than the 20 MB/);
    });
  });

  describe('from storage keys', () => {
    const upload = async (key: string, contentType: string, body: Buffer<ArrayBuffer>) => {
      const res = await t.request('/api/s3/presign-upload', {
        method: 'POST',
        json: { kind: 'upload', contentType },
        key,
      });
      const p = (await res.json()) as { s3_key: string; upload_url: string };
      const put = await fetch(p.upload_url, { method: 'PUT', headers: { 'content-type': contentType }, body });
      expect(put.status).toBe(200);
      return p.s3_key;
    };

    it("accepts the org's own completed upload of the right kind", async () => {
      const key = await upload(t.key, 'video/webm', media.webm(1000));
      expect(await ingest.resolve(t.orgId, 'video', key)).toEqual({
        storageKey: key,
        kind: 'video',
        contentType: 'video/webm',
        size: 1000,
        source: 'storage_key',
      });
      await rejects(
        ingest.resolve(t.orgId, 'image', key),
        /^The file is not an image: the storage key refers to a video\.$/,
      );
    });

    it("refuses other orgs' keys exactly like unknown keys", async () => {
      const other = t.newOrg('other-org');
      const theirs = await upload(other.key, 'image/png', media.png());
      const unknown = `uploads/${other.orgId}/AAAAAAAAAAAAAAAAAAAAAA/file.png`;
      const a = await ingest.resolve(t.orgId, 'image', theirs).catch((e: Error) => e.message);
      const b = await ingest.resolve(t.orgId, 'image', unknown).catch((e: Error) => e.message);
      expect(a).toBe(`The storage key "${theirs}" does not refer to a file uploaded by this organization.`);
      expect(b).toBe(`The storage key "${unknown}" does not refer to a file uploaded by this organization.`);
      expect(await ingest.resolve(other.orgId, 'image', theirs)).toMatchObject({ source: 'storage_key' });
    });

    it('refuses a key whose file was never uploaded', async () => {
      const res = await t.request('/api/s3/presign-upload', {
        method: 'POST',
        json: { kind: 'upload', contentType: 'image/gif' },
      });
      const { s3_key } = (await res.json()) as { s3_key: string };
      await rejects(ingest.resolve(t.orgId, 'image', s3_key), /not been uploaded yet/);
    });
  });

  describe('from streams (multipart files)', () => {
    it('stores a stream, 413 past the limit, 400 for another kind', async () => {
      const ogg = media.ogg();
      expect(await ingest.ingestStream(t.orgId, 'audio', Readable.from([ogg]), 'audio/ogg', 'voice.ogg')).toMatchObject(
        {
          contentType: 'audio/ogg',
          size: ogg.length,
          source: 'upload',
        },
      );
      await expect(
        ingest.ingestStream(t.orgId, 'image', zeroStream(magic.gif(16), 21 * MiB), 'image/gif'),
      ).rejects.toMatchObject({ status: 413 });
      await rejects(
        ingest.ingestStream(t.orgId, 'audio', Readable.from([media.png()]), 'audio/mpeg'),
        /not an audio file/,
      );
      // GIF bytes declared as PNG are stored as what they are.
      expect(await ingest.ingestStream(t.orgId, 'image', Readable.from([media.gif()]), 'image/png')).toMatchObject({
        contentType: 'image/gif',
      });
      const jpegHead = media.jpeg().subarray(0, 40);
      await rejects(ingest.ingestStream(t.orgId, 'image', Readable.from([jpegHead]), 'image/jpeg'), /does not decode/);
      const leftovers = listFiles(path.join(t.dataDir, 'blobs')).filter((f) => path.basename(f).startsWith('.tmp-'));
      expect(leftovers).toEqual([]);
    });
  });
});
