import { EventEmitter } from 'node:events';

/**
 * The core's one typed event bus: progress, status changes and webhook outcomes. The desktop app
 * subscribes to it (IPC events) and a streaming endpoint can serve it. Payloads carry ids and
 * states only: never a secret, a URL with a signature, or a webhook payload (the one exception is named below).
 */
export interface CoreEvents {
  'generation.progress': { orgId: string; generationId: string; progress: number; queuePosition: number | null };
  'generation.status': {
    orgId: string;
    generationId: string;
    /** `generating`: the render began (the render job picked it up). */
    status: 'generating' | 'completed' | 'failed' | 'canceled' | 'aborted';
    error: string | null;
  };
  /** A step of a running fresh login that has an id (X-Login-Id), for a live trace in the desktop window. */
  'login.step': { orgId: string; loginId: string; step: string; elapsedMs: number };
  /**
   * A login waits for a person on its live page. `takeoverUrl` is the one capability this bus carries: only the
   * desktop window of the organization (the person at this machine) passes it on. The organization's login webhook
   * gets the rest without it: its URL is set by any key with webhooks:write, and the link belongs to the key that
   * started the login (docs/security.md#a-logins-live-page-is-the-starting-keys). `site`: the host the login is for.
   */
  'login.needs_person': { orgId: string; loginId: string; reason: string; takeoverUrl: string; site: string };
  /**
   * A login with an id ended: succeeded (its session), failed or cancelled (the error code, and the details.reason
   * its answer had, when it has one).
   */
  'login.finished': {
    orgId: string;
    loginId: string;
    status: 'succeeded' | 'failed' | 'cancelled';
    sessionId: string | null;
    error: string | null;
    reason?: string;
  };
  'webhook.attempt': {
    orgId: string;
    generationId: string;
    deliveryId: string;
    attempt: number;
    statusCode: number | null;
    outcome: 'delivered' | 'retrying' | 'failed';
    error: string | null;
  };
}

export type CoreEventName = keyof CoreEvents;

export class CoreEventBus {
  private readonly emitter = new EventEmitter();

  constructor() {
    // Many subscribers (IPC windows, streams, tests) are normal.
    this.emitter.setMaxListeners(0);
  }

  emit<E extends CoreEventName>(name: E, payload: CoreEvents[E]): void {
    this.emitter.emit(name, payload);
  }

  /** Returns the unsubscribe function. */
  on<E extends CoreEventName>(name: E, listener: (payload: CoreEvents[E]) => void): () => void {
    this.emitter.on(name, listener);
    return () => this.emitter.off(name, listener);
  }
}
