import type { BrowserContext } from 'playwright-core';
import { LOGIN_FAILURE_STATUS } from '../../../shared/errors.js';
import {
  ANNOUNCED_LOGIN_METHODS,
  LOGIN_METHODS,
  type LoginRequest,
  type StorageState,
} from '../../../shared/login.schema.js';
import { AppError } from '../errors.js';
import type { Logger } from '../logger.js';
import { CodeSourceInputError, openCodeSources, type MailboxFeed } from './codes/code-sources.js';
import type { InboxHub } from './codes/inbox-hub.js';
import type { LoginRequest as EngineRequest, LoginResult } from './login-types.js';
import type { CacheIdentity, CredentialHash, SessionCache } from './session-cache.js';

export interface ContextProvider {
  withContext<T>(fn: (ctx: BrowserContext) => Promise<T>, opts?: { signal?: AbortSignal }): Promise<T>;
}
export interface LoginRunner {
  login(ctx: BrowserContext, req: EngineRequest, signal?: AbortSignal): Promise<LoginResult>;
}

export interface LoginOutcome {
  state: StorageState;
  cached: boolean;
  sessionId: string;
}

/** Login methods whose strategy is built. The others answer 400 LOGIN_METHOD_NOT_AVAILABLE. */
export const BUILT_METHODS: ReadonlySet<string> = new Set(['password', 'otp_email', 'magic_link', 'totp', 'otp_sms']);
type BuiltMethod = NonNullable<EngineRequest['method']>;
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/**
 * POST /api/login: cache lookup, single-flight fresh login in an isolated browser context, cache
 * replacement, and the mapping of engine failures to documented errors.
 */
export class LoginService {
  /** In-flight fresh logins by everything that makes two requests identical (credentials only hashed). */
  private readonly inflight = new Map<string, Promise<LoginOutcome>>();

  constructor(
    private readonly deps: {
      browsers: ContextProvider;
      engine: LoginRunner;
      cache: SessionCache;
      log: Logger;
      timeoutMs: number;
      codeTimeoutMs: number;
      /** Pending logins waiting for a code or link (POST /api/login/inbox delivers to it). */
      inbox: InboxHub;
      mailboxes?: MailboxFeed;
    },
  ) {}

  async login(orgId: string, req: LoginRequest): Promise<LoginOutcome> {
    this.checkMethod(req);
    const origin = new URL(req.domain).origin;
    const identity = { orgId, origin, username: req.cred.username, method: req.loginMethod };
    const credentials = await this.deps.cache.credentialHash(identity, {
      cred: req.cred,
      additionalFields: req.additionalFields,
    });
    if (req.useCache) {
      const hit = await this.deps.cache.get(identity, credentials);
      if (hit) return { state: hit.state, cached: true, sessionId: hit.id };
    }
    // Identical concurrent requests share one login. The credential hash covers org, origin, username,
    // method, password, other cred fields and additionalFields: a wrong password never rides on a
    // right one's flight, nor the reverse.
    const flightKey = JSON.stringify([req.domain, req.useCache, credentials.toString('hex')]);
    const running = this.inflight.get(flightKey);
    if (running) return running;
    const flight = this.fresh(identity, credentials, req).finally(() => this.inflight.delete(flightKey));
    this.inflight.set(flightKey, flight);
    return flight;
  }

  private checkMethod(req: LoginRequest): void {
    const method = req.loginMethod;
    const known = [...LOGIN_METHODS, ...ANNOUNCED_LOGIN_METHODS] as readonly string[];
    if (known.includes(method) && !BUILT_METHODS.has(method)) {
      throw new AppError(
        400,
        'login_method_not_available',
        `The login method "${method}" is not available yet in this version. Available: ${[...BUILT_METHODS].join(', ')}.`,
        { loginMethod: method, available: [...BUILT_METHODS] },
      );
    }
    if (!BUILT_METHODS.has(method)) {
      throw new AppError(
        400,
        'validation_error',
        `Unknown loginMethod "${method}". Supported values: ${[...BUILT_METHODS].join(', ')}.`,
        {
          loginMethod: method,
        },
      );
    }
    const invalid = (field: string, message: string): AppError =>
      new AppError(400, 'validation_error', message, { field });
    if ((method === 'password' || method === 'totp') && !req.cred.password)
      throw invalid('cred.password', `cred.password is required for loginMethod "${method}".`);
    if (method === 'totp' && !req.cred.totpSecret)
      throw invalid(
        'cred.totpSecret',
        'cred.totpSecret (base32 or an otpauth:// URI) is required for loginMethod "totp".',
      );
    if ((method === 'otp_email' || method === 'magic_link') && !EMAIL.test(req.cred.username)) {
      if (!EMAIL.test(req.additionalFields.email ?? ''))
        throw invalid(
          'cred.username',
          `loginMethod "${method}" needs an email address: cred.username, or additionalFields.email when the username is not one.`,
        );
    }
    if (method === 'otp_sms' && !req.additionalFields.phone)
      throw invalid(
        'additionalFields.phone',
        'additionalFields.phone (E.164, e.g. +15550100) is required for loginMethod "otp_sms".',
      );
  }

  private async fresh(identity: CacheIdentity, credentials: CredentialHash, req: LoginRequest): Promise<LoginOutcome> {
    const started = Date.now();
    let codes;
    try {
      codes = openCodeSources({
        orgId: identity.orgId,
        hub: this.deps.inbox,
        mailboxes: this.deps.mailboxes,
        username: req.cred.username,
        additionalFields: req.additionalFields,
        totpSecret: req.cred.totpSecret,
      });
    } catch (err) {
      if (err instanceof CodeSourceInputError)
        throw new AppError(400, 'validation_error', err.message, { field: err.field });
      throw err;
    }
    let result: LoginResult;
    try {
      result = await this.deps.browsers.withContext((ctx) =>
        this.deps.engine.login(ctx, {
          url: req.domain,
          username: req.cred.username,
          password: req.cred.password,
          additionalFields: req.additionalFields,
          timeoutMs: this.deps.timeoutMs,
          method: req.loginMethod as BuiltMethod,
          codes,
          codeTimeoutMs: this.deps.codeTimeoutMs,
        }),
      );
    } finally {
      codes.dispose();
    }
    const ms = Date.now() - started;
    if (!result.ok) {
      this.deps.log.info({ orgId: identity.orgId, origin: identity.origin, reason: result.reason, ms }, 'login failed');
      const { status, code } = LOGIN_FAILURE_STATUS[result.reason];
      throw new AppError(status, code.toLowerCase(), result.message, { reason: result.reason, steps: result.steps });
    }
    const state = normalizeState(result.storageState as unknown as StorageState);
    const sessionId = await this.deps.cache.put(identity, state, credentials);
    this.deps.log.info(
      {
        orgId: identity.orgId,
        origin: identity.origin,
        cookies: state.cookies.length,
        origins: state.origins.length,
        ms,
      },
      'login succeeded',
    );
    return { state, cached: false, sessionId };
  }
}

/** Exactly Playwright's storageState shape (drops any extra fields a newer Playwright may add). */
function normalizeState(s: StorageState): StorageState {
  return {
    cookies: s.cookies.map((c) => ({
      name: c.name,
      value: c.value,
      domain: c.domain,
      path: c.path,
      expires: c.expires,
      httpOnly: c.httpOnly,
      secure: c.secure,
      sameSite: c.sameSite,
    })),
    origins: s.origins.map((o) => ({
      origin: o.origin,
      localStorage: o.localStorage.map(({ name, value }) => ({ name, value })),
    })),
  };
}
