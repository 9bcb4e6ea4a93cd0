import { Webhook } from 'standardwebhooks';
import { describe, expect, it } from 'vitest';
import { MAX_RETRY_AFTER_MS, nextDelayMs } from '../../../../src/main/core/webhooks/webhook-retry.js';
import { newWebhookSecret, signWebhook } from '../../../../src/main/core/webhooks/webhook-signer.js';

describe('webhook signing', () => {
  it('makes whsec_ secrets of 24 random bytes', () => {
    const a = newWebhookSecret();
    expect(a).toMatch(/^whsec_[A-Za-z0-9+/]{32}$/);
    expect(Buffer.from(a.slice(6), 'base64')).toHaveLength(24);
    expect(newWebhookSecret()).not.toBe(a);
  });

  it('signs exactly as the standardwebhooks package does, one v1 signature per secret', () => {
    const [a, b] = [newWebhookSecret(), newWebhookSecret()];
    const body = JSON.stringify({ generation_id: 'gen_1', status: 'completed', note: 'ünïcödé ✓' });
    const ts = 1_790_000_000;
    const header = signWebhook('msg_1', ts, body, [a, b]);
    expect(header.split(' ')).toEqual([
      new Webhook(a).sign('msg_1', new Date(ts * 1000), body),
      new Webhook(b).sign('msg_1', new Date(ts * 1000), body),
    ]);
    // Any one secret verifies the pair; a third does not.
    const now = Math.floor(Date.now() / 1000);
    const headers = (sig: string) => ({
      'webhook-id': 'msg_1',
      'webhook-timestamp': String(now),
      'webhook-signature': sig,
    });
    const live = signWebhook('msg_1', now, body, [a, b]);
    expect(new Webhook(a).verify(body, headers(live))).toEqual(JSON.parse(body));
    expect(new Webhook(b).verify(body, headers(live))).toEqual(JSON.parse(body));
    expect(() => new Webhook(newWebhookSecret()).verify(body, headers(live))).toThrow(/No matching signature/);
    expect(() => new Webhook(a).verify(body + ' ', headers(live))).toThrow(/No matching signature/);
    expect(() => signWebhook('msg_1', now, body, [])).toThrow();
  });
});

describe('webhook retry schedule', () => {
  const schedule = [0, 5, 300, 1800];

  it('waits the next step with +-10 % jitter and stops when the schedule runs out', () => {
    expect(nextDelayMs(1, schedule, null, () => 0)).toBe(4500);
    expect(nextDelayMs(1, schedule, null, () => 1)).toBe(5500);
    expect(nextDelayMs(2, schedule, null, () => 0.5)).toBe(300_000);
    expect(nextDelayMs(3, schedule, null, () => 0.5)).toBe(1_800_000);
    expect(nextDelayMs(4, schedule, null)).toBeNull();
  });

  it('honours a longer Retry-After, capped at 24 h, but never a shorter one, and adds no attempts', () => {
    expect(nextDelayMs(1, schedule, 60_000, () => 0.5)).toBe(60_000);
    expect(nextDelayMs(1, schedule, 1000, () => 0.5)).toBe(5000);
    expect(nextDelayMs(1, schedule, 10 * MAX_RETRY_AFTER_MS, () => 0.5)).toBe(MAX_RETRY_AFTER_MS);
    expect(nextDelayMs(4, schedule, 1000)).toBeNull();
  });
});
