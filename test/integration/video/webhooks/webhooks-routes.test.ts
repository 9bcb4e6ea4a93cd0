import { afterEach, describe, expect, it } from 'vitest';
import { WebhookDeliveryListSchema, WebhookSecretSchema } from '../../../../src/shared/webhooks.schema.js';
import { runCli } from '../../../helpers/spawn.js';
import {
  startHarness,
  startReceiver,
  verifyHook,
  type Harness,
  type Receiver,
} from '../../../helpers/webhooks-harness.js';

/** The webhook routes (secret, rotation, delivery log, replay), their scopes and errors, and the CLI. */
const open: { close(): Promise<void> }[] = [];
afterEach(async () => {
  for (const o of open.splice(0).reverse()) await o.close();
});

async function setup(opts: Parameters<typeof startHarness>[0] = {}): Promise<{ h: Harness; r: Receiver }> {
  const h = await startHarness(opts);
  open.push(h);
  const r = await startReceiver();
  open.push(r);
  return { h, r };
}

const HOUR = 3600_000;

describe('webhook signing secret', () => {
  it('is made on first use (whsec_ + 24 bytes), stable, per organization, and the CLI prints it alone on the last line', async () => {
    const { h } = await setup();
    const first = await h.api('/api/webhooks/secret');
    expect(first.status).toBe(200);
    const secret = WebhookSecretSchema.parse(first.body);
    expect(secret.secret).toMatch(/^whsec_[A-Za-z0-9+/]{32}$/);
    expect(secret.previous_secret_expires_at).toBeNull();
    expect((await h.api('/api/webhooks/secret')).body).toEqual(first.body);
    const other = h.newOrg('hooks-other');
    expect((await h.api('/api/webhooks/secret', { key: other.key })).body.secret).not.toBe(secret.secret);

    const cli = runCli(['webhooks', 'secret', '--org', 'hooks-org', '--data-dir', h.dataDir]);
    expect(cli.status, cli.stderr).toBe(0);
    expect(cli.stdout.trim().split('\n').pop()).toBe(secret.secret);
    const unknown = runCli(['webhooks', 'secret', '--org', 'nobody', '--data-dir', h.dataDir]);
    expect(unknown.status).toBe(1);
    expect(unknown.stderr).toMatch(/No organization named "nobody"/);
  });

  it('rotates: old and new both sign for 24 h (two v1 signatures), then only the new one', async () => {
    let offset = 0;
    const { h, r } = await setup({ now: () => Date.now() + offset });
    const old = (await h.api('/api/webhooks/secret')).body.secret as string;
    const rotated = await h.api('/api/webhooks/secret/rotate', { method: 'POST' });
    expect(rotated.status).toBe(200);
    const fresh = rotated.body.secret as string;
    expect(fresh).not.toBe(old);
    expect(rotated.body.previous_secret_expires_at).toBeGreaterThan(Date.now() + 24 * HOUR - 60_000);
    expect(rotated.body.previous_secret_expires_at).toBeLessThanOrEqual(Date.now() + 24 * HOUR);
    expect((await h.api('/api/webhooks/secret')).body).toEqual(rotated.body);

    const id = await h.generation(r.url);
    await h.driver.settle(h, id, (await h.finish(id, {}))!);
    const during = r.received[0];
    expect(during.headers['webhook-signature'].split(' ')).toHaveLength(2);
    expect(verifyHook(fresh, during).generation_id).toBe(id);
    expect(verifyHook(old, during).generation_id).toBe(id);

    offset = 24 * HOUR + 1000; // the overlap is over
    expect((await h.api('/api/webhooks/secret')).body.previous_secret_expires_at).toBeNull();
    const replay = await h.api(`/api/generations/${id}/webhooks/replay`, { method: 'POST' });
    await h.driver.settle(h, id, replay.body.id);
    const after = r.received[1];
    expect(after.headers['webhook-signature'].split(' ')).toHaveLength(1);
    expect(verifyHook(fresh, after).generation_id).toBe(id);
    expect(() => verifyHook(old, after)).toThrow(/No matching signature/);
  });

  it('the CLI rotates too, and the server signs with the new secret at once', async () => {
    const { h, r } = await setup();
    const old = (await h.api('/api/webhooks/secret')).body.secret as string;
    const cli = runCli(['webhooks', 'rotate', '--org', 'hooks-org', '--data-dir', h.dataDir]);
    expect(cli.status, cli.stderr).toBe(0);
    const fresh = cli.stdout.trim().split('\n').pop()!;
    expect(fresh).toMatch(/^whsec_/);
    expect(fresh).not.toBe(old);
    expect((await h.api('/api/webhooks/secret')).body.secret).toBe(fresh);
    const id = await h.generation(r.url);
    await h.driver.settle(h, id, (await h.finish(id, {}))!);
    expect(verifyHook(fresh, r.received[0]).status).toBe('completed');
    expect(verifyHook(old, r.received[0]).status).toBe('completed');
  });

  it('needs webhooks:read / webhooks:write (generations:* is not enough) and a key', async () => {
    const { h } = await setup();
    const gens = h.newOrg('hooks-gens-only', ['generations:read', 'generations:write']);
    const reader = h.newOrg('hooks-reader', ['webhooks:read']);
    const forbidden = await h.api('/api/webhooks/secret', { key: gens.key });
    expect(forbidden).toEqual({
      status: 403,
      body: { error: 'forbidden', message: expect.stringContaining('webhooks:read') },
    });
    expect((await h.api('/api/webhooks/secret', { key: reader.key })).status).toBe(200);
    expect((await h.api('/api/webhooks/secret/rotate', { method: 'POST', key: reader.key })).status).toBe(403);
    expect((await h.api('/api/webhooks/secret', { key: null })).body.error).toBe('unauthorized');
    expect((await h.api('/api/webhooks/secret/rotate', { method: 'POST', key: null })).status).toBe(401);
  });
});

describe('GET /api/generations/:id/webhooks and POST …/replay', () => {
  it('replays as a new delivery (new webhook-id, 202) of the current state; the log lists both', async () => {
    const { h, r } = await setup();
    const id = await h.generation(r.url);
    const first = (await h.finish(id, { error: 'It broke.' }))!;
    await h.driver.settle(h, id, first);
    const replay = await h.api(`/api/generations/${id}/webhooks/replay`, { method: 'POST' });
    expect(replay.status).toBe(202);
    expect(replay.body).toMatchObject({
      generation_id: id,
      trigger: 'replay',
      event: 'failed',
      status: 'pending',
      attempts: [],
    });
    expect(replay.body.id).not.toBe(first);
    await h.driver.settle(h, id, replay.body.id);

    const secret = (await h.api('/api/webhooks/secret')).body.secret as string;
    expect(r.received.map((x) => x.headers['webhook-id'])).toEqual([first, replay.body.id]);
    expect(verifyHook(secret, r.received[1])).toEqual(verifyHook(secret, r.received[0]));
    const log = await h.api(`/api/generations/${id}/webhooks`);
    expect(log.status).toBe(200);
    const list = WebhookDeliveryListSchema.parse(log.body);
    expect(list.data.map((d) => [d.id, d.trigger, d.status, d.attempts.length])).toEqual([
      [first, 'automatic', 'delivered', 1],
      [replay.body.id, 'replay', 'delivered', 1],
    ]);
  });

  it('409 while generating, when canceled, and without a webhook_url; an empty log before any delivery', async () => {
    const { h, r } = await setup();
    const generating = await h.generation(r.url);
    const conflict = await h.api(`/api/generations/${generating}/webhooks/replay`, { method: 'POST' });
    expect(conflict).toEqual({
      status: 409,
      body: { error: 'conflict', message: expect.stringContaining('generating') },
    });
    expect((await h.api(`/api/generations/${generating}/webhooks`)).body).toEqual({ data: [] });

    expect((await h.api(`/api/generations/${generating}/cancel`, { method: 'POST' })).status).toBe(200);
    expect((await h.api(`/api/generations/${generating}/webhooks/replay`, { method: 'POST' })).status).toBe(409);

    const quiet = await h.generation(null);
    await h.finish(quiet, {});
    const none = await h.api(`/api/generations/${quiet}/webhooks/replay`, { method: 'POST' });
    expect(none).toEqual({ status: 409, body: { error: 'conflict', message: expect.stringContaining('webhook_url') } });
    expect(h.driver.enqueued).toEqual([]);
  });

  it("404 for another organization's generation and an unknown id; scopes generations:read / :write", async () => {
    const { h, r } = await setup();
    const id = await h.generation(r.url);
    await h.driver.settle(h, id, (await h.finish(id, {}))!);
    const stranger = h.newOrg('hooks-stranger');
    for (const [method, path] of [
      ['GET', `/api/generations/${id}/webhooks`],
      ['POST', `/api/generations/${id}/webhooks/replay`],
      ['GET', '/api/generations/gen_nope/webhooks'],
      ['POST', '/api/generations/gen_nope/webhooks/replay'],
    ]) {
      const res = await h.api(path, { method, key: path.includes(id) ? stranger.key : undefined });
      expect(res, `${method} ${path}`).toEqual({
        status: 404,
        body: { error: 'not_found', message: expect.any(String) },
      });
    }
    expect(h.driver.enqueued).toHaveLength(1);

    const mine = h.newOrg('hooks-org', ['generations:read']); // same org as the generation, read-only key
    expect((await h.api(`/api/generations/${id}/webhooks`, { key: mine.key })).status).toBe(200);
    expect((await h.api(`/api/generations/${id}/webhooks/replay`, { method: 'POST', key: mine.key })).status).toBe(403);
    const hooksOnly = h.newOrg('hooks-org', ['webhooks:read']);
    expect((await h.api(`/api/generations/${id}/webhooks`, { key: hooksOnly.key })).status).toBe(403);
  });
});
