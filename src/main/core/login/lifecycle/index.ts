import type { Logger } from '../../logger.js';
import type { Vault } from '../vault/index.js';
import type { LoginService } from '../sessions/login.service.js';
import type { SessionCache } from '../sessions/session-cache.js';
import { HealthChecks } from './health-checks.js';
import { SessionLifecycle } from './session-lifecycle.js';
import { SessionValidator, type ValidatorBrowsers } from './session-validator.js';

export type { HealthCheckReport } from './health-checks.js';
export type { RefreshKind } from './session-lifecycle.js';

/** Validation, refresh and health checks of cached sessions (docs/login-service.md#session-lifecycle). */
export interface Lifecycle {
  sessions: SessionLifecycle;
  healthChecks: HealthChecks;
  dispose(): Promise<void>;
}

export function createLifecycle(deps: {
  cache: SessionCache;
  logins: Pick<LoginService, 'login'>;
  browsers: ValidatorBrowsers;
  vault: Vault;
  /** Settles once legacy stored credentials were moved onto saved logins. */
  ready?: Promise<unknown>;
  log: Logger;
  /** Page-load budget of a validation (the login timeout, at most 30 s). */
  timeoutMs: number;
}): Lifecycle {
  const log = deps.log.child({ component: 'session-lifecycle' });
  const validator = new SessionValidator({ browsers: deps.browsers, timeoutMs: Math.min(deps.timeoutMs, 30_000) });
  const sessions = new SessionLifecycle({
    cache: deps.cache,
    logins: deps.logins,
    validator,
    vault: deps.vault,
    ready: deps.ready,
    log,
    // Called only after construction (a login sets an interval): healthChecks exists by then.
    onScheduleChanged: () => healthChecks.scheduleChanged(),
  });
  const healthChecks = new HealthChecks({ cache: deps.cache, lifecycle: sessions, log });
  return { sessions, healthChecks, dispose: () => healthChecks.dispose() };
}
