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
const BUILT_METHODS = new Set(['password']);

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
    if (
      (ANNOUNCED_LOGIN_METHODS as readonly string[]).includes(method) ||
      ((LOGIN_METHODS as readonly string[]).includes(method) && !BUILT_METHODS.has(method))
    ) {
      throw new AppError(
        400,
        'login_method_not_available',
        `The login method "${method}" is not available yet in this version. Available: ${[...BUILT_METHODS].join(', ')}.`,
        {
          loginMethod: method,
          available: [...BUILT_METHODS],
        },
      );
    }
    if (!BUILT_METHODS.has(method)) {
      throw new AppError(
        400,
        'validation_error',
        `Unknown loginMethod "${method}". Supported values: ${LOGIN_METHODS.join(', ')}.`,
        {
          loginMethod: method,
        },
      );
    }
    if (method === 'password' && !req.cred.password) {
      throw new AppError(400, 'validation_error', 'cred.password is required for loginMethod "password".', {
        field: 'cred.password',
      });
    }
  }

  private async fresh(identity: CacheIdentity, credentials: CredentialHash, req: LoginRequest): Promise<LoginOutcome> {
    const started = Date.now();
    const result = await this.deps.browsers.withContext((ctx) =>
      this.deps.engine.login(ctx, {
        url: req.domain,
        username: req.cred.username,
        password: req.cred.password,
        additionalFields: req.additionalFields,
        timeoutMs: this.deps.timeoutMs,
      }),
    );
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
