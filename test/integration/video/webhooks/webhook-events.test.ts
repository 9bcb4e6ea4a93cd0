// webhook_events: which callbacks a generation's receiver gets (default completed + failed; also started, progress at
// most every 2 s, aborted, canceled), each signed (verified with `standardwebhooks`) and naming its event.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FalStandin } from '../../../fixtures/providers/fal-standin.js';
import { startReceiver, verifyHook, type Receiver } from '../../../helpers/webhooks-harness.js';
import { startTestServer, type TestServer } from '../../../helpers/test-server.js';
import { call, generate, templateBody } from '../../../helpers/video-api.js';

const FAL_KEY = 'fal-test-key-0123456789';

async function until<T>(fn: () => Promise<T>, ok: (v: T) => boolean, timeoutMs = 60_000): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const v = await fn();
    if (ok(v) || Date.now() > end) return v;
    await new Promise((r) => setTimeout(r, 50));
  }
}

interface Delivered {
  event: string;
  status: string;
  generation_id: string;
  progress?: number;
  draft: boolean;
}

/** Every callback the receiver got for a generation, verified with the organization's secret. */
function eventsFor(s: { secret: string; receiver: Receiver }, generationId: string): Delivered[] {
  return s.receiver.received
    .map((hook) => verifyHook(s.secret, hook) as unknown as Delivered)
    .filter((e) => e.generation_id === generationId);
}

describe('event filters through the pipeline (hosted stand-in)', () => {
  let s: TestServer;
  let fal: FalStandin;
  let receiver: Receiver;
  let secret: string;
  let templateId: string;
  beforeAll(async () => {
    fal = await new FalStandin(FAL_KEY).start();
    s = await startTestServer(
      { jobs: { renderConcurrency: 1 }, providers: { fal: { baseUrl: fal.url }, pollIntervalMs: 20 } },
      { credits: 1_000 },
    );
    await s.core.secrets.set('providers.fal.key', FAL_KEY);
    receiver = await startReceiver();
    secret = (await call(s, '/api/webhooks/secret')).body.secret;
    const t = await call(s, '/api/templates', {
      method: 'POST',
      json: templateBody({
        provider: { name: 'fal', model: 'fal-ai/kling-video/v2/master/text-to-video', input: { prompt: '{{prompt}}' } },
      }),
    });
    templateId = t.body.id;
  });
  afterAll(async () => {
    await receiver?.close();
    await s?.close();
    await fal?.stop();
  });

  it('started, progress (at most one every 2 s) and completed, each signed and named', async () => {
    fal.script = { queuePolls: 1, progressPolls: 250 }; // about 5 s of progress at 20 ms a poll
    const r = await generate(s, templateId, {
      variables: { topic: 'a fox in the snow' },
      webhook_url: receiver.url,
      webhook_events: ['started', 'progress', 'completed'],
    });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    const id = r.body.generations[0].generation_id as string;
    const log = await until(
      () => call(s, `/api/generations/${id}/webhooks`),
      (l) =>
        l.body.data.some((d: { event: string; status: string }) => d.event === 'completed' && d.status === 'delivered'),
    );
    const deliveries = log.body.data as { event: string; status: string; created_at: number }[];
    await until(
      async () =>
        deliveries.every((d) => d.status === 'delivered') &&
        eventsFor({ secret, receiver }, id).length >= deliveries.length,
      (v) => v,
    );
    const events = eventsFor({ secret, receiver }, id);
    const names = events.map((e) => e.event);
    expect(names).toContain('started');
    expect(names).toContain('completed');
    expect(names.filter((n) => n === 'started')).toHaveLength(1);
    expect(names.filter((n) => n === 'completed')).toHaveLength(1);
    expect(new Set(names)).toEqual(new Set(['started', 'progress', 'completed']));
    for (const e of events) {
      expect(e.status).toBe(e.event === 'completed' ? 'completed' : 'generating');
      if (e.event === 'progress' || e.event === 'started') expect(typeof e.progress).toBe('number');
    }
    const progressAt = deliveries.filter((d) => d.event === 'progress').map((d) => d.created_at);
    for (let i = 1; i < progressAt.length; i++) expect(progressAt[i] - progressAt[i - 1]).toBeGreaterThanOrEqual(2000);
    expect(deliveries.map((d) => d.event).filter((e) => e === 'progress')).toHaveLength(progressAt.length);
  });

  it('by default only the end: completed (no started, no progress)', async () => {
    fal.script = { queuePolls: 1, progressPolls: 3 };
    const r = await generate(s, templateId, { variables: { topic: 'a quiet fox' }, webhook_url: receiver.url });
    const id = r.body.generations[0].generation_id as string;
    await until(
      async () => eventsFor({ secret, receiver }, id).length,
      (n) => n >= 1,
    );
    const g = await call(s, `/api/generations/${id}`);
    expect(g.body.webhook_events).toEqual(['completed', 'failed']);
    const log = (await call(s, `/api/generations/${id}/webhooks`)).body.data as { event: string }[];
    expect(log.map((d) => d.event)).toEqual(['completed']);
    expect(eventsFor({ secret, receiver }, id).map((e) => e.event)).toEqual(['completed']);
  });
});

describe('aborted and canceled', () => {
  let s: TestServer;
  let receiver: Receiver;
  let secret: string;
  beforeAll(async () => {
    s = await startTestServer({}, { credits: 1_000 }); // rendering paused: jobs stay queued
    receiver = await startReceiver();
    secret = (await call(s, '/api/webhooks/secret')).body.secret;
  });
  afterAll(async () => {
    await receiver?.close();
    await s?.close();
  });
  const body = { variables: { scene: 'A lighthouse at dusk, waves below' } };

  it('an aborted generation is sent when failed is subscribed (the default), with event aborted', async () => {
    const r = await generate(s, 'text-to-video-cinematic', { ...body, webhook_url: receiver.url, deadline_sec: 1 });
    const id = r.body.generations[0].generation_id as string;
    await until(
      async () => eventsFor({ secret, receiver }, id).length,
      (n) => n >= 1,
    );
    const [event] = eventsFor({ secret, receiver }, id);
    expect(event).toMatchObject({ event: 'aborted', status: 'aborted', error: expect.stringMatching(/^Aborted/) });
  });

  it('canceled only when asked for', async () => {
    const asked = await generate(s, 'text-to-video-cinematic', {
      ...body,
      webhook_url: receiver.url,
      webhook_events: ['canceled'],
    });
    const quiet = await generate(s, 'text-to-video-cinematic', { ...body, webhook_url: receiver.url });
    const [a, q] = [asked, quiet].map((r) => r.body.generations[0].generation_id as string);
    await call(s, `/api/generations/${q}/cancel`, { method: 'POST' });
    await call(s, `/api/generations/${a}/cancel`, { method: 'POST' });
    await until(
      async () => eventsFor({ secret, receiver }, a).length,
      (n) => n >= 1,
    );
    expect(eventsFor({ secret, receiver }, a)).toEqual([
      expect.objectContaining({ event: 'canceled', status: 'canceled', video_url: null, error: null }),
    ]);
    expect((await call(s, `/api/generations/${q}/webhooks`)).body.data).toEqual([]);
  });

  it('refuses webhook_events without webhook_url, and unknown events', async () => {
    const noUrl = await generate(s, 'text-to-video-cinematic', { ...body, webhook_events: ['started'] });
    expect(noUrl.status).toBe(400);
    expect(noUrl.body.message).toMatch(/webhook_events needs a webhook_url/);
    const unknown = await generate(s, 'text-to-video-cinematic', {
      ...body,
      webhook_url: receiver.url,
      webhook_events: ['finished'],
    });
    expect(unknown.status).toBe(400);
    expect(unknown.body.error).toBe('validation_error');
  });
});
