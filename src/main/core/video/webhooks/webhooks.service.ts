import {
  WEBHOOK_ID_PREFIX,
  type WebhookDelivery,
  type WebhookDeliveryList,
  type WebhookEvent,
  type WebhookSecret,
  type WebhookTrigger,
} from '../../../../shared/webhooks.schema.js';
import { AppError, notFound } from '../../errors.js';
import { newId } from '../../ids.js';
import type { AttemptRow, DeliveryRow, WebhookDeliveriesRepo } from './webhook-deliveries.repo.js';
import type { WebhookSecrets } from '../../webhooks/webhook-secrets.js';
import { WEBHOOK_JOB_KIND, type WebhookGeneration, type WebhooksDeps } from './webhook-types.js';

type ServiceDeps = Pick<WebhooksDeps, 'db' | 'log' | 'jobs' | 'generation'> & {
  repo: WebhookDeliveriesRepo;
  secrets: WebhookSecrets;
};

const conflict = (message: string) => new AppError(409, 'conflict', message);

function view(d: DeliveryRow, attempts: AttemptRow[]): WebhookDelivery {
  const event = (JSON.parse(d.payload) as WebhookEvent).status;
  return {
    id: d.id,
    generation_id: d.generation_id,
    trigger: d.trigger,
    event,
    status: d.status,
    next_attempt_at: d.status === 'pending' ? d.next_attempt_at : null,
    error: d.status === 'failed' ? d.error : null,
    created_at: d.created_at,
    finished_at: d.finished_at,
    attempts: attempts.map((a) => ({
      attempt: a.attempt,
      started_at: a.started_at,
      duration_ms: a.duration_ms,
      status_code: a.status_code,
      error: a.error,
    })),
  };
}

/** Deliveries of generation callbacks, their log, replays, and the organization's signing secret. */
export class WebhooksService {
  constructor(private readonly deps: ServiceDeps) {}

  /**
   * A generation reached completed or failed: queue its callback. Synchronous (it may run inside the
   * caller's transaction) and idempotent: one automatic delivery per generation. Null when the
   * generation has no webhook URL or is not finished.
   */
  enqueueFor(generationId: string): string | null {
    const gen = this.deps.generation(generationId);
    if (!gen || !gen.hasWebhook || (gen.status !== 'completed' && gen.status !== 'failed')) return null;
    const existing = this.deps.repo.automaticOf(generationId);
    if (existing) return existing.id;
    return this.create(gen, 'automatic');
  }

  private create(gen: WebhookGeneration, trigger: WebhookTrigger): string {
    const id = newId(WEBHOOK_ID_PREFIX, 24);
    const status = gen.status === 'completed' ? 'completed' : 'failed';
    // video_url is signed at each attempt (it expires); the rest of the body is fixed now.
    const payload: WebhookEvent = {
      generation_id: gen.id,
      status,
      template_id: gen.templateId,
      video_url: null,
      error: status === 'failed' ? (gen.error ?? 'Generation failed.') : null,
    };
    const inserted = this.deps.db.transaction(() => {
      const row = { id, generation_id: gen.id, org_id: gen.orgId, trigger, payload: JSON.stringify(payload) };
      if (!this.deps.repo.insert(row, Date.now())) return false;
      this.deps.jobs.enqueue({
        kind: WEBHOOK_JOB_KIND,
        refId: id,
        orgId: gen.orgId,
        payload: { generationId: gen.id },
      });
      return true;
    })();
    if (!inserted) return this.deps.repo.automaticOf(gen.id)?.id ?? id; // a concurrent enqueueFor won
    this.deps.jobs.kick();
    this.deps.log.info({ deliveryId: id, generationId: gen.id, trigger }, 'webhook delivery queued');
    return id;
  }

  private owned(orgId: string, generationId: string): WebhookGeneration {
    const gen = this.deps.generation(generationId);
    // Another organization's generation does not exist for this caller.
    if (!gen || gen.orgId !== orgId) throw notFound(`Generation "${generationId}" not found.`);
    return gen;
  }

  /** The delivery log of a generation: every delivery (oldest first) with its attempts. */
  deliveries(orgId: string, generationId: string): WebhookDeliveryList {
    this.owned(orgId, generationId);
    const { deliveries, attempts } = this.deps.repo.ofGeneration(orgId, generationId);
    return {
      data: deliveries.map((d) =>
        view(
          d,
          attempts.filter((a) => a.delivery_id === d.id),
        ),
      ),
    };
  }

  /** A new delivery (new webhook-id) of the generation's current state, with the whole schedule. */
  replay(orgId: string, generationId: string): WebhookDelivery {
    const gen = this.owned(orgId, generationId);
    if (gen.status !== 'completed' && gen.status !== 'failed')
      throw conflict(
        `Generation "${generationId}" is ${gen.status}; only completed or failed generations have callbacks.`,
      );
    if (!gen.hasWebhook) throw conflict(`Generation "${generationId}" has no webhook_url to deliver to.`);
    const id = this.create(gen, 'replay');
    return view(this.deps.repo.get(id) as DeliveryRow, []);
  }

  secret(orgId: string): Promise<WebhookSecret> {
    return this.deps.secrets.get(orgId);
  }

  async rotateSecret(orgId: string): Promise<WebhookSecret> {
    const next = await this.deps.secrets.rotate(orgId);
    this.deps.log.info({ orgId }, 'webhook secret rotated');
    return next;
  }
}
