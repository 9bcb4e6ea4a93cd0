import type { GenerationStatus } from '../../../../shared/video.schema.js';
import type { WebhookEventName } from '../../../../shared/webhooks.schema.js';
import type { AppConfig } from '../../config/config.schema.js';
import type { Db } from '../../db/database.js';
import type { CoreEventBus } from '../../events.js';
import type { Logger } from '../../logger.js';
import type { OutboundPolicy } from '../../net/outbound-policy.js';
import type { SecretStore } from '../../secrets/secret-store.js';

/** The job kind of one delivery (its `refId` is the delivery id, which is the webhook-id). */
export const WEBHOOK_JOB_KIND = 'webhook_delivery';

/** What the webhooks need to know of a generation (the generations feature provides it). */
export interface WebhookGeneration {
  id: string;
  orgId: string;
  status: GenerationStatus;
  templateId: string;
  error: string | null;
  /** Whether a webhook_url was given (read without opening it, so enqueueing stays synchronous). */
  hasWebhook: boolean;
  /** The events its receiver asked for (webhook_events; the default ones when it did not say). */
  events: readonly WebhookEventName[];
  draft: boolean;
  batchId: string;
  batchIndex: number | null;
  /** 0-100. */
  progress: number;
  /** The render began. */
  started: boolean;
}

/** The part of the job queue the webhooks use (core/jobs JobQueue satisfies it). */
export interface WebhookJobQueue {
  /** Synchronous, so it runs inside the transaction that creates the delivery; `kick()` after. */
  enqueue(job: {
    kind: string;
    refId: string;
    orgId: string | null;
    payload?: Record<string, unknown>;
    delayMs?: number;
  }): string;
  kick(): void;
}

export interface WebhooksDeps {
  db: Db;
  secrets: SecretStore;
  log: Logger;
  config: AppConfig['webhooks'];
  events: CoreEventBus;
  jobs: WebhookJobQueue;
  /** Any organization's generation by id, or null. */
  generation(generationId: string): WebhookGeneration | null;
  /** The receiver URL in clear (it is stored sealed), or null when none was given. Read at each attempt. */
  getWebhookUrl(generationId: string): string | null | Promise<string | null>;
  /** A time-limited signed URL of a completed generation's video (made at each attempt). */
  getVideoUrl(generationId: string): string | null | Promise<string | null>;
  /** Where receivers may be (core/net); default: the default policy. */
  outbound?: OutboundPolicy;
  /** Clock of the secrets' 24 h overlap (tests). */
  now?: () => number;
}
