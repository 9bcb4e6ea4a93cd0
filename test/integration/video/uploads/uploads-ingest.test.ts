import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import net from 'node:net';
import { OutboundPolicy } from '../../../../src/main/core/net/outbound-policy.js';
import { MediaIngestService } from '../../../../src/main/core/video/uploads/media-ingest.service.js';
import { MediaProbe } from '../../../../src/main/core/video/uploads/media-probe.js';
import { magic, media, zeroStream } from '../../../helpers/media-fixtures.js';
import { startTestServer, type TestServer } from '../../../helpers/test-server.js';
import { listFiles } from '../../../helpers/upload-client.js';

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

/** A TCP service that is not HTTP (it greets like SSH), on 127.0.0.1. */
function startOtherService(): Promise<{ port: number; close: () => Promise<void> }> {
  const sockets = new Set<net.Socket>();
  const server = net.createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => {});
    socket.write('SSH-2.0-OpenSSH_9.6\r\n');
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () =>
      resolve({
        port: (server.address() as AddressInfo).port,
        close: () =>
          new Promise<void>((r) => {
            for (const s of sockets) s.destroy();
            server.close(() => r());
          }),
      }),
    ),
  );
}

/** A port with nothing listening on it (bound, then released). */
function closedPort(): Promise<number> {
  return new Promise((resolve) => {
    const srv = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as AddressInfo;
      srv.close(() => resolve(port));
    });
  });
}

describe('media ingestion', () => {
  let t: TestServer;
  let host: { url: string; close: () => Promise<void> };
  /** The core's own ingestion (default outbound policy): media hosted on 127.0.0.1 is loopback. */
  let ingest: MediaIngestService;
  /**
   * The same ingestion with the host standing for a public address (a resolver hook maps media.test to
   * one, and the test hook dials 127.0.0.1): only for public addresses are failures described in detail.
   */
  let publicIngest: MediaIngestService;
  let pub: string;
  const probe = new MediaProbe();

  beforeAll(async () => {
    host = await startMediaServer();
    t = await startTestServer({ storage: { download: { timeoutMs: 1500, maxRedirects: 3 } } });
    ingest = t.core.video.ingest;
    pub = host.url.replace('127.0.0.1', 'media.test');
    publicIngest = new MediaIngestService({
      blobs: t.core.video.blobs,
      repo: t.core.video.uploads.repo,
      log: t.core.log,
      probe,
      download: {
        timeoutMs: 1500,
        maxRedirects: 3,
        outbound: new OutboundPolicy({
          resolve: async (name) => {
            if (name !== 'media.test') throw Object.assign(new Error(`ENOTFOUND ${name}`), { code: 'ENOTFOUND' });
            return [{ address: '93.184.215.14', family: 4 }];
          },
          dial: () => '127.0.0.1',
        }),
      },
    });
  });
  afterAll(async () => {
    await t?.close();
    await host?.close();
    await probe.dispose();
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

    it('refuses bytes of another kind (a public host: the reason is told)', async () => {
      await rejects(
        publicIngest.resolve(t.orgId, 'video', `${pub}/photo.png`),
        /^The file is not a video: its content is image\/png\.$/,
      );
      await rejects(publicIngest.resolve(t.orgId, 'image', `${pub}/page.html`), /^The file is not an image/);
    });

    it('decodes what it downloads: a PNG signature followed by HTML is refused and nothing is kept', async () => {
      const before = t.core.video.uploads.repo.listForOrg(t.orgId, 1000).length;
      await rejects(
        publicIngest.resolve(t.orgId, 'image', `${pub}/fake.png`),
        /^The file is not an image: it starts like image\/png but does not decode/,
      );
      await rejects(ingest.resolve(t.orgId, 'image', `${host.url}/fake.png`), /no image file could be fetched/);
      expect(t.core.video.uploads.repo.listForOrg(t.orgId, 1000)).toHaveLength(before);
    });

    it('refuses files over the kind limit, by Content-Length and while streaming', async () => {
      await rejects(publicIngest.resolve(t.orgId, 'image', `${pub}/declared-big.png`), /larger than the 20 MB/);
      await rejects(publicIngest.resolve(t.orgId, 'image', `${pub}/chunked-big.png`), /larger than the 20 MB/);
      await rejects(ingest.resolve(t.orgId, 'image', `${host.url}/chunked-big.png`), /no image file could be fetched/);
    });

    it('refuses redirect loops, non-http redirects, HTTP errors and other schemes', async () => {
      await rejects(publicIngest.resolve(t.orgId, 'image', `${pub}/loop`), /redirected more than 3 times/);
      await rejects(publicIngest.resolve(t.orgId, 'image', `${pub}/to-file`), /Could not download/);
      await rejects(publicIngest.resolve(t.orgId, 'image', `${pub}/nothing.png`), /HTTP 404/);
      await rejects(ingest.resolve(t.orgId, 'image', `${host.url}/to-file`), /Could not download/);
      await rejects(
        ingest.resolve(t.orgId, 'image', 'ftp://127.0.0.1/a.png'),
        /http\(s\) URL, a base64 data URI or a storage key/,
      );
      await rejects(ingest.resolve(t.orgId, 'image', 'file:///etc/passwd'), /http\(s\) URL/);
    });

    it('gives up on a slow server after the configured time limit', async () => {
      const started = Date.now();
      await rejects(publicIngest.resolve(t.orgId, 'image', `${pub}/slow.png`), /took longer than 1.5 s/);
      expect(Date.now() - started).toBeLessThan(10_000);
    });

    it('for a loopback or private address every failure reads the same: no port scanning through media URLs', async () => {
      const other = await startOtherService();
      const closed = await closedPort();
      try {
        const urls = [
          `http://127.0.0.1:${closed}/a.png`, // nothing listens
          `http://127.0.0.1:${other.port}/a.png`, // a service that is not HTTP
          `${host.url}/page.html`, // a web page
          `${host.url}/nothing.png`, // an HTTP error
          `${host.url}/clip.mp4`, // media of another kind
          `${host.url}/loop`,
          `${host.url}/declared-big.png`,
          `${host.url}/slow.png`, // a server that never finishes
        ];
        const messages = new Set<string>();
        for (const url of urls) {
          const err = await ingest.resolve(t.orgId, 'image', url).then(
            () => null,
            (e: unknown) => e,
          );
          expect(err, url).toMatchObject({ status: 400, code: 'validation_error' });
          messages.add((err as Error).message);
        }
        expect([...messages]).toEqual(['Could not download the image URL: no image file could be fetched from it.']);
      } finally {
        await other.close();
      }
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
