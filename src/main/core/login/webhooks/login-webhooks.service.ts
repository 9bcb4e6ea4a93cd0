import type {
  LoginWebhookDelivery,
  LoginWebhookDeliveryList,
  LoginWebhookEvent,
  LoginWebhookEventType,
  LoginWebhookSetting,
} from '../../../../shared/login-webhooks.schema.js';
import { WEBHOOK_ID_PREFIX } from '../../../../shared/webhooks.schema.js';
import { badRequest } from '../../errors.js';
import type { CoreEvents } from '../../events.js';
import { newId } from '../../ids.js';
import type { Logger } from '../../logger.js';
import type { OutboundPolicy } from '../../net/outbound-policy.js';
import type { AttemptRow, DeliveryRow } from '../../webhooks/webhook-deliveries.repo.js';
import { deliveryState, type WebhookDeliveries } from '../../webhooks/webhook-deliveries.js';
import { maskWebhookUrl } from '../../webhooks/webhook-url.js';
import { UnreadableSealedValueError } from '../../secrets/at-rest-sealer.js';
import { LoginWebhookSealer, payloadAad, urlAad } from './login-webhook-sealer.js';
import type { LoginWebhooksRepo } from './login-webhooks.repo.js';

/** The part of the job queue login webhooks use besides queueing (core/jobs JobQueue satisfies it). */
export interface LoginWebhookJobs {
  cancelByRef(refId: string, kind: string): boolean;
}

export interface LoginWebhooksServiceDeps {
  log: Logger;
  jobs: LoginWebhookJobs;
  outbound: OutboundPolicy;
  repo: LoginWebhooksRepo;
  sealer: LoginWebhookSealer;
  /** Deliveries of the login kind (login-webhook-kind.ts). */
  deliveries: WebhookDeliveries;
}

function view(d: DeliveryRow, attempts: AttemptRow[]): LoginWebhookDelivery {
  return {
    id: d.id,
    event: d.event as LoginWebhookEventType,
    login_id: d.subject_id,
    ...deliveryState(d, attempts),
  };
}

/**
 * An organization's login webhook: the URL setting (kept sealed, shown masked), the intake of the bus's
 * login.needs_person and login.finished events as deliveries (each a `login_webhook_delivery` job), and the delivery
 * log. Events of an organization without a URL cost one indexed read and nothing else.
 */
export class LoginWebhooksService {
  /** Intake in event order: each event's body is sealed (async) before its delivery is stored. */
  private intake: Promise<void> = Promise.resolve();

  constructor(private readonly deps: LoginWebhooksServiceDeps) {}

  async setting(orgId: string): Promise<LoginWebhookSetting> {
    const row = this.deps.repo.endpoint(orgId);
    if (!row) return { url: null, updated_at: null };
    let url: string | null;
    try {
      url = await this.deps.sealer.open(row.url, urlAad(orgId));
    } catch (err) {
      if (!(err instanceof UnreadableSealedValueError)) throw err;
      this.deps.log.warn({ orgId }, 'login webhook URL cannot be decrypted; shown as none');
      url = null;
    }
    return { url: maskWebhookUrl(url), updated_at: row.updated_at };
  }

  /** Sets (or replaces) the URL; its host must pass the outbound policy now, and passes it again at each attempt. */
  async set(orgId: string, url: string): Promise<LoginWebhookSetting> {
    await this.checkHost(url);
    const sealed = await this.deps.sealer.seal(url, urlAad(orgId));
    const now = Date.now();
    this.deps.repo.putEndpoint(orgId, sealed, now);
    this.deps.log.info({ orgId }, 'login webhook set');
    return { url: maskWebhookUrl(url), updated_at: now };
  }

  /** Removes the URL; pending deliveries fail at once (their jobs are canceled), as nothing would take them. */
  remove(orgId: string): void {
    const removed = this.deps.repo.deleteEndpoint(orgId);
    const { deliveries } = this.deps;
    for (const id of deliveries.failPending(orgId, 'the login webhook URL was removed'))
      this.deps.jobs.cancelByRef(id, deliveries.kind.jobKind);
    if (removed) this.deps.log.info({ orgId }, 'login webhook removed');
  }

  /** The receiver URL in clear (for the delivery job), or null when the organization has none now. */
  async receiverUrl(orgId: string): Promise<string | null> {
    const row = this.deps.repo.endpoint(orgId);
    return row ? this.deps.sealer.open(row.url, urlAad(orgId)) : null;
  }

  deliveries(orgId: string, limit: number): LoginWebhookDeliveryList {
    return { data: this.deps.deliveries.latestOfOrg(orgId, limit, view) };
  }

  /**
   * The bus's login.needs_person, without its takeover link: the receiver URL is whatever a key with webhooks:write
   * set, and the link belongs to the key that started the login (docs/security.md#a-logins-live-page-is-the-starting-keys). The receiver learns which login
   * waits, why and for which site, so it can tell someone; the link itself reaches the person through that key's
   * agent or the desktop window.
   */
  needsPerson(e: CoreEvents['login.needs_person']): void {
    this.accept(e.orgId, e.loginId, {
      type: 'login.needs_person',
      timestamp: new Date().toISOString(),
      data: { login_id: e.loginId, status: 'needs_person', reason: e.reason, site: e.site },
    });
  }

  /**
   * The bus's login.finished: a failure's error as the HTTP answer named it, its code and details.reason (never its
   * message or steps, which may quote the site to a receiver any key with webhooks:write may have set).
   */
  finished(e: CoreEvents['login.finished']): void {
    const error =
      e.error === null ? null : { error: e.error, details: e.reason === undefined ? {} : { reason: e.reason } };
    this.accept(e.orgId, e.loginId, {
      type: 'login.finished',
      timestamp: new Date().toISOString(),
      data: { login_id: e.loginId, status: e.status, session_id: e.sessionId, error },
    });
  }

  /** Resolves once every event accepted so far is stored and queued (disposal, tests). */
  idle(): Promise<void> {
    return this.intake;
  }

  private accept(orgId: string, loginId: string, event: LoginWebhookEvent): void {
    if (!this.deps.repo.hasEndpoint(orgId)) return;
    this.intake = this.intake
      .then(() => this.enqueue(orgId, loginId, event))
      .catch((err: unknown) => {
        // Ids only: the body names the organization's logins and sites.
        this.deps.log.error(
          { orgId, loginId, event: event.type, err: (err as Error).message },
          'login webhook could not be queued',
        );
      });
  }

  private async enqueue(orgId: string, loginId: string, event: LoginWebhookEvent): Promise<void> {
    const id = newId(WEBHOOK_ID_PREFIX, 24);
    const payload = await this.deps.sealer.seal(JSON.stringify(event), payloadAad(id));
    // Removed meanwhile: nothing to deliver to.
    if (!this.deps.repo.hasEndpoint(orgId)) return;
    // Any number of each event per login (a login may need a person more than once): no once_key.
    const row = { id, org_id: orgId, subject_id: loginId, event: event.type, trigger: 'automatic' as const };
    this.deps.deliveries.queue({ ...row, once_key: null, payload });
    this.deps.log.info({ deliveryId: id, orgId, loginId, event: event.type }, 'login webhook queued');
  }

  /**
   * The same address rule as every receiver (core/net): the host is resolved and each address checked, so a name
   * that stands for a refused range is a 400 now rather than a failed delivery later. A name that does not resolve
   * (yet) is accepted: each attempt resolves and checks again.
   */
  private async checkHost(url: string): Promise<void> {
    const why = await this.deps.outbound.refusalReason(url);
    if (!why) return;
    throw badRequest(`url: login webhooks may not be delivered to this host: ${why}.`);
  }
}
