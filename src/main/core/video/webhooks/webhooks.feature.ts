import type { JobHandler } from '../../jobs/job-types.js';
import { WebhookDeliveries } from '../../webhooks/webhook-deliveries.js';
import { WebhookSecrets } from '../../webhooks/webhook-secrets.js';
import { generationWebhookKind } from './generation-webhook-kind.js';
import { WEBHOOK_JOB_KIND, type WebhooksDeps } from './webhook-types.js';
import { WebhooksService } from './webhooks.service.js';

export { WEBHOOK_JOB_KIND } from './webhook-types.js';
export type { WebhookGeneration, WebhookJobQueue, WebhooksDeps } from './webhook-types.js';

export interface Webhooks {
  /** Register `handler` with the job queue under this kind. */
  kind: typeof WEBHOOK_JOB_KIND;
  handler: JobHandler;
  /** Call when a generation reaches completed or failed (see WebhooksService.enqueueFor). */
  enqueueFor(generationId: string): string | null;
  /** Replays, the delivery log and the signing secret (the routes and the CLI use it). */
  service: WebhooksService;
}

/**
 * Signed webhook callbacks (Standard Webhooks) of generations: one kind of core/webhooks' deliveries.
 * The composition root registers `handler` with the queue, calls `enqueueFor` when a generation
 * finishes, and registers the routes with `registerWebhookRoutes(app, registry, webhooks.service)`.
 */
export function createWebhooks(deps: WebhooksDeps): Webhooks {
  const secrets = new WebhookSecrets({ secrets: deps.secrets, now: deps.now });
  const deliveries = new WebhookDeliveries(generationWebhookKind(deps), { ...deps, secrets });
  const service = new WebhooksService({ ...deps, deliveries, secrets });
  const handler = deliveries.handler();
  // Began rendering, aborted, canceled (and completed/failed, which the pipeline also reports): each event the
  // receiver asked for is queued once; progress reports are thinned out by the service.
  const guarded = (what: string, enqueue: () => unknown) => {
    try {
      if (enqueue()) deps.jobs.kick();
    } catch (err) {
      deps.log.error({ err: (err as Error).message }, `could not queue the ${what} webhook`);
    }
  };
  deps.events.on('generation.status', (e) => guarded('status', () => service.enqueueFor(e.generationId)));
  deps.events.on('generation.progress', (e) => guarded('progress', () => service.enqueueProgress(e.generationId)));
  return { kind: WEBHOOK_JOB_KIND, handler, enqueueFor: (id) => service.enqueueFor(id), service };
}
