import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { media } from '../../../helpers/media-fixtures.js';
import { startTestServer, type TestServer } from '../../../helpers/test-server.js';
import { call, chargesOf, dataUri, generate, generateMultipart } from '../../../helpers/video-api.js';

// No starter credits: each test grants exactly what it needs.
let s: TestServer;
beforeAll(async () => {
  s = await startTestServer();
});
afterAll(async () => {
  await s?.close();
});

const PRICE = 8; // text-to-video-cinematic: studio-v1, 720p, 8 s
const body = (scene = 'A lighthouse at dusk, waves below') => ({ variables: { scene } });

describe('atomic charging', () => {
  it('100 concurrent requests against a balance for exactly 25: 25 succeed, 75 get 402, balance 0, 25 charges', async () => {
    const org = s.newOrg('concurrency-org');
    s.core.credits.grant(org.orgId, 25 * PRICE);
    const results = await Promise.all(
      Array.from({ length: 100 }, () => generate(s, 'text-to-video-cinematic', body(), { key: org.key })),
    );
    const statuses = results.map((r) => r.status);
    expect(statuses.filter((x) => x === 200)).toHaveLength(25);
    expect(statuses.filter((x) => x === 402)).toHaveLength(75);
    for (const r of results.filter((x) => x.status === 402)) expect(r.body.error).toBe('insufficient_credits');
    expect(s.core.credits.balance(org.orgId)).toBe(0);
    expect(chargesOf(s, org.orgId)).toHaveLength(25);
    const count = s.core.db.prepare('SELECT COUNT(*) AS n FROM generations WHERE org_id = ?').get(org.orgId) as {
      n: number;
    };
    expect(count.n).toBe(25);
    const jobs = s.core.db
      .prepare("SELECT COUNT(*) AS n FROM jobs WHERE org_id = ? AND status = 'queued'")
      .get(org.orgId) as { n: number };
    expect(jobs.n).toBe(25);
  });

  it('concurrent requests with media never overdraw either', async () => {
    const org = s.newOrg('concurrency-media-org');
    s.core.credits.grant(org.orgId, 5 * 3); // image-to-video-animate costs 3
    const photo = dataUri(media.png(), 'image/png');
    const results = await Promise.all(
      Array.from({ length: 12 }, () =>
        generate(s, 'image-to-video-animate', { variables: { photo } }, { key: org.key }),
      ),
    );
    expect(results.filter((r) => r.status === 200)).toHaveLength(5);
    expect(results.filter((r) => r.status === 402)).toHaveLength(7);
    expect(s.core.credits.balance(org.orgId)).toBe(0);
  });
});

describe('Idempotency-Key', () => {
  it('a repeated request returns the first answer without a second charge', async () => {
    const org = s.newOrg('idem-org');
    s.core.credits.grant(org.orgId, 100);
    const first = await generate(s, 'text-to-video-cinematic', body(), { key: org.key, idempotencyKey: 'order-1' });
    expect(first.status).toBe(200);
    expect(first.headers.get('idempotent-replayed')).toBeNull();
    // Same body, keys in another order: still the same request.
    const again = await generate(
      s,
      'text-to-video-cinematic',
      { num_videos: 1, variables: body().variables },
      { key: org.key, idempotencyKey: 'order-1' },
    );
    expect(again.status).toBe(200);
    expect(again.body).toEqual(first.body);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(s.core.credits.balance(org.orgId)).toBe(100 - PRICE);
    expect(chargesOf(s, org.orgId)).toHaveLength(1);
    expect((await call(s, '/api/generations', { key: org.key })).body.data).toHaveLength(1);
  });

  it('the same key with a different body is a 409 idempotency_conflict (other template too)', async () => {
    const org = s.newOrg('idem-conflict-org');
    s.core.credits.grant(org.orgId, 100);
    expect((await generate(s, 'text-to-video-cinematic', body(), { key: org.key, idempotencyKey: 'k' })).status).toBe(
      200,
    );
    const other = await generate(s, 'text-to-video-cinematic', body('A different scene entirely'), {
      key: org.key,
      idempotencyKey: 'k',
    });
    expect(other.status).toBe(409);
    expect(other.body.error).toBe('idempotency_conflict');
    const otherTemplate = await generate(
      s,
      'text-to-video-pro-1080p',
      { variables: { product: 'Acme' } },
      { key: org.key, idempotencyKey: 'k' },
    );
    expect(otherTemplate.body.error).toBe('idempotency_conflict');
    expect(chargesOf(s, org.orgId)).toHaveLength(1);
  });

  it('keys are per organization, and a failed request does not keep its key', async () => {
    const a = s.newOrg('idem-a');
    const b = s.newOrg('idem-b');
    s.core.credits.grant(a.orgId, PRICE);
    const failed = await generate(s, 'text-to-video-cinematic', body(), { key: b.key, idempotencyKey: 'shared' });
    expect(failed.status).toBe(402);
    const ok = await generate(s, 'text-to-video-cinematic', body(), { key: a.key, idempotencyKey: 'shared' });
    expect(ok.status).toBe(200);
    s.core.credits.grant(b.orgId, PRICE);
    const retried = await generate(s, 'text-to-video-cinematic', body(), { key: b.key, idempotencyKey: 'shared' });
    expect(retried.status).toBe(200);
    expect(retried.body.generations[0].generation_id).not.toBe(ok.body.generations[0].generation_id);
  });

  it('concurrent duplicates are charged once', async () => {
    const org = s.newOrg('idem-concurrent');
    s.core.credits.grant(org.orgId, 100);
    const results = await Promise.all(
      Array.from({ length: 10 }, () =>
        generate(s, 'text-to-video-cinematic', body(), { key: org.key, idempotencyKey: 'burst' }),
      ),
    );
    const oks = results.filter((r) => r.status === 200);
    expect(oks.length).toBeGreaterThanOrEqual(1);
    expect(results.every((r) => r.status === 200 || r.body.error === 'idempotency_in_progress')).toBe(true);
    expect(new Set(oks.map((r) => r.body.generations[0].generation_id)).size).toBe(1);
    expect(chargesOf(s, org.orgId)).toHaveLength(1);
  });

  it('works for multipart: the same file replays, another file conflicts', async () => {
    const org = s.newOrg('idem-multipart');
    s.core.credits.grant(org.orgId, 100);
    const form = (bytes: Buffer) => {
      const f = new FormData();
      f.append('variables[photo]', new Blob([new Uint8Array(bytes)], { type: 'image/png' }), 'p.png');
      return f;
    };
    const first = await generateMultipart(s, 'image-to-video-animate', form(media.png(90)), {
      key: org.key,
      idempotencyKey: 'mp',
    });
    expect(first.status).toBe(200);
    const again = await generateMultipart(s, 'image-to-video-animate', form(media.png(90)), {
      key: org.key,
      idempotencyKey: 'mp',
    });
    expect(again.status).toBe(200);
    expect(again.body).toEqual(first.body);
    const other = await generateMultipart(s, 'image-to-video-animate', form(media.png(91)), {
      key: org.key,
      idempotencyKey: 'mp',
    });
    expect(other.status).toBe(409);
    expect(chargesOf(s, org.orgId)).toHaveLength(1);
  });

  it('rejects a malformed key', async () => {
    const r = await generate(s, 'text-to-video-cinematic', body(), { idempotencyKey: 'x'.repeat(300) });
    expect(r.status).toBe(400);
  });
});
