/**
 * A presigned upload URL whose `exp` was edited: the signature covers the expiry, so a URL cannot be kept alive by
 * moving it later (an agent's leaked URL stays good for its 15 minutes, no longer). The download URL's twin check is
 * in uploads.test.ts ("serves it through a signed GET").
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_ROUTES } from '../../../../src/shared/api/index.js';
import type { LocalBlobStore } from '../../../../src/main/core/video/uploads/storage/local-blob-store.js';
import { errorShapeProblem } from '../../../helpers/error-shape.js';
import { media } from '../../../helpers/media-fixtures.js';
import { startTestServer, type TestServer } from '../../../helpers/test-server.js';

describe('presigned upload URL with an edited expiry', () => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer();
  });
  afterAll(() => t?.close());

  const put = (url: URL | string) =>
    fetch(url, { method: 'PUT', headers: { 'content-type': 'image/png' }, body: media.png() });
  const laterExp = (url: string, bySec: number) => {
    const edited = new URL(url);
    edited.searchParams.set('exp', String(Number(edited.searchParams.get('exp')) + bySec));
    return edited;
  };
  /** A refusal of the PUT route: a 4xx in the error body its table entry documents; its message, to say why. */
  const expectRefused = async (res: Response) => {
    expect(res.status).toBeGreaterThanOrEqual(400);
    expect(res.status).toBeLessThan(500);
    const body = (await res.json()) as { message?: string };
    expect(errorShapeProblem(body, API_ROUTES.putUpload.api)).toBeNull();
    return body.message;
  };
  const presign = async () => {
    const res = await t.request('/api/s3/presign-upload', {
      method: 'POST',
      json: { kind: 'upload', contentType: 'image/png', fileName: 'a.png' },
    });
    expect(res.status).toBe(200);
    return (await res.json()) as { upload_url: string; s3_key: string; content_type: string; max_bytes: number };
  };

  it('refuses the URL with exp moved later, and accepts the same URL unedited', async () => {
    const p = await presign();
    expect(await expectRefused(await put(laterExp(p.upload_url, 24 * 3600)))).toMatch(/signature/);
    expect(t.core.video.uploads.repo.get(p.s3_key)?.status).toBe('pending');

    const ok = await put(p.upload_url);
    expect(ok.status).toBe(200);
    expect(t.core.video.uploads.repo.get(p.s3_key)?.status).toBe('complete');
  });

  it('refuses an expired URL whose exp was moved back into the future', async () => {
    // The server's own URL for a presigned (pending) upload, signed as already expired: were `exp` not signed, the
    // edit alone would revive it and the PUT would be stored.
    const p = await presign();
    const url = await (t.core.video.blobs as LocalBlobStore).presignUpload({
      key: p.s3_key,
      contentType: p.content_type,
      maxBytes: p.max_bytes,
      expiresInSec: -60,
      baseUrl: t.url,
    });
    expect(await expectRefused(await put(url))).toMatch(/expired/); // expired as signed
    expect(await expectRefused(await put(laterExp(url, 3600)))).toMatch(/signature/); // "revived" by the edit
    expect(t.core.video.uploads.repo.get(p.s3_key)?.status).toBe('pending');
  });
});
