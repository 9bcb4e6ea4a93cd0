import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { Webhook } from 'standardwebhooks';
import type { WebhookDelivery, WebhookEvent } from '../../src/shared/webhooks.schema.js';
import type { AppConfigInput } from '../../src/main/core/config/config.schema.js';
import { parseConfig } from '../../src/main/core/config/load-config.js';
import { createCore, type Core } from '../../src/main/core/create-core.js';
import { CoreEventBus, type CoreEvents } from '../../src/main/core/events.js';
import { buildCoreServer } from '../../src/main/core/routes.js';
import { JobQueue } from '../../src/main/core/jobs/job-queue.js';
import type { Job } from '../../src/main/core/jobs/job-types.js';
import {
  createWebhooks,
  type WebhookJobQueue,
  type Webhooks,
} from '../../src/main/core/video/webhooks/webhooks.feature.js';
import { webhookRoutes } from '../../src/main/core/video/webhooks/webhooks.routes.js';
import { media } from './media-fixtures.js';
import { tempDir } from './temp-dir.js';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Loose = any;

// ------------------------------------------------------------------ receiver

export interface ReceivedHook {
  path: string;
  headers: Record<string, string>;
  body: string;
  at: number;
}

/** What the receiver answers to its n-th request (1-based); 'hang' never answers. */
export type Answer = { status: number; headers?: Record<string, string>; body?: string } | 'hang';

export interface Receiver {
  /** The hook URL (carries a secret token, which must never reach a log). */
  url: string;
  token: string;
  received: ReceivedHook[];
  /** Resolves once `n` requests have arrived. */
  waitFor(n: number): Promise<void>;
  close(): Promise<void>;
}

/** A webhook receiver on 127.0.0.1 port 0 that records every request. */
export async function startReceiver(
  answer: (n: number, hook: ReceivedHook) => Answer = () => ({ status: 200 }),
): Promise<Receiver> {
  const received: ReceivedHook[] = [];
  const waiters: { n: number; resolve: () => void }[] = [];
  const hanging = new Set<http.ServerResponse>();
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const headers = Object.fromEntries(Object.entries(req.headers).map(([k, v]) => [k, String(v)]));
      const hook = { path: req.url ?? '/', headers, body: Buffer.concat(chunks).toString('utf8'), at: Date.now() };
      received.push(hook);
      const a = answer(received.length, hook);
      if (a === 'hang') hanging.add(res);
      else res.writeHead(a.status, a.headers ?? {}).end(a.body ?? '');
      for (const w of waiters.filter((w) => received.length >= w.n)) {
        waiters.splice(waiters.indexOf(w), 1);
        w.resolve();
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const token = `tok-${Math.random().toString(36).slice(2)}-receiver`;
  return {
    url: `http://127.0.0.1:${port}/hook?token=${token}`,
    token,
    received,
    waitFor: (n) =>
      received.length >= n ? Promise.resolve() : new Promise<void>((resolve) => waiters.push({ n, resolve })),
    close: () =>
      new Promise<void>((resolve) => {
        for (const res of hanging) res.destroy();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Verifies a received hook with the public `standardwebhooks` package; returns the parsed body. */
export function verifyHook(secret: string, hook: ReceivedHook): WebhookEvent {
  return new Webhook(secret).verify(hook.body, hook.headers) as WebhookEvent;
}

// ------------------------------------------------------------------ queue stand-in

/**
 * Runs `webhook_delivery` jobs one attempt at a time, as the job queue would, without depending on it:
 * it takes what enqueueFor/replay enqueue, and between attempts waits for the due time the delivery
 * row records (its state lives in SQLite, so a driver on a restarted core carries on).
 */
export class DeliveryDriver implements WebhookJobQueue {
  readonly enqueued: string[] = [];
  private jobs = 0;

  enqueue(job: { kind: string; refId: string }): string {
    if (job.kind !== 'webhook_delivery') throw new Error(`unexpected job kind ${job.kind}`);
    this.enqueued.push(job.refId);
    return `job_${++this.jobs}`;
  }

  kick(): void {}

  /** Runs attempts until the delivery is no longer pending; returns its log entry. */
  async settle(h: Harness, generationId: string, deliveryId: string, maxRuns = 20): Promise<WebhookDelivery> {
    for (let run = 1; run <= maxRuns; run++) {
      const d = h.webhooks.service.deliveries(h.orgId, generationId).data.find((x) => x.id === deliveryId);
      if (!d) throw new Error(`no delivery ${deliveryId}`);
      if (d.status !== 'pending') return d;
      const wait = (d.next_attempt_at ?? 0) - Date.now();
      if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
      const job: Job = {
        id: `job_${deliveryId}`,
        kind: 'webhook_delivery',
        refId: deliveryId,
        orgId: h.orgId,
        status: 'running',
        lane: 'io',
        attempts: run,
        payload: {},
      };
      await h.webhooks.handler.run(job, { signal: new AbortController().signal, savePayload: () => {} });
    }
    throw new Error(`delivery ${deliveryId} still pending after ${maxRuns} runs`);
  }
}

// ------------------------------------------------------------------ server + core

/** Stores a stand-in video and thumbnail as a rendered result of the generation. */
export async function storeResult(
  core: Core,
  generationId: string,
): Promise<{ videoKey: string; thumbnailKey: string }> {
  const videoKey = `generated/${generationId}.mp4`;
  const thumbnailKey = `generated/${generationId}.png`;
  await core.video.blobs.put(videoKey, media.mp4(2048), 'video/mp4');
  await core.video.blobs.put(thumbnailKey, media.png(), 'image/png');
  return { videoKey, thumbnailKey };
}

export interface Harness {
  core: Core;
  app: FastifyInstance;
  url: string;
  dataDir: string;
  webhooks: Webhooks;
  driver: DeliveryDriver;
  events: CoreEventBus;
  /** Every webhook.attempt event so far. */
  attempts: CoreEvents['webhook.attempt'][];
  orgId: string;
  key: string;
  api(
    path: string,
    init?: { method?: string; key?: string | null; json?: unknown },
  ): Promise<{ status: number; body: Loose }>;
  newOrg(name: string, scopes?: string[]): { orgId: string; key: string };
  /** POST generate (text-to-video) with this webhook URL (or none); returns the generation id. */
  generation(webhookUrl: string | null, key?: string): Promise<string>;
  /** generating -> completed (with a stored video) or failed, then enqueueFor, as the pipeline will. */
  finish(generationId: string, how: { error?: string }): Promise<string | null>;
  close(): Promise<void>;
}

/**
 * A real core and HTTP server on 127.0.0.1 port 0 with the webhook routes registered and the webhooks
 * wired to the generations service the way the composition root will (URL opened from its sealed form,
 * video_url presigned by the generations service).
 */
export async function startHarness(
  opts: {
    dataDir?: string;
    webhooks?: AppConfigInput['webhooks'];
    now?: () => number;
    /** Deliver through the real persistent job queue instead of the step-by-step driver (benchmarks). */
    jobQueue?: boolean;
  } = {},
): Promise<Harness> {
  const dataDir = opts.dataDir ?? tempDir();
  const core = createCore(
    parseConfig({ dataDir, log: { level: 'info' }, server: { port: 0 }, webhooks: opts.webhooks ?? {} }),
  );
  const gens = core.video.generations;
  const driver = new DeliveryDriver();
  const queue = opts.jobQueue ? new JobQueue({ db: core.db, log: core.log, concurrency: { render: 1, io: 8 } }) : null;
  const events = new CoreEventBus();
  const attempts: CoreEvents['webhook.attempt'][] = [];
  events.on('webhook.attempt', (e) => attempts.push(e));
  let baseUrl = '';
  const webhooks = createWebhooks({
    db: core.db,
    secrets: core.secrets,
    log: core.log,
    config: core.config.webhooks,
    events,
    jobs: queue ?? driver,
    generation: (id) => gens.webhookInfo(id),
    getWebhookUrl: (id) => gens.webhookUrl(id),
    getVideoUrl: async (id) => {
      const row = gens.repo.getAny(id);
      return row ? (await gens.get(row.org_id, id, { baseUrl })).video_url : null;
    },
    now: opts.now,
  });
  if (queue) {
    queue.register(webhooks.kind, webhooks.handler);
    queue.start();
  }
  // This harness drives its own webhooks instance (step by step), so it serves that one's routes.
  const app = await buildCoreServer(core, webhookRoutes(webhooks.service));
  await app.listen({ host: '127.0.0.1', port: 0 });
  const url = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
  baseUrl = url;

  const newOrg = (name: string, scopes?: string[]) => {
    const org = core.orgs.resolve(name) ?? core.orgs.create(name);
    core.credits.grant(org.id, 1000);
    return { orgId: org.id, key: core.keys.create(org.id, { scopes }).key };
  };
  const main = newOrg('hooks-org');
  const api: Harness['api'] = async (path, init = {}) => {
    const headers: Record<string, string> = {};
    const key = init.key === undefined ? main.key : init.key;
    if (key) headers.authorization = `Bearer ${key}`;
    if (init.json !== undefined) headers['content-type'] = 'application/json';
    const res = await fetch(url + path, {
      method: init.method ?? 'GET',
      headers,
      body: init.json !== undefined ? JSON.stringify(init.json) : undefined,
    });
    const text = await res.text();
    return { status: res.status, body: text ? JSON.parse(text) : null };
  };
  return {
    core,
    app,
    url,
    dataDir,
    webhooks,
    driver,
    events,
    attempts,
    orgId: main.orgId,
    key: main.key,
    api,
    newOrg,
    async generation(webhookUrl, key) {
      const body: Record<string, unknown> = { variables: { scene: 'A long enough scene' } };
      if (webhookUrl) body.webhook_url = webhookUrl;
      const r = await api('/api/templates/text-to-video-cinematic/generate', { method: 'POST', json: body, key });
      if (r.status !== 200) throw new Error(`generate failed: ${r.status} ${JSON.stringify(r.body)}`);
      return r.body.generations[0].generation_id as string;
    },
    async finish(generationId, how) {
      if (how.error !== undefined) {
        if (!gens.fail(generationId, how.error)) throw new Error('could not fail the generation');
      } else {
        const result = await storeResult(core, generationId);
        if (!gens.complete(generationId, result)) throw new Error('could not complete the generation');
      }
      return webhooks.enqueueFor(generationId);
    },
    async close() {
      await queue?.dispose();
      await app.close();
      await core.dispose();
    },
  };
}
