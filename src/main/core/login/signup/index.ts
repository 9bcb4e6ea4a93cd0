import type { AppConfig } from '../../config/config.schema.js';
import type { CoreEventBus } from '../../events.js';
import type { Logger } from '../../logger.js';
import type { MailboxFeed } from '../codes/code-sources.js';
import type { InboxHub } from '../codes/inbox-hub.js';
import { LoginEngine } from '../flow/login-engine.js';
import type { ContextProvider } from '../browser/lazy-browser-pool.js';
import type { SessionCache } from '../sessions/session-cache.js';
import type { Vault } from '../vault/index.js';
import { SignupRunner } from './signup-flow.js';
import { SignupService } from './signup.service.js';

export { SignupService } from './signup.service.js';
export { SignupRunner } from './signup-flow.js';

/** POST /api/signup's service, from the login feature's parts (same browsers, cache, inbox and mailboxes). */
export function createSignupService(deps: {
  config: Pick<AppConfig, 'login' | 'browser'>;
  log: Logger;
  browsers: ContextProvider;
  cache: SessionCache;
  inbox: InboxHub;
  mailboxes?: MailboxFeed;
  /** Live steps of sign-ups started with an id (login.step events). */
  events?: CoreEventBus;
  vault: Vault;
}): SignupService {
  const { config } = deps;
  const log = deps.log.child({ component: 'signup' });
  const blockResources = config.browser.blockResources;
  return new SignupService({
    browsers: deps.browsers,
    runner: new SignupRunner({ login: new LoginEngine({ log, blockResources }), log, blockResources }),
    cache: deps.cache,
    inbox: deps.inbox,
    mailboxes: deps.mailboxes,
    log,
    timeoutMs: config.login.timeoutMs,
    codeTimeoutMs: config.login.codeTimeoutMs,
    events: deps.events,
    vault: deps.vault,
  });
}
