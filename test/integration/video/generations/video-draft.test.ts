// Drafts: `draft: true` on generate is a free preview by the local renderer (never a hosted provider), marked in the
// record and the webhook body, and limited per API key.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startReceiver, verifyHook, type Receiver } from '../../../helpers/webhooks-harness.js';
import { startTestServer, tempDir, type TestServer } from '../../../helpers/test-server.js';
import { balanceOf, call, chargesOf, generate, templateBody } from '../../../helpers/video-api.js';

async function until<T>(fn: () => Promise<T>, ok: (v: T) => boolean, timeoutMs = 120_000): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const v = await fn();
    if (ok(v) || Date.now() > end) return v;
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** A template that names a hosted provider (fal): a draft of it must still be rendered locally. */
const hostedTemplate = (title: string) =>
  templateBody({
    title,
    duration_sec: 1,
    provider: { name: 'fal', model: 'fal-ai/kling-video/v2/master/text-to-video', input: { prompt: '{{prompt}}' } },
  });

describe('a draft render', () => {
  let s: TestServer;
  let receiver: Receiver;
  beforeAll(async () => {
    s = await startTestServer({ jobs: { renderConcurrency: 1 } }, { credits: 1_000 });
    receiver = await startReceiver();
  });
  afterAll(async () => {
    await receiver?.close();
    await s?.close();
  });

  it('is free, local even for a hosted template, and marked draft in the record and the webhook', async () => {
    const t = await call(s, '/api/templates', { method: 'POST', json: hostedTemplate('Hosted, drafted') });
    expect(t.body.renderer).toMatchObject({ kind: 'hosted', name: 'fal' });
    const balance = balanceOf(s, s.orgId);
    const charges = chargesOf(s, s.orgId).length;
    const r = await generate(s, t.body.id, {
      variables: { topic: 'a lighthouse at dusk' },
      draft: true,
      webhook_url: receiver.url,
    });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body).toMatchObject({ credits_charged: 0, draft: true });
    const id = r.body.generations[0].generation_id as string;
    const job = s.core.db
      .prepare('SELECT lane, payload FROM jobs WHERE ref_id = ? AND kind = ?')
      .get(id, 'render_generation');
    expect(job).toEqual({ lane: 'render', payload: JSON.stringify({ provider: 'local' }) });

    const done = await until(
      () => call(s, `/api/generations/${id}`),
      (g) => g.body.status !== 'generating',
    );
    expect(done.body).toMatchObject({
      status: 'completed',
      draft: true,
      credits_charged: 0,
      resolution: '360p',
      renderer: {
        kind: 'local',
        name: 'local',
        label: expect.stringMatching(/^Local draft \(offline motion graphics/),
      },
    });
    expect(balanceOf(s, s.orgId)).toBe(balance);
    expect(chargesOf(s, s.orgId).length).toBe(charges);

    // The video is the pipeline's low-resolution preview.
    const file = path.join(tempDir(), 'draft.mp4');
    fs.writeFileSync(file, Buffer.from(await (await fetch(done.body.video_url)).arrayBuffer()));
    const height = execFileSync(
      'ffprobe',
      ['-v', 'error', '-select_streams', 'v', '-show_entries', 'stream=height', '-of', 'csv=p=0', file],
      {
        encoding: 'utf8',
      },
    );
    expect(Number(height.trim())).toBe(360);

    await receiver.waitFor(1);
    const secret = (await call(s, '/api/webhooks/secret')).body.secret as string;
    const event = verifyHook(secret, receiver.received[0]);
    expect(event).toMatchObject({ event: 'completed', generation_id: id, status: 'completed', draft: true });
  });

  it('a non-draft generation of the same template is charged and says it is hosted', async () => {
    const t = await call(s, '/api/templates', { method: 'POST', json: hostedTemplate('Hosted, charged') });
    const r = await generate(s, t.body.id, { variables: { topic: 'a lighthouse at dusk' } });
    expect(r.status).toBe(200);
    expect(r.body.credits_charged).toBe(1);
    expect(r.body.draft).toBeUndefined();
    const g = await call(s, `/api/generations/${r.body.generations[0].generation_id}`);
    expect(g.body).toMatchObject({
      draft: false,
      renderer: { kind: 'hosted', name: 'fal', label: expect.stringMatching(/^fal · /) },
    });
  });
});

describe('the draft limit', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer({}, { credits: 1_000 }); // rendering paused: only acceptance is counted
  });
  afterAll(() => s?.close());

  it('allows 30 drafts a minute per API key, then 429 rate_limited with Retry-After', async () => {
    const body = { variables: { scene: 'A lighthouse at dusk, waves below' }, draft: true };
    for (let i = 0; i < 30; i++) {
      const r = await generate(s, 'text-to-video-cinematic', body);
      expect(r.status, JSON.stringify(r.body)).toBe(200);
    }
    const refused = await generate(s, 'text-to-video-cinematic', body);
    expect(refused.status).toBe(429);
    expect(refused.body).toEqual({
      error: 'rate_limited',
      message: expect.stringMatching(/30 per minute per API key/),
    });
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    // Per key: another key of the same organization has its own drafts; paid generations are not limited by it.
    const other = s.core.keys.create(s.orgId).key;
    expect((await generate(s, 'text-to-video-cinematic', body, { key: other })).status).toBe(200);
    const paid = await generate(s, 'text-to-video-cinematic', { variables: body.variables });
    expect(paid.status).toBe(200);
    // A refused draft was not recorded.
    const drafts = s.core.db.prepare('SELECT COUNT(*) AS n FROM generations WHERE draft = 1').get();
    expect(drafts).toEqual({ n: 31 });
  });
});
