import type { BaseCore } from '../../base-core.js';
import { WebhookDeliveries } from '../../webhooks/webhook-deliveries.js';
import { WebhookSecrets } from '../../webhooks/webhook-secrets.js';
import { loginWebhookKind } from './login-webhook-kind.js';
import { LoginWebhookSealer } from './login-webhook-sealer.js';
import { LoginWebhooksRepo } from './login-webhooks.repo.js';
import { LoginWebhooksService } from './login-webhooks.service.js';

export { LOGIN_WEBHOOK_JOB_KIND } from './login-webhook-kind.js';

export interface LoginWebhooks {
  /** The URL setting, the delivery log, and the intake of login events (the routes use it). */
  service: LoginWebhooksService;
}

/**
 * Login events as Standard Webhooks to the organization's own endpoint (docs/person-in-the-loop.md#login-webhooks): listens to
 * the bus's login.needs_person and login.finished (the login service emits them; nothing of it is imported), stores
 * each as a sealed delivery of core/webhooks (the login kind: login-webhook-kind.ts), delivered by the same job as
 * generation callbacks, signed with the organization's webhook secret.
 */
export function createLoginWebhooks(base: BaseCore): LoginWebhooks {
  const repo = new LoginWebhooksRepo(base.db);
  const sealer = new LoginWebhookSealer(base.secrets);
  // The URL is read through the service (it opens the sealed one), which is made with these deliveries.
  const kind = loginWebhookKind({ sealer, receiverUrl: (orgId) => service.receiverUrl(orgId) });
  const deliveries = new WebhookDeliveries(kind, {
    db: base.db,
    log: base.log,
    jobs: base.jobs,
    config: base.config.webhooks,
    // The organization's signing secrets: the same ones generation callbacks are signed with.
    secrets: new WebhookSecrets({ secrets: base.secrets }),
    outbound: base.outbound,
  });
  const service = new LoginWebhooksService({
    log: base.log,
    jobs: base.jobs,
    outbound: base.outbound,
    repo,
    sealer,
    deliveries,
  });
  base.jobs.register(kind.jobKind, deliveries.handler());
  const unsubscribe = [
    base.events.on('login.needs_person', (e) => service.needsPerson(e)),
    base.events.on('login.finished', (e) => service.finished(e)),
  ];
  base.onDispose(() => {
    for (const off of unsubscribe) off();
    return service.idle();
  });
  return { service };
}
