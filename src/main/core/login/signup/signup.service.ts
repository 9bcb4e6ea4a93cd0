import type { BrowserContext } from 'playwright-core';
import { LOGIN_FAILURE_STATUS } from '../../../../shared/errors.js';
import { StorageStateSchema, type StorageState } from '../../../../shared/login.schema.js';
import type { SignupAnswer, SignupRequest, SignupRequestBody } from '../../../../shared/signup.schema.js';
import { AppError } from '../../errors.js';
import type { CoreEventBus } from '../../events.js';
import type { Logger } from '../../logger.js';
import { CodeSourceInputError, openCodeSources, type CodeSources, type MailboxFeed } from '../codes/code-sources.js';
import type { InboxHub } from '../codes/inbox-hub.js';
import type { ContextProvider } from '../browser/lazy-browser-pool.js';
import type { SessionCache } from '../sessions/session-cache.js';
import type { Vault, VaultCaller } from '../vault/index.js';
import type { StoredSavedLogin } from '../vault/saved-logins.repo.js';
import { addPasskeyToSavedLogin, generatedPassword, savePasskeyAccount } from './signup-saved-login.js';
import type { SignupFailureReason, SignupRequest as EngineRequest, SignupResult } from './signup-types.js';

export interface SignupRunnerLike {
  signup(ctx: BrowserContext, req: EngineRequest, signal?: AbortSignal): Promise<SignupResult>;
}

export interface SignupOutcome {
  /** The storageState; with a passkey, also the saved login and the passkey's metadata. */
  state: SignupAnswer;
  sessionId: string;
}

type Done = Extract<SignupResult, { ok: true }>;

/** HTTP status and code of each sign-up failure: the login service's, and its own passkey one. */
const SIGNUP_FAILURE_STATUS: Record<SignupFailureReason, { status: number; code: string }> = {
  ...LOGIN_FAILURE_STATUS,
  passkey_not_offered: { status: 422, code: 'PASSKEY_NOT_OFFERED' },
};

/**
 * POST /api/signup: opens the verification sources (the organization's mailboxes for the address and
 * the inbox endpoint) before the browser starts, so no mail is missed; runs the sign-up in an isolated
 * browser context; maps failures to the login API's errors; caches the new session like a login. A passkey
 * sign-up keeps the passkey in a saved login (a new one, or the `credential` that made the account).
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
      /** Saved logins: a sign-up may make the account of one (`credential`), or keep its passkey in a new one. */
      vault: Vault;
    },
  ) {}

  /**
   * POST /api/signup. With `credential`, the saved login's username, password and additional fields make the
   * account (shared with the caller's key, typed only on its origins, the use recorded); the session links to it.
   */
  async signup(who: VaultCaller, body: SignupRequestBody, opts: { loginId?: string } = {}): Promise<SignupOutcome> {
    const passkey = body.loginMethod === 'passkey';
    if (body.credential === undefined) {
      const { cred, domain, credential: _none, ...rest } = body;
      // A passkey sign-up may give no password: one is made for a form that asks for one anyway.
      const password = cred!.password ?? generatedPassword();
      const req: SignupRequest = { ...rest, cred: { username: cred!.username, password }, domain: domain! };
      const done = await this.run(who.orgId, req, opts);
      if (!done.passkey) return this.cached(who.orgId, req, done);
      const saved = await savePasskeyAccount(
        this.deps.vault,
        who,
        {
          signupUrl: req.domain,
          username: req.cred.username,
          password: cred!.password !== undefined || done.passwordTyped ? password : undefined,
          additionalFields: req.additionalFields,
        },
        done.passkey,
      );
      return this.cached(who.orgId, req, done, saved);
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
    const generated = passkey && !req.cred.password ? generatedPassword() : undefined;
    const signup: SignupRequest = {
      domain: req.domain,
      loginMethod: body.loginMethod,
      cred: { username: req.cred.username, password: generated ?? req.cred.password },
      additionalFields: req.additionalFields,
    };
    return vault.use(who, saved, 'signup', async () => {
      const done = await this.run(who.orgId, signup, {
        ...opts,
        secretOrigins: saved.origins.length ? saved.origins : undefined,
      });
      const kept: StoredSavedLogin | undefined = done.passkey
        ? await addPasskeyToSavedLogin(vault, saved, done.passkey, done.passwordTyped ? generated : undefined)
        : undefined;
      const outcome = await this.cached(who.orgId, signup, done, kept);
      await this.deps.cache.updateLifecycle(who.orgId, outcome.sessionId, { credentialId: saved.id });
      return outcome;
    });
  }

  /** Runs the sign-up in a browser; a failure is thrown as the login API's error. */
  private async run(
    orgId: string,
    req: SignupRequest,
    opts: { loginId?: string; secretOrigins?: readonly string[] },
  ): Promise<Done> {
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
      result = await this.deps.browsers.withContext(async (ctx, presented) => {
        const made = await this.deps.runner.signup(ctx, {
          url: req.domain,
          username: req.cred.username,
          password: req.cred.password,
          additionalFields: req.additionalFields,
          timeoutMs: this.deps.timeoutMs,
          codeTimeoutMs: this.deps.codeTimeoutMs,
          codes,
          onStep,
          ...(opts.secretOrigins ? { secretOrigins: opts.secretOrigins } : {}),
          ...(req.loginMethod === 'passkey' ? { passkey: true } : {}),
        });
        // The new session comes back with what the browser presented, as a login's does.
        return made.ok && presented ? { ...made, storageState: { ...made.storageState, browser: presented } } : made;
      });
    } finally {
      codes.dispose();
    }
    const ms = Date.now() - started;
    if (!result.ok) {
      this.deps.log.info({ orgId, origin, reason: result.reason, ms }, 'signup failed');
      const { status, code } = SIGNUP_FAILURE_STATUS[result.reason];
      throw new AppError(status, code.toLowerCase(), result.message, { reason: result.reason, steps: result.steps });
    }
    this.deps.log.info({ orgId, origin, cookies: result.storageState.cookies.length, ms }, 'signup succeeded');
    return result;
  }

  /**
   * The new session, cached like a login of the new account so POST /api/login finds it: a password login with
   * the same body, or (passkey) a login by the saved login that keeps the passkey, with its secrets.
   */
  private async cached(
    orgId: string,
    req: SignupRequest,
    done: Done,
    saved?: StoredSavedLogin,
  ): Promise<SignupOutcome> {
    // Exactly Playwright's storageState shape (drops fields a newer Playwright may add).
    const state: StorageState = StorageStateSchema.parse(done.storageState);
    if (!saved || !done.passkey) {
      const identity = { orgId, origin: new URL(req.domain).origin, username: req.cred.username, method: 'password' };
      const credentials = await this.deps.cache.credentialHash(identity, {
        cred: { password: req.cred.password },
        additionalFields: req.additionalFields,
      });
      return { state, sessionId: await this.deps.cache.put(identity, state, credentials) };
    }
    const { req: login } = await this.deps.vault.loginRequest(saved, {
      useCache: true,
      include: [],
      interactive: false,
      interactiveTimeoutSec: 300,
      async: false,
      additionalFields: {},
    });
    const identity = { orgId, origin: new URL(login.domain).origin, username: login.cred.username, method: 'passkey' };
    const credentials = await this.deps.cache.credentialHash(identity, {
      cred: login.cred,
      additionalFields: login.additionalFields,
    });
    const sessionId = await this.deps.cache.put(identity, state, credentials);
    await this.deps.cache.updateLifecycle(orgId, sessionId, { credentialId: saved.id });
    const { rpId, credentialId } = done.passkey.passkey;
    return {
      state: { ...state, credential: saved.id, passkey: { rp_id: rpId, credential_id: credentialId } },
      sessionId,
    };
  }
}
