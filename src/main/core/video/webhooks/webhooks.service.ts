import {
  PROGRESS_WEBHOOK_INTERVAL_MS,
  WEBHOOK_ID_PREFIX,
  type WebhookDelivery,
  type WebhookEventName,
  type WebhookDeliveryList,
  type WebhookEvent,
  type WebhookSecret,
  type WebhookTrigger,
} from '../../../../shared/webhooks.schema.js';
import { AppError, notFound } from '../../errors.js';
import { newId } from '../../ids.js';
import type { AttemptRow, DeliveryRow } from '../../webhooks/webhook-deliveries.repo.js';
import { deliveryState, type WebhookDeliveries } from '../../webhooks/webhook-deliveries.js';
import type { WebhookSecrets } from '../../webhooks/webhook-secrets.js';
import type { WebhookGeneration, WebhooksDeps } from './webhook-types.js';

type ServiceDeps = Pick<WebhooksDeps, 'log' | 'generation'> & {
  /** Deliveries of the generation kind (generation-webhook-kind.ts). */
  deliveries: WebhookDeliveries;
  secrets: WebhookSecrets;
};

const conflict = (message: string) => new AppError(409, 'conflict', message);

/** The event a generation's current status reports (null while it is queued). */
function eventOfStatus(gen: WebhookGeneration): WebhookEventName | null {
  return gen.status === 'generating' ? null : gen.status;
}

/** Whether the receiver asked for this event; an aborted generation counts as failed too. */
function wants(gen: WebhookGeneration, event: WebhookEventName): boolean {
  return gen.events.includes(event) || (event === 'aborted' && gen.events.includes('failed'));
}

function view(d: DeliveryRow, attempts: AttemptRow[]): WebhookDelivery {
  return {
    id: d.id,
    generation_id: d.subject_id,
    trigger: d.trigger,
    event: d.event as WebhookEventName,
    ...deliveryState(d, attempts),
  };
}

/**
 * An automatic delivery of an event other than progress is made once per generation (however often the pipeline
 * reports the state); progress ones are thinned out instead, and replays are any number.
 */
function onceKey(generationId: string, trigger: WebhookTrigger, event: WebhookEventName): string | null {
  return trigger === 'automatic' && event !== 'progress' ? `${generationId}:${event}` : null;
}

/** Deliveries of generation callbacks, their log, replays, and the organization's signing secret. */
export class WebhooksService {
  constructor(private readonly deps: ServiceDeps) {}

  /**
   * A generation changed state (began rendering, or reached completed, failed, aborted or canceled): queue
   * its callback when the receiver asked for that event. Synchronous (it may run inside the caller's
   * transaction) and idempotent: one automatic delivery per generation and event. Null when the generation
   * has no webhook URL, is still queued, or the event is not wanted.
   */
  enqueueFor(generationId: string): string | null {
    const gen = this.deps.generation(generationId);
    if (!gen || !gen.hasWebhook) return null;
    const event = gen.status === 'generating' ? (gen.started ? 'started' : null) : eventOfStatus(gen);
    if (!event || !wants(gen, event)) return null;
    const existing = this.deps.deliveries.latestAutomatic(generationId, event);
    if (existing) return existing.id;
    return this.create(gen, 'automatic', event);
  }

  /** A progress report: a `progress` callback when asked for, at most one per PROGRESS_WEBHOOK_INTERVAL_MS. */
  enqueueProgress(generationId: string): string | null {
    const gen = this.deps.generation(generationId);
    if (!gen || !gen.hasWebhook || gen.status !== 'generating' || !wants(gen, 'progress')) return null;
    const last = this.deps.deliveries.latestAutomatic(generationId, 'progress');
    if (last && Date.now() - last.created_at < PROGRESS_WEBHOOK_INTERVAL_MS) return null;
    return this.create(gen, 'automatic', 'progress');
  }

  private create(gen: WebhookGeneration, trigger: WebhookTrigger, event: WebhookEventName): string {
    const id = newId(WEBHOOK_ID_PREFIX, 24);
    const failed = gen.status === 'failed' || gen.status === 'aborted';
    // video_url is signed at each attempt (it expires); the rest of the body is fixed now.
    const payload: WebhookEvent = {
      event,
      generation_id: gen.id,
      status: gen.status,
      template_id: gen.templateId,
      video_url: null,
      error: failed ? (gen.error ?? 'Generation failed.') : null,
      ...(event === 'started' || event === 'progress' ? { progress: gen.progress } : {}),
      draft: gen.draft,
      batch_id: gen.batchId,
      batch_index: gen.batchIndex,
    };
    const queued = this.deps.deliveries.queue(
      {
        id,
        org_id: gen.orgId,
        subject_id: gen.id,
        event,
        trigger,
        once_key: onceKey(gen.id, trigger, event),
        payload: JSON.stringify(payload),
      },
      { generationId: gen.id },
    );
    if (!queued) return this.deps.deliveries.latestAutomatic(gen.id, event)?.id ?? id; // a concurrent enqueueFor won
    this.deps.log.info({ deliveryId: id, generationId: gen.id, trigger, event }, 'webhook delivery queued');
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
    return { data: this.deps.deliveries.ofSubject(orgId, generationId, view) };
  }

  /** A new delivery (new webhook-id) of the generation's current state, with the whole schedule. */
  replay(orgId: string, generationId: string): WebhookDelivery {
    const gen = this.owned(orgId, generationId);
    const event = eventOfStatus(gen);
    // A canceled generation has a callback only when its receiver asked for canceled ones.
    if (!event || (event === 'canceled' && !wants(gen, event)))
      throw conflict(
        `Generation "${generationId}" is ${gen.status}; only completed, failed or aborted generations (and canceled ones whose webhook_events name canceled) have callbacks.`,
      );
    if (!gen.hasWebhook) throw conflict(`Generation "${generationId}" has no webhook_url to deliver to.`);
    const id = this.create(gen, 'replay', event);
    return view(this.deps.deliveries.get(id) as DeliveryRow, []);
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
