import fs from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { WebhookEventSchema } from '../../../../src/shared/webhooks.schema.js';
import { tempDir } from '../../../helpers/temp-dir.js';
import {
  startHarness,
  startReceiver,
  verifyHook,
  type Answer,
  type Harness,
  type Receiver,
} from '../../../helpers/webhooks-harness.js';

/**
 * Delivery of signed generation callbacks to a real receiver on 127.0.0.1, verified with the public
 * `standardwebhooks` package. Attempts are run one at a time by the test's driver (the job queue's
 * role); retries wait for the due time the delivery row records.
 */
const open: { close(): Promise<void> }[] = [];
afterEach(async () => {
  for (const o of open.splice(0).reverse()) await o.close();
});

async function harness(opts: Parameters<typeof startHarness>[0] = {}): Promise<Harness> {
  const h = await startHarness(opts);
  open.push(h);
  return h;
}
async function receiver(answer?: (n: number) => Answer): Promise<Receiver> {
  const r = await startReceiver(answer);
  open.push(r);
  return r;
}
const secretOf = async (h: Harness) => (await h.api('/api/webhooks/secret')).body.secret as string;

describe('webhook delivery', () => {
  it('POSTs the spec body on completion, signed per Standard Webhooks; video_url is a working signed URL', async () => {
    const h = await harness();
    const r = await receiver();
    const id = await h.generation(r.url);
    const deliveryId = await h.finish(id, {});
    expect(deliveryId).toMatch(/^msg_[0-9A-Za-z]{24}$/);
    expect(h.driver.enqueued).toEqual([deliveryId]);
    const log = await h.driver.settle(h, id, deliveryId!);

    expect(r.received).toHaveLength(1);
    const [hook] = r.received;
    expect(hook.path).toBe(`/hook?token=${r.token}`);
    expect(hook.headers['content-type']).toBe('application/json');
    expect(hook.headers['user-agent']).toMatch(/^AgentStudio-Webhooks\/\d+\.\d+\.\d+$/);
    expect(hook.headers['webhook-id']).toBe(deliveryId);
    expect(Math.abs(Number(hook.headers['webhook-timestamp']) - Date.now() / 1000)).toBeLessThan(60);
    expect(hook.headers['webhook-signature']).toMatch(/^v1,[A-Za-z0-9+/]+=*$/);

    const secret = await secretOf(h);
    const body = verifyHook(secret, hook);
    // The event name first, the spec's fields in its order, then draft and the batch (issue 27).
    expect(Object.keys(body)).toEqual([
      'event',
      'generation_id',
      'status',
      'template_id',
      'video_url',
      'error',
      'draft',
      'batch_id',
      'batch_index',
    ]);
    expect(WebhookEventSchema.parse(body)).toMatchObject({
      generation_id: id,
      status: 'completed',
      template_id: 'text-to-video-cinematic',
      error: null,
    });
    const video = await fetch(body.video_url!);
    expect(video.status).toBe(200);
    expect(
      Buffer.from(await video.arrayBuffer())
        .subarray(4, 8)
        .toString('latin1'),
    ).toBe('ftyp');
    // A tampered body or another secret does not verify.
    expect(() => verifyHook(secret, { ...hook, body: hook.body.replace('completed', 'failed') })).toThrow();
    expect(() => verifyHook('whsec_' + Buffer.alloc(24, 7).toString('base64'), hook)).toThrow();

    expect(log).toMatchObject({ id: deliveryId, trigger: 'automatic', event: 'completed', status: 'delivered' });
    expect(log.attempts).toEqual([
      { attempt: 1, started_at: expect.any(Number), duration_ms: expect.any(Number), status_code: 200, error: null },
    ]);
    expect(h.attempts).toEqual([
      expect.objectContaining({ deliveryId, generationId: id, attempt: 1, statusCode: 200, outcome: 'delivered' }),
    ]);
  });

  it('POSTs the failure callback (video_url null, the error) once per generation; none without a webhook_url', async () => {
    const h = await harness();
    const r = await receiver();
    const id = await h.generation(r.url);
    const deliveryId = await h.finish(id, { error: 'The provider refused the prompt (policy).' });
    // The pipeline may report a generation twice (a crash between its steps): still one delivery.
    expect(h.webhooks.enqueueFor(id)).toBe(deliveryId);
    await h.driver.settle(h, id, deliveryId!);
    expect(verifyHook(await secretOf(h), r.received[0])).toEqual({
      event: 'failed',
      generation_id: id,
      status: 'failed',
      template_id: 'text-to-video-cinematic',
      video_url: null,
      error: 'The provider refused the prompt (policy).',
      draft: false,
      batch_id: expect.stringMatching(/^gbt_/),
      batch_index: null,
    });
    expect(h.driver.enqueued).toEqual([deliveryId]);

    const quiet = await h.generation(null);
    expect(await h.finish(quiet, {})).toBeNull();
    const running = await h.generation(r.url);
    expect(h.webhooks.enqueueFor(running)).toBeNull(); // still generating
    expect(h.driver.enqueued).toHaveLength(1);
  });

  it('retries a 500 on the schedule with the same webhook-id, then succeeds; the log shows both attempts', async () => {
    const h = await harness({ webhooks: { retryScheduleSec: [0, 0.3, 0.3] } });
    const r = await receiver((n) => (n === 1 ? { status: 500, body: 'boom' } : { status: 204 }));
    const id = await h.generation(r.url);
    const deliveryId = (await h.finish(id, {}))!;
    const log = await h.driver.settle(h, id, deliveryId);

    expect(r.received).toHaveLength(2);
    expect(r.received.map((x) => x.headers['webhook-id'])).toEqual([deliveryId, deliveryId]);
    expect(r.received[1].at - r.received[0].at).toBeGreaterThanOrEqual(270); // 300 ms - 10 % jitter
    const secret = await secretOf(h);
    // Same event; only video_url may differ (it is signed afresh at each attempt, so it never arrives expired).
    const [a, b] = r.received.map((x) => verifyHook(secret, x));
    expect({ ...b, video_url: null }).toEqual({ ...a, video_url: null });
    expect(b.video_url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/api\/files\//);
    expect(log.status).toBe('delivered');
    expect(log.attempts.map((a) => [a.attempt, a.status_code, a.error])).toEqual([
      [1, 500, 'HTTP 500'],
      [2, 204, null],
    ]);
    expect(h.attempts.map((e) => e.outcome)).toEqual(['retrying', 'delivered']);
    const via = await h.api(`/api/generations/${id}/webhooks`);
    expect(via.status).toBe(200);
    expect(via.body.data).toEqual([log]);
  });

  it('gives up when the schedule runs out; a refused connection counts as a failed attempt', async () => {
    const h = await harness({ webhooks: { retryScheduleSec: [0, 0.05, 0.05] } });
    const r = await receiver((n) => ({ status: n === 1 ? 503 : 502 }));
    const id = await h.generation(r.url);
    const deliveryId = (await h.finish(id, {}))!;
    const log = await h.driver.settle(h, id, deliveryId);
    expect(r.received).toHaveLength(3);
    expect(log.status).toBe('failed');
    expect(log.error).toBe('gave up after 3 attempts; last: HTTP 502');
    expect(log.next_attempt_at).toBeNull();

    await r.close(); // nothing listens there now
    const replay = await h.api(`/api/generations/${id}/webhooks/replay`, { method: 'POST' });
    expect(replay.status).toBe(202);
    const refused = await h.driver.settle(h, id, replay.body.id);
    // The receiver is on loopback: why there was no answer is not told (docs/security.md#outbound-requests).
    expect(refused.attempts.map((a) => [a.status_code, a.error])).toEqual([
      [null, 'no HTTP answer from the receiver'],
      [null, 'no HTTP answer from the receiver'],
      [null, 'no HTTP answer from the receiver'],
    ]);
  });

  it('honours Retry-After of a 429 when it is longer than the schedule', async () => {
    const h = await harness({ webhooks: { retryScheduleSec: [0, 0.05] } });
    const r = await receiver((n) => (n === 1 ? { status: 429, headers: { 'retry-after': '1' } } : { status: 200 }));
    const id = await h.generation(r.url);
    const deliveryId = (await h.finish(id, {}))!;
    const log = await h.driver.settle(h, id, deliveryId);
    expect(r.received).toHaveLength(2);
    expect(r.received[1].at - r.received[0].at).toBeGreaterThanOrEqual(950);
    expect(h.attempts[0]).toMatchObject({ statusCode: 429, outcome: 'retrying', error: 'HTTP 429' });
    expect(log.attempts.map((a) => a.status_code)).toEqual([429, 200]);
  });

  it('stops at 410 Gone: one attempt, failed, and running the job again sends nothing', async () => {
    const h = await harness({ webhooks: { retryScheduleSec: [0, 0.05, 0.05] } });
    const r = await receiver(() => ({ status: 410 }));
    const id = await h.generation(r.url);
    const deliveryId = (await h.finish(id, {}))!;
    const log = await h.driver.settle(h, id, deliveryId);
    expect(log.status).toBe('failed');
    expect(log.attempts.map((a) => a.status_code)).toEqual([410]);
    expect(log.error).toMatch(/410/);
    const again = await h.webhooks.handler.run(
      {
        id: 'j',
        kind: 'webhook_delivery',
        refId: deliveryId,
        orgId: h.orgId,
        status: 'running',
        lane: 'io',
        attempts: 2,
        payload: {},
      },
      { signal: new AbortController().signal, savePayload: () => {} },
    );
    expect(again.status).toBe('failed');
    expect(r.received).toHaveLength(1);
  });

  it('does not follow a redirect: the 301 is a failed attempt, logged, and the target is never called', async () => {
    const h = await harness({ webhooks: { retryScheduleSec: [0, 0.05] } });
    const r = await receiver(() => ({ status: 301, headers: { location: '/moved-here' } }));
    const id = await h.generation(r.url);
    const deliveryId = (await h.finish(id, {}))!;
    const log = await h.driver.settle(h, id, deliveryId);
    expect(r.received.map((x) => x.path.split('?')[0])).toEqual(['/hook']);
    expect(log.status).toBe('failed');
    expect(log.attempts).toEqual([
      expect.objectContaining({ status_code: 301, error: expect.stringMatching(/redirect/) }),
    ]);
    await h.core.logger.flush();
    const lines = fs.readFileSync(h.core.logger.file, 'utf8').split('\n').filter(Boolean);
    const logged = lines.map((l) => JSON.parse(l)).find((l) => l.deliveryId === deliveryId && l.statusCode === 301);
    expect(logged).toMatchObject({ level: 40, msg: 'webhook delivery failed', attempt: 1 });
  });

  it('times out a receiver that does not answer (configured time-out) and retries it', async () => {
    const h = await harness({ webhooks: { retryScheduleSec: [0, 0.05], timeoutMs: 300 } });
    const r = await receiver(() => 'hang');
    const id = await h.generation(r.url);
    const deliveryId = (await h.finish(id, {}))!;
    const log = await h.driver.settle(h, id, deliveryId);
    expect(r.received).toHaveLength(2);
    // A silent receiver on loopback reads like a closed port (docs/security.md#outbound-requests).
    expect(log.attempts.map((a) => [a.status_code, a.error])).toEqual([
      [null, 'no HTTP answer from the receiver'],
      [null, 'no HTTP answer from the receiver'],
    ]);
    for (const a of log.attempts) expect(a.duration_ms).toBeGreaterThanOrEqual(290);
    expect(log.error).toBe('gave up after 2 attempts; last: no HTTP answer from the receiver');
  });

  it('survives a restart: a delivery left pending is carried on by the next process with the same id', async () => {
    const dataDir = tempDir();
    const r = await receiver((n) => (n === 1 ? { status: 500 } : { status: 200 }));
    const first = await startHarness({ dataDir, webhooks: { retryScheduleSec: [0, 0.2] } });
    const id = await first.generation(r.url);
    const deliveryId = (await first.finish(id, {}))!;
    const job = {
      id: 'j1',
      kind: 'webhook_delivery',
      refId: deliveryId,
      orgId: first.orgId,
      status: 'running' as const,
      lane: 'io' as const,
      attempts: 1,
      payload: {},
    };
    const outcome = await first.webhooks.handler.run(job, {
      signal: new AbortController().signal,
      savePayload: () => {},
    });
    expect(outcome).toMatchObject({ status: 'retry', error: 'HTTP 500' });
    await first.close();

    const second = await harness({ dataDir, webhooks: { retryScheduleSec: [0, 0.2] } });
    const log = await second.driver.settle(second, id, deliveryId);
    expect(log.status).toBe('delivered');
    expect(log.attempts.map((a) => [a.attempt, a.status_code])).toEqual([
      [1, 500],
      [2, 200],
    ]);
    expect(r.received.map((x) => x.headers['webhook-id'])).toEqual([deliveryId, deliveryId]);
    verifyHook(await secretOf(second), r.received[1]);
  });

  it('writes no secret, signature, URL token or payload to the log file', async () => {
    const h = await harness({ webhooks: { retryScheduleSec: [0, 0.05] } });
    const r = await receiver((n) => ({ status: n % 2 ? 500 : 200 }));
    const done = await h.generation(r.url);
    const failed = await h.generation(r.url);
    const oldSecret = await secretOf(h);
    await h.driver.settle(h, done, (await h.finish(done, {}))!);
    const newSecret = (await h.api('/api/webhooks/secret/rotate', { method: 'POST' })).body.secret as string;
    await h.driver.settle(h, failed, (await h.finish(failed, { error: 'payload-marker-Xq81 went wrong' }))!);
    expect(r.received).toHaveLength(4);
    const videoUrl = verifyHook(oldSecret, r.received[1]).video_url!;

    await h.core.logger.flush();
    const text = fs.readFileSync(h.core.logger.file, 'utf8');
    expect(text).toMatch(/webhook delivered/);
    const forbidden = [
      oldSecret.slice(6),
      newSecret.slice(6),
      r.token,
      'payload-marker-Xq81',
      new URL(videoUrl).searchParams.get('sig')!,
      ...r.received.flatMap((x) => x.headers['webhook-signature'].split(' ').map((s) => s.slice(3))),
    ];
    for (const secret of forbidden) expect(text.includes(secret), secret).toBe(false);
  });
});
