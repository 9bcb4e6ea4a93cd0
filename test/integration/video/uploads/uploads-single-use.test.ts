import fs from 'node:fs';
import { request } from 'node:http';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { UploadRow } from '../../../../src/main/core/video/uploads/uploads.repo.js';
import { media } from '../../../helpers/media-fixtures.js';
import { startTestServer, type TestServer } from '../../../helpers/test-server.js';
import { waitFor } from '../../../helpers/upload-client.js';

const MiB = 1024 * 1024;

interface Presigned {
  s3_key: string;
  upload_url: string;
}

/** Item: a presigned upload URL takes one file; a second PUT must never replace a stored (maybe charged-for) file. */
describe('presigned upload URLs are single-use (local storage)', () => {
  let t: TestServer;
  let blobsDir: string;

  beforeAll(async () => {
    t = await startTestServer({
      server: { rateLimit: { perKeyPerSecond: 1000, perKeyBurst: 1000, unauthenticatedPerMinute: 1000 } },
    });
    blobsDir = path.join(t.dataDir, 'blobs');
  });
  afterAll(() => t.close());

  const presign = async (contentType: string): Promise<Presigned> => {
    const res = await t.request('/api/s3/presign-upload', { method: 'POST', json: { kind: 'upload', contentType } });
    expect(res.status).toBe(200);
    return (await res.json()) as Presigned;
  };
  const put = (p: Presigned, type: string, body: Buffer<ArrayBuffer>) =>
    fetch(p.upload_url, { method: 'PUT', headers: { 'content-type': type }, body });
  const stored = (key: string) => fs.readFileSync(path.join(blobsDir, ...key.split('/')));
  const row = (key: string) => t.core.video.uploads.repo.get(key) as UploadRow;
  const tempsOf = (key: string) => {
    const dir = path.join(blobsDir, ...key.split('/').slice(0, -1));
    return fs.existsSync(dir) ? fs.readdirSync(dir).filter((f) => f.startsWith('.tmp-')) : [];
  };

  it('answers 409 upload_already_used to a second PUT and keeps the first file', async () => {
    const p = await presign('image/png');
    const first = media.png(300);
    expect((await put(p, 'image/png', first)).status).toBe(200);
    const again = await put(p, 'image/png', media.png(400));
    expect(again.status).toBe(409);
    expect(await again.json()).toEqual({
      error: 'upload_already_used',
      message: expect.stringContaining('This upload URL has already been used'),
    });
    expect(stored(p.s3_key)).toEqual(first);
    expect(row(p.s3_key)).toMatchObject({ status: 'complete', size: 300 });
  });

  it('lets exactly one of many parallel PUTs to one URL win', async () => {
    const p = await presign('image/png');
    const bodies = Array.from({ length: 8 }, (_, i) => media.png(2000 + i));
    const answers = await Promise.all(bodies.map((b) => put(p, 'image/png', b)));
    const statuses = answers.map((a) => a.status);
    expect(statuses.filter((s) => s === 200)).toHaveLength(1);
    expect(statuses.filter((s) => s === 409)).toHaveLength(7);
    const winner = bodies[statuses.indexOf(200)];
    expect(stored(p.s3_key)).toEqual(winner);
    expect(row(p.s3_key)).toMatchObject({ status: 'complete', size: winner.length });
  });

  it('refuses PUTs while one is receiving (409 upload_in_progress), then only that one completes', async () => {
    const p = await presign('video/mp4');
    const total = 2 * MiB;
    const body = media.mp4(total);
    let answer = '';
    let refused = false;
    const done = new Promise<number>((resolve, reject) => {
      const req = request(p.upload_url, {
        method: 'PUT',
        headers: { 'content-type': 'video/mp4', 'content-length': total },
      });
      req.on('response', (res) => {
        res.on('data', (c: Buffer) => (answer += c));
        res.on('end', () => resolve(res.statusCode ?? 0));
      });
      req.on('error', reject);
      req.write(body.subarray(0, MiB));
      // The rest only once the parallel PUT below has been refused.
      void waitFor(() => refused, 10_000).then(() => req.end(body.subarray(MiB)));
    });
    await waitFor(() => tempsOf(p.s3_key).length === 1); // the first PUT is streaming to disk
    const parallel = await put(p, 'video/mp4', media.mp4(4096));
    refused = true;
    expect(parallel.status).toBe(409);
    expect(((await parallel.json()) as { error: string }).error).toBe('upload_in_progress');
    expect(await done).toBe(200);
    expect(JSON.parse(answer)).toMatchObject({ size: total, content_type: 'video/mp4' });
    // Buffer.equals: a deep toEqual over 2 MiB is needlessly slow.
    expect(stored(p.s3_key).equals(body)).toBe(true);
    expect((await put(p, 'video/mp4', media.mp4(4096))).status).toBe(409);
  });

  it('gives the URL back when a PUT fails midway, so the client can retry', async () => {
    const p = await presign('video/mp4');
    const req = request(p.upload_url, {
      method: 'PUT',
      headers: { 'content-type': 'video/mp4', 'content-length': 10 * MiB },
    });
    req.on('error', () => {});
    req.write(media.mp4(MiB));
    await waitFor(() => row(p.s3_key).put_claim !== null && tempsOf(p.s3_key).length === 1);
    req.destroy(); // the client goes away mid-body
    await waitFor(() => row(p.s3_key).put_claim === null);
    expect(tempsOf(p.s3_key)).toEqual([]);

    // A body refused by its content gives the URL back too.
    expect((await put(p, 'video/mp4', media.png())).status).toBe(400);
    expect(row(p.s3_key)).toMatchObject({ status: 'pending', put_claim: null });

    const retry = media.mp4(5000);
    expect((await put(p, 'video/mp4', retry)).status).toBe(200);
    expect(stored(p.s3_key)).toEqual(retry);
  });
});
