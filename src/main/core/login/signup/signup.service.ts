import type { BrowserContext } from 'playwright-core';
import { LOGIN_FAILURE_STATUS } from '../../../../shared/errors.js';
import { StorageStateSchema, type StorageState } from '../../../../shared/login.schema.js';
import type { SignupRequest, SignupRequestBody } from '../../../../shared/signup.schema.js';
import { AppError } from '../../errors.js';
import type { CoreEventBus } from '../../events.js';
import type { Logger } from '../../logger.js';
import { CodeSourceInputError, openCodeSources, type CodeSources, type MailboxFeed } from '../codes/code-sources.js';
import type { InboxHub } from '../codes/inbox-hub.js';
import type { ContextProvider } from '../login.service.js';
import type { SessionCache } from '../session-cache.js';
import type { Vault, VaultCaller } from '../vault/index.js';
import type { SignupRequest as EngineRequest, SignupResult } from './signup-types.js';

export interface SignupRunnerLike {
  signup(ctx: BrowserContext, req: EngineRequest, signal?: AbortSignal): Promise<SignupResult>;
}

export interface SignupOutcome {
  state: StorageState;
  sessionId: string;
}

/**
 * POST /api/signup: opens the verification sources (the organization's mailboxes for the address and
 * the inbox endpoint) before the browser starts, so no mail is missed; runs the sign-up in an isolated
 * browser context; maps failures to the login API's errors; caches the new session like a login.
 */
export class SignupService {
  constructor(
    private readonly deps: {
      browsers: Pick<ContextProvider, 'withContext' | 'checkUrl'>;
      runner: SignupRunnerLike;
      cache: SessionCache;
      inbox: InboxHub;
      mailboxes?: MailboxFeed;
      log: Logger;
      timeoutMs: number;
      codeTimeoutMs: number;
      /** Where live steps go (login.step events), when a sign-up has an id. */
      events?: CoreEventBus;
      /** Saved logins: a sign-up may make the account of one (`credential`). */
      vault: Vault;
    },
  ) {}

  /**
   * POST /api/signup. With `credential`, the saved login's username, password and additional fields make the
   * account (shared with the caller's key, typed only on its origins, the use recorded); the session links to it.
   */
  async signup(who: VaultCaller, body: SignupRequestBody, opts: { loginId?: string } = {}): Promise<SignupOutcome> {
    if (body.credential === undefined) {
      const { cred, domain, credential: _none, ...rest } = body;
      return this.run(who.orgId, { ...rest, cred: cred!, domain: domain! }, opts);
    }
    const { vault } = this.deps;
    const saved = vault.usable(who, body.credential);
    const { req } = await vault.loginRequest(saved, {
      useCache: false,
      include: [],
      interactive: false,
      interactiveTimeoutSec: 300,
      async: false,
      additionalFields: body.additionalFields,
      ...(body.domain ? { domain: body.domain } : {}),
    });
    const signup: SignupRequest = {
      domain: req.domain,
      cred: { username: req.cred.username, password: req.cred.password },
      additionalFields: req.additionalFields,
    };
    return vault.use(who, saved, 'signup', async () => {
      const outcome = await this.run(who.orgId, signup, {
        ...opts,
        secretOrigins: saved.origins.length ? saved.origins : undefined,
      });
      await this.deps.cache.updateLifecycle(who.orgId, outcome.sessionId, { credentialId: saved.id });
      return outcome;
    });
  }

  private async run(
    orgId: string,
    req: SignupRequest,
    opts: { loginId?: string; secretOrigins?: readonly string[] },
  ): Promise<SignupOutcome> {
    const started = Date.now();
    const { loginId } = opts;
    const onStep = loginId
      ? (step: string) =>
          this.deps.events?.emit('login.step', { orgId, loginId, step, elapsedMs: Date.now() - started })
      : undefined;
    const origin = new URL(req.domain).origin;
    await this.deps.browsers.checkUrl?.(req.domain, 'domain');
    let codes: CodeSources;
    try {
      codes = openCodeSources({
        orgId,
        hub: this.deps.inbox,
        mailboxes: this.deps.mailboxes,
        username: req.cred.username,
        additionalFields: req.additionalFields,
      });
    } catch (err) {
      if (err instanceof CodeSourceInputError)
        throw new AppError(400, 'validation_error', err.message, { field: err.field });
      throw err;
    }
    let result: SignupResult;
    try {
      result = await this.deps.browsers.withContext((ctx) =>
        this.deps.runner.signup(ctx, {
          url: req.domain,
          username: req.cred.username,
          password: req.cred.password,
          additionalFields: req.additionalFields,
          timeoutMs: this.deps.timeoutMs,
          codeTimeoutMs: this.deps.codeTimeoutMs,
          codes,
          onStep,
          ...(opts.secretOrigins ? { secretOrigins: opts.secretOrigins } : {}),
        }),
      );
    } finally {
      codes.dispose();
    }
    const ms = Date.now() - started;
    if (!result.ok) {
      this.deps.log.info({ orgId, origin, reason: result.reason, ms }, 'signup failed');
      const { status, code } = LOGIN_FAILURE_STATUS[result.reason];
      throw new AppError(status, code.toLowerCase(), result.message, { reason: result.reason, steps: result.steps });
    }
    // Exactly Playwright's storageState shape (drops fields a newer Playwright may add).
    const state = StorageStateSchema.parse(result.storageState);
    // Cached like a password login of the new account, so POST /api/login with the same body finds it.
    const identity = { orgId, origin, username: req.cred.username, method: 'password' };
    const credentials = await this.deps.cache.credentialHash(identity, {
      cred: { password: req.cred.password },
      additionalFields: req.additionalFields,
    });
    const sessionId = await this.deps.cache.put(identity, state, credentials);
    this.deps.log.info({ orgId, origin, cookies: state.cookies.length, ms }, 'signup succeeded');
    return { state, sessionId };
  }
}
