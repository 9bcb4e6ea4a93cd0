import type { BaseCore } from '../../base-core.js';
import { WebhookSecrets } from '../../webhooks/webhook-secrets.js';
import { createLoginWebhookDeliveryHandler } from './login-webhook-delivery.job.js';
import { LoginWebhookSealer } from './login-webhook-sealer.js';
import { LoginWebhooksRepo } from './login-webhooks.repo.js';
import { LOGIN_WEBHOOK_JOB_KIND, LoginWebhooksService } from './login-webhooks.service.js';

export { LOGIN_WEBHOOK_JOB_KIND } from './login-webhooks.service.js';

export interface LoginWebhooks {
  /** The URL setting, the delivery log, and the intake of login events (the routes use it). */
  service: LoginWebhooksService;
}

/**
 * Login events as Standard Webhooks to the organization's own endpoint (README "A person in the loop"): listens to
 * the bus's login.needs_person and login.finished (the login service emits them; nothing of it is imported), stores
 * each as a sealed delivery, and delivers it as a persistent job signed with the organization's webhook secret, on
 * the retry schedule, time-outs and outbound policy of generation callbacks.
 */
export function createLoginWebhooks(base: BaseCore): LoginWebhooks {
  const repo = new LoginWebhooksRepo(base.db);
  const sealer = new LoginWebhookSealer(base.secrets);
  const service = new LoginWebhooksService({
    db: base.db,
    log: base.log,
    jobs: base.jobs,
    outbound: base.outbound,
    repo,
    sealer,
  });
  base.jobs.register(
    LOGIN_WEBHOOK_JOB_KIND,
    createLoginWebhookDeliveryHandler({
      repo,
      sealer,
      secrets: new WebhookSecrets({ secrets: base.secrets }),
      log: base.log,
      config: base.config.webhooks,
      outbound: base.outbound,
      receiverUrl: (orgId) => service.receiverUrl(orgId),
    }),
  );
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
