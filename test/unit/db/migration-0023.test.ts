// Migration 0023 makes one table of webhook deliveries (and one of attempts) out of the generation callbacks' (0008,
// 0018) and the login events' (0015): every row moves over with its id, status, attempts, times and payload, the old
// tables go, and a moved delivery is delivered (and a generation's replayed) by today's code.
import Database from 'better-sqlite3';
import { Webhook } from 'standardwebhooks';
import { afterAll, describe, expect, it } from 'vitest';
import type { WebhookGeneration } from '../../../src/main/core/video/webhooks/webhook-types.js';
import { generationWebhookKind } from '../../../src/main/core/video/webhooks/generation-webhook-kind.js';
import { WebhooksService } from '../../../src/main/core/video/webhooks/webhooks.service.js';
import { migrate } from '../../../src/main/core/db/database.js';
import { MIGRATIONS } from '../../../src/main/core/db/migrations/index.js';
import { CoreEventBus } from '../../../src/main/core/events.js';
import type { Job } from '../../../src/main/core/jobs/job-types.js';
import type { Logger } from '../../../src/main/core/logger.js';
import { OutboundPolicy } from '../../../src/main/core/net/outbound-policy.js';
import type { SecretStore } from '../../../src/main/core/secrets/secret-store.js';
import type { WebhookKind } from '../../../src/main/core/webhooks/webhook-kind.js';
import { WebhookDeliveries } from '../../../src/main/core/webhooks/webhook-deliveries.js';
import { WebhookDeliveriesRepo } from '../../../src/main/core/webhooks/webhook-deliveries.repo.js';
import { WebhookSecrets } from '../../../src/main/core/webhooks/webhook-secrets.js';
import { startReceiver, type Receiver } from '../../helpers/webhooks-harness.js';

type Row = Record<string, unknown>;

const receivers: Receiver[] = [];
afterAll(async () => {
  for (const r of receivers) await r.close();
});

/** A database at 0022 with deliveries and attempts in both old tables. */
function previousSchema(): Database.Database {
  const db = new Database(':memory:');
  db.pragma('foreign_keys = ON');
  migrate(db, MIGRATIONS, 22);
  db.prepare("INSERT INTO orgs (id, name, created_at) VALUES ('o1', 'Acme', 1), ('o2', 'Other', 1)").run();
  const generation = db.prepare(
    `INSERT INTO generations (id, org_id, batch_id, template_id, status, inputs, model_config, credits_charged, created_at, updated_at)
     VALUES (?, ?, 'gbt_1', 'tpl', 'completed', '{}', '{}', 8, 1, 1)`,
  );
  generation.run('gen_1', 'o1');
  generation.run('gen_2', 'o2');
  const video = db.prepare(
    `INSERT INTO webhook_deliveries (id, generation_id, org_id, trigger, event, payload, status, attempts, next_attempt_at,
       last_status_code, error, created_at, updated_at, finished_at)
     VALUES (@id, @generation_id, @org_id, @trigger, @event, @payload, @status, @attempts, @next_attempt_at,
       @last_status_code, @error, @created_at, @updated_at, @finished_at)`,
  );
  const body = (event: string) =>
    JSON.stringify({
      event,
      generation_id: 'gen_1',
      status: 'completed',
      template_id: 'tpl',
      video_url: null,
      error: null,
    });
  const none = { next_attempt_at: null, last_status_code: null, error: null, finished_at: null };
  video.run({
    ...none,
    id: 'msg_v1',
    generation_id: 'gen_1',
    org_id: 'o1',
    trigger: 'automatic',
    event: 'completed',
    payload: body('completed'),
    status: 'delivered',
    attempts: 1,
    last_status_code: 200,
    created_at: 10,
    updated_at: 11,
    finished_at: 11,
  });
  video.run({
    ...none,
    id: 'msg_v2',
    generation_id: 'gen_1',
    org_id: 'o1',
    trigger: 'replay',
    event: 'completed',
    payload: body('completed'),
    status: 'failed',
    attempts: 2,
    last_status_code: 410,
    error: 'HTTP 410: gone',
    created_at: 20,
    updated_at: 22,
    finished_at: 22,
  });
  video.run({
    ...none,
    id: 'msg_v3',
    generation_id: 'gen_1',
    org_id: 'o1',
    trigger: 'automatic',
    event: 'progress',
    payload: body('progress'),
    status: 'pending',
    attempts: 1,
    next_attempt_at: 31,
    last_status_code: 503,
    error: 'HTTP 503',
    created_at: 30,
    updated_at: 30,
  });
  video.run({
    ...none,
    id: 'msg_v4',
    generation_id: 'gen_2',
    org_id: 'o2',
    trigger: 'automatic',
    event: 'completed',
    payload: '{}',
    status: 'pending',
    attempts: 0,
    next_attempt_at: 40,
    created_at: 40,
    updated_at: 40,
  });
  const login = db.prepare(
    `INSERT INTO login_webhook_deliveries (id, org_id, login_id, event, payload, status, attempts, next_attempt_at,
       last_status_code, error, created_at, updated_at, finished_at)
     VALUES (@id, @org_id, @login_id, @event, @payload, @status, @attempts, @next_attempt_at, @last_status_code, @error,
       @created_at, @updated_at, @finished_at)`,
  );
  login.run({
    ...none,
    id: 'msg_l1',
    org_id: 'o1',
    login_id: 'lgn_1',
    event: 'login.needs_person',
    payload: 'sealed:v1:a',
    status: 'delivered',
    attempts: 1,
    last_status_code: 204,
    created_at: 12,
    updated_at: 13,
    finished_at: 13,
  });
  login.run({
    ...none,
    id: 'msg_l2',
    org_id: 'o1',
    login_id: 'lgn_1',
    event: 'login.finished',
    payload: '{"type":"login.finished"}',
    status: 'pending',
    attempts: 1,
    next_attempt_at: 15,
    last_status_code: 500,
    error: 'HTTP 500',
    created_at: 14,
    updated_at: 14,
  });
  const attempt = (table: string, id: string, n: number, code: number, error: string | null) =>
    db
      .prepare(
        `INSERT INTO ${table} (delivery_id, attempt, started_at, duration_ms, status_code, error) VALUES (?, ?, ?, 7, ?, ?)`,
      )
      .run(id, n, 100 + n, code, error);
  attempt('webhook_attempts', 'msg_v1', 1, 200, null);
  attempt('webhook_attempts', 'msg_v2', 1, 500, 'HTTP 500');
  attempt('webhook_attempts', 'msg_v2', 2, 410, 'HTTP 410: gone');
  attempt('webhook_attempts', 'msg_v3', 1, 503, 'HTTP 503');
  attempt('login_webhook_attempts', 'msg_l1', 1, 204, null);
  attempt('login_webhook_attempts', 'msg_l2', 1, 500, 'HTTP 500');
  return db;
}

const all = (db: Database.Database, sql: string) => db.prepare(sql).all() as Row[];
const tables = (db: Database.Database) =>
  all(db, "SELECT name FROM sqlite_master WHERE type = 'table' AND name LIKE '%webhook%' ORDER BY name").map(
    (r) => r.name,
  );

const noLog = { info() {}, warn() {}, error() {} } as unknown as Logger;
const config = { retryScheduleSec: [0, 0.05, 0.05], timeoutMs: 5000 };

function memorySecrets(): SecretStore {
  const values = new Map<string, string>();
  return {
    backend: 'file',
    get: async (account) => values.get(account) ?? null,
    set: async (account, value) => void values.set(account, value),
    delete: async (account) => values.delete(account),
    check: async () => {},
    listAccounts: async (prefix) => [...values.keys()].filter((k) => k.startsWith(prefix)),
  };
}

/** Jobs as the queue would keep them; run one by hand with `run`. */
function jobs() {
  const queued: { kind: string; refId: string }[] = [];
  return { queued, enqueue: (job: { kind: string; refId: string }) => (queued.push(job), 'job'), kick() {} };
}

const job = (kind: string, refId: string): Job => ({
  id: `job_${refId}`,
  kind,
  refId,
  orgId: 'o1',
  status: 'running',
  lane: 'io',
  attempts: 1,
  payload: {},
});
const run = { signal: new AbortController().signal, savePayload: () => {} };

describe('migration 0023 (one webhook deliveries table for every kind of event)', () => {
  it('moves every delivery and attempt of both old tables, unchanged, and drops the old tables', () => {
    const db = previousSchema();
    const videoBefore = all(db, 'SELECT * FROM webhook_deliveries ORDER BY rowid');
    const loginBefore = all(db, 'SELECT * FROM login_webhook_deliveries ORDER BY rowid');
    const attemptsBefore = [
      ...all(db, 'SELECT * FROM webhook_attempts'),
      ...all(db, 'SELECT * FROM login_webhook_attempts'),
    ];

    expect(migrate(db, MIGRATIONS, 23)).toBe(1);
    expect(db.pragma('foreign_keys', { simple: true })).toBe(1);
    expect(tables(db)).toEqual(['login_webhooks', 'webhook_attempts', 'webhook_deliveries']);

    const after = all(db, 'SELECT * FROM webhook_deliveries ORDER BY rowid');
    const { generation_id: _g, ...sameColumns } = videoBefore[0];
    expect(Object.keys(sameColumns).every((k) => k in after[0])).toBe(true);
    expect(after).toEqual([
      ...videoBefore.map(({ generation_id, ...d }) => ({
        ...d,
        kind: 'generation',
        subject_id: generation_id,
        once_key: d.trigger === 'automatic' && d.event !== 'progress' ? `${generation_id}:${d.event}` : null,
      })),
      ...loginBefore.map(({ login_id, ...d }) => ({
        ...d,
        kind: 'login',
        subject_id: login_id,
        trigger: 'automatic',
        once_key: null,
      })),
    ]);
    expect(all(db, 'SELECT * FROM webhook_attempts')).toEqual(expect.arrayContaining(attemptsBefore));
    expect(all(db, 'SELECT * FROM webhook_attempts')).toHaveLength(attemptsBefore.length);
  });

  it('keeps the rules: once per generation and event, deliveries go with their generation and organization', () => {
    const db = previousSchema();
    migrate(db, MIGRATIONS, 23);
    const repo = new WebhookDeliveriesRepo(db);
    const row = {
      kind: 'generation',
      org_id: 'o1',
      subject_id: 'gen_1',
      event: 'completed',
      trigger: 'automatic' as const,
      payload: '{}',
    };
    expect(repo.insert({ ...row, id: 'msg_again', once_key: 'gen_1:completed' }, 50)).toBe(false);
    expect(repo.insert({ ...row, id: 'msg_replay', trigger: 'replay', once_key: null }, 50)).toBe(true);
    expect(() => repo.insert({ ...row, id: 'msg_bad', trigger: 'manual' as 'replay', once_key: null }, 50)).toThrow(
      /CHECK/,
    );

    db.prepare("DELETE FROM generations WHERE id = 'gen_1'").run();
    expect(all(db, 'SELECT id FROM webhook_deliveries ORDER BY rowid').map((r) => r.id)).toEqual([
      'msg_v4',
      'msg_l1',
      'msg_l2',
    ]);
    expect(all(db, 'SELECT delivery_id FROM webhook_attempts ORDER BY delivery_id').map((r) => r.delivery_id)).toEqual([
      'msg_l1',
      'msg_l2',
    ]);
    db.prepare("DELETE FROM orgs WHERE id = 'o1'").run();
    expect(all(db, 'SELECT id FROM webhook_deliveries').map((r) => r.id)).toEqual(['msg_v4']);
    expect(all(db, 'SELECT * FROM webhook_attempts')).toEqual([]);
  });

  it('delivers a moved pending delivery of each kind, and replays a moved generation', async () => {
    const db = previousSchema();
    migrate(db, MIGRATIONS, 23);
    const receiver = await startReceiver();
    receivers.push(receiver);
    const secrets = new WebhookSecrets({ secrets: memorySecrets() });
    const queue = jobs();
    const deps = { db, log: noLog, jobs: queue, config, secrets, outbound: new OutboundPolicy({ mode: 'private-ok' }) };

    // The login kind as login/webhooks makes it, but for its sealing (the moved payload here is in clear).
    const loginKind: WebhookKind = {
      name: 'login',
      jobKind: 'login_webhook_delivery',
      noun: 'login webhook',
      noReceiver: 'none',
      unprepared: { url: 'url', body: 'body' },
      logFields: (d) => ({ loginId: d.subject_id }),
      receiverUrl: async () => receiver.url,
      body: async (d) => d.payload,
    };
    const logins = new WebhookDeliveries(loginKind, deps);
    expect(await logins.handler().run(job('login_webhook_delivery', 'msg_l2'), run)).toEqual({ status: 'done' });
    const [l2, l1] = logins.latestOfOrg('o1', 10, (d, attempts) => ({ ...d, attempts }));
    expect(l1.id).toBe('msg_l1');
    expect(l2).toMatchObject({ id: 'msg_l2', status: 'delivered', attempts: [{ attempt: 1 }, { attempt: 2 }] });
    expect(receiver.received[0].headers['webhook-id']).toBe('msg_l2');
    const secret = (await secrets.get('o1')).secret;
    expect(new Webhook(secret).verify(receiver.received[0].body, receiver.received[0].headers)).toEqual({
      type: 'login.finished',
    });

    const gen: WebhookGeneration = {
      id: 'gen_1',
      orgId: 'o1',
      status: 'completed',
      templateId: 'tpl',
      error: null,
      hasWebhook: true,
      events: ['completed', 'failed', 'progress'],
      draft: false,
      batchId: 'gbt_1',
      batchIndex: null,
      progress: 100,
      started: true,
    };
    const kind = generationWebhookKind({
      events: new CoreEventBus(),
      getWebhookUrl: () => receiver.url,
      getVideoUrl: () => 'https://cdn.example/gen_1.mp4',
    });
    const generations = new WebhookDeliveries(kind, deps);
    const service = new WebhooksService({
      log: noLog,
      generation: (id) => (id === 'gen_1' ? gen : null),
      deliveries: generations,
      secrets,
    });
    // The moved pending progress callback goes out as its second attempt.
    expect(await generations.handler().run(job('webhook_delivery', 'msg_v3'), run)).toEqual({ status: 'done' });
    expect(receiver.received[1].headers['webhook-id']).toBe('msg_v3');
    // The automatic completed one was moved: not made again. A replay is a new delivery, delivered.
    expect(service.enqueueFor('gen_1')).toBe('msg_v1');
    const replay = service.replay('o1', 'gen_1');
    expect(queue.queued).toEqual([
      { kind: 'webhook_delivery', refId: replay.id, orgId: 'o1', payload: { generationId: 'gen_1' } },
    ]);
    expect(await generations.handler().run(job('webhook_delivery', replay.id), run)).toEqual({ status: 'done' });
    expect(new Webhook(secret).verify(receiver.received[2].body, receiver.received[2].headers)).toMatchObject({
      event: 'completed',
      generation_id: 'gen_1',
      video_url: 'https://cdn.example/gen_1.mp4',
    });
    const log = service.deliveries('o1', 'gen_1').data;
    expect(log.map((d) => [d.id, d.trigger, d.event, d.status, d.attempts.length])).toEqual([
      ['msg_v1', 'automatic', 'completed', 'delivered', 1],
      ['msg_v2', 'replay', 'completed', 'failed', 2],
      ['msg_v3', 'automatic', 'progress', 'delivered', 2],
      [replay.id, 'replay', 'completed', 'delivered', 1],
    ]);
    expect(log[1]).toMatchObject({ error: 'HTTP 410: gone', created_at: 20, finished_at: 22 });
  });
});
