import type { BrowserContext } from 'playwright-core';
import type { ContextProvider } from '../browser/lazy-browser-pool.js';
import { ERROR_CODE_STATUS, LOGIN_FAILURE_STATUS } from '../../../../shared/errors.js';
import type { LoginRequest, StorageState } from '../../../../shared/login.schema.js';
import type { LoginBrowser } from '../../../../shared/login-browser.schema.js';
import { AppError } from '../../errors.js';
import type { Logger } from '../../logger.js';
import { CodeSourceInputError, openCodeSources, type MailboxFeed } from '../codes/code-sources.js';
import type { InboxHub } from '../codes/inbox-hub.js';
import { checkLoginInput } from '../login-methods.js';
import { askPerson, type InteractiveFinisher } from '../interactive/interactive-finisher.js';
import type { CoreEventBus } from '../../events.js';
import { redact, type EngineLoginRequest, type LoginResult, type SessionStorageState } from '../login-types.js';
import type { PasskeyUse } from '../passkeys/passkey-types.js';
import type { CacheIdentity, CredentialHash, SessionCache } from './session-cache.js';
import { normalizeInclude, normalizeState } from './storage-state.js';

/**
 * Where a login with an id reports and is cancelled: runs/ (LoginBoard, RunningLogins) provides both, and this
 * room imports nothing of runs/, which sits above it (routes -> runs -> lifecycle -> sessions).
 */
export interface LoginTracking {
  /** GET /api/login/{id}: each step as it happens, and the live page's URL when a person is asked. */
  board?: {
    step(orgId: string, loginId: string, line: string): void;
    needsPerson(orgId: string, loginId: string, takeoverUrl: string, reason: string): void;
  };
  /** POST /api/login/{id}/cancel: a fresh login registers; the signal aborts when it is cancelled. */
  running: {
    start(orgId: string, loginId: string): { signal: AbortSignal; release: () => void };
  };
}

export interface LoginRunner {
  login(ctx: BrowserContext, req: EngineLoginRequest, signal?: AbortSignal): Promise<LoginResult>;
}

export interface LoginRunOptions {
  /** The caller's id for this login (X-Login-Id): step events carry it and it can be cancelled by it. */
  loginId?: string;
  /** A saved login's origins: the only pages its secrets may be typed on (EngineLoginRequest.secretOrigins). */
  secretOrigins?: readonly string[];
  /** loginMethod "passkey": a saved login's passkeys (only a saved login has them). */
  passkeys?: PasskeyUse;
}

export interface LoginOutcome {
  state: StorageState;
  cached: boolean;
  sessionId: string;
  /** Where a fresh login landed (the session lifecycle validates there by default); absent on a cache hit. */
  finalUrl?: string;
  /** The origins a fresh login typed the credentials on (a saved login kept from it allows those). */
  typedOn?: string[];
  /** On a cache hit: the saved login the entry is linked to (null: none). */
  credentialId?: string | null;
}

type BuiltMethod = NonNullable<EngineLoginRequest['method']>;

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
      /** Each identity provider's own origins (login.oauth.<provider>.origins). */
      oauthOrigins: { google: string[]; github: string[] };
      /** Where live login steps go (login.step events), when a login has an id. */
      events?: CoreEventBus;
      /** Pending logins waiting for a code or link (POST /api/login/inbox delivers to it). */
      inbox: InboxHub;
      mailboxes?: MailboxFeed;
      /** Shows a login stopped at a CAPTCHA or second factor to a person (a live page, or the desktop's window). */
      interactive?: InteractiveFinisher;
      /** Logins with an id: their steps, live page and cancel (runs/). */
      tracking: LoginTracking;
    },
  ) {}

  async login(orgId: string, req: LoginRequest, opts: LoginRunOptions = {}): Promise<LoginOutcome> {
    checkLoginInput({ ...req.cred, loginMethod: req.loginMethod, additionalFields: req.additionalFields });
    if (req.loginMethod === 'passkey' && !opts.passkeys)
      throw new AppError(
        400,
        'validation_error',
        'loginMethod "passkey" uses the passkeys of a saved login: give "credential" (a saved login), not cred. ' +
          'POST /api/credentials/{id}/passkeys makes one.',
        { field: 'credential' },
      );
    const origin = new URL(req.domain).origin;
    const identity = { orgId, origin, username: req.cred.username, method: req.loginMethod };
    const credentials = await this.deps.cache.credentialHash(identity, {
      cred: req.cred,
      additionalFields: req.additionalFields,
    });
    const include = normalizeInclude(req.include);
    if (req.useCache) {
      // Served only when captured with at least the storage `include` asks for, trimmed to it.
      const hit = await this.deps.cache.get(identity, credentials, include);
      if (hit)
        return {
          state: normalizeState(hit.state, normalizeInclude([...include, ...hit.sessionIn])),
          cached: true,
          sessionId: hit.id,
          credentialId: hit.credentialId,
        };
    }
    // Identical concurrent requests share one login. The credential hash covers org, origin, username,
    // method, password, other cred fields and additionalFields: a wrong password never rides on a
    // right one's flight, nor the reverse.
    const flightKey = JSON.stringify([
      req.domain,
      req.useCache,
      credentials.toString('hex'),
      include,
      req.interactive,
      opts.secretOrigins ?? null,
      // Passkey logins of one account with different passkeys are different logins.
      opts.passkeys?.passkeys.map((p) => p.credentialId) ?? null,
      // A login with an id is followed, cancelled and shown a person on its own: it never rides another's flight.
      opts.loginId ?? null,
      // Another browser is another login: a site that refuses headless browsers answers the two differently.
      req.browser?.mode ?? null,
    ]);
    const running = this.inflight.get(flightKey);
    if (running) return running;
    const flight = this.fresh(identity, credentials, req, opts).finally(() => this.inflight.delete(flightKey));
    this.inflight.set(flightKey, flight);
    return flight;
  }

  private async fresh(
    identity: CacheIdentity,
    credentials: CredentialHash,
    req: LoginRequest,
    opts: LoginRunOptions,
  ): Promise<LoginOutcome> {
    const started = Date.now();
    const { loginId } = opts;
    await this.deps.browsers.checkUrl?.(req.domain, 'domain');
    // Each step as it happens, for the desktop window's live trace (secret-free lines, ids only).
    const onStep = loginId
      ? (step: string) => {
          this.deps.tracking.board?.step(identity.orgId, loginId, step);
          this.deps.events?.emit('login.step', {
            orgId: identity.orgId,
            loginId,
            step,
            elapsedMs: Date.now() - started,
          });
        }
      : undefined;
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
    // Registered until the answer, the wait for a person included: a cancel ends either.
    const run = loginId ? this.deps.tracking.running.start(identity.orgId, loginId) : undefined;
    try {
      return await this.freshInContext(identity, credentials, req, {
        started,
        run,
        onStep,
        codes,
        secretOrigins: opts.secretOrigins,
        passkeys: opts.passkeys,
        loginId,
      });
    } finally {
      run?.release();
    }
  }

  /** The engine's run in a browser context, then (interactive) a person's, then the cache. */
  private async freshInContext(
    identity: CacheIdentity,
    credentials: CredentialHash,
    req: LoginRequest,
    ctx: {
      started: number;
      run?: { signal: AbortSignal };
      onStep?: (step: string) => void;
      codes: ReturnType<typeof openCodeSources>;
      secretOrigins?: readonly string[];
      passkeys?: PasskeyUse;
      loginId?: string;
    },
  ): Promise<LoginOutcome> {
    const { started, run, onStep, codes, secretOrigins, passkeys, loginId } = ctx;
    const cancelled = (): AppError =>
      new AppError(
        ERROR_CODE_STATUS.login_cancelled,
        'login_cancelled',
        'The login was cancelled before it finished.',
        { reason: 'cancelled' },
      );
    let result: LoginResult;
    // What the login browser showed the site (user agent, language, time zone): returned with the state.
    let presented: LoginBrowser | undefined;
    const mode = req.browser?.mode;
    try {
      result = await this.deps.browsers.withContext(
        (ctx, shown) => {
          presented = shown;
          return this.deps.engine.login(
            ctx,
            {
              url: req.domain,
              username: req.cred.username,
              password: req.cred.password,
              additionalFields: req.additionalFields,
              timeoutMs: this.deps.timeoutMs,
              method: req.loginMethod as BuiltMethod,
              codes,
              codeTimeoutMs: this.deps.codeTimeoutMs,
              include: normalizeInclude(req.include),
              oauth: oauthOf(req.loginMethod, this.deps.oauthOrigins),
              onStep,
              keepPartialState: req.interactive && !!this.deps.interactive,
              ...(secretOrigins ? { secretOrigins } : {}),
              ...(req.cred.totpSecret ? { secrets: [req.cred.totpSecret] } : {}),
              ...(passkeys ? { passkeys } : {}),
            },
            run?.signal,
          );
        },
        { signal: run?.signal, mode },
      );
    } catch (err) {
      if (run?.signal.aborted) throw cancelled();
      throw err;
    } finally {
      codes.dispose();
    }
    const ms = Date.now() - started;
    let captured: SessionStorageState | undefined = result.ok
      ? { ...result.storageState, browser: presented }
      : undefined;
    if (!result.ok) {
      // interactive: a person may get past a CAPTCHA or second factor (docs/person-in-the-loop.md).
      const person = req.interactive
        ? await askPerson(this.deps.interactive, result, {
            loginUrl: req.domain,
            timeoutSec: req.interactiveTimeoutSec,
            include: normalizeInclude(req.include),
            log: this.deps.log,
            cancel: run?.signal,
            mode,
            loginId,
            orgId: identity.orgId,
            onStep,
            onTakeover: (url) => {
              if (!loginId) return;
              if (result.ok) return;
              this.deps.tracking.board?.needsPerson(identity.orgId, loginId, url, result.reason);
              this.deps.events?.emit('login.needs_person', {
                orgId: identity.orgId,
                loginId,
                reason: result.reason,
                takeoverUrl: url,
                site: new URL(req.domain).host,
              });
            },
          })
        : undefined;
      if (run?.signal.aborted) throw cancelled();
      // The finisher says what its browser presented (the live page's is the login pool's of the same mode).
      if (person && 'state' in person) captured = person.state;
      else {
        this.deps.log.info(
          { orgId: identity.orgId, origin: identity.origin, reason: result.reason, ms },
          'login failed',
        );
        const { status, code } = LOGIN_FAILURE_STATUS[result.reason];
        // The engine's lines are secret-free already; this also covers what a site echoed in its words.
        const mask = (text: string) => redact(text, secretsOf(req));
        throw new AppError(status, code.toLowerCase(), mask(result.message + (person?.note ?? '')), {
          reason: result.reason,
          steps: result.steps.map(mask),
          ...(person ? { interactive: person.outcome } : {}),
        });
      }
    }
    // Where the login's own evidence put the session (IndexedDB, sessionStorage) is returned even
    // when `include` did not ask for it: without it the state would not work.
    const sessionIn = result.ok ? (result.sessionIn ?? []) : [];
    const include = normalizeInclude([...(req.include ?? []), ...sessionIn]);
    const state = normalizeState(captured as unknown as StorageState, include);
    const sessionId = await this.deps.cache.put(identity, state, credentials, include, sessionIn, mode);
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
    return {
      state,
      cached: false,
      sessionId,
      finalUrl: result.ok ? result.finalUrl : undefined,
      typedOn: result.ok ? result.typedOn : undefined,
    };
  }
}

function oauthOf(method: string, origins: { google: string[]; github: string[] }): EngineLoginRequest['oauth'] {
  if (method === 'oauth_google') return { provider: 'google', origins: origins.google.map((o) => new URL(o).origin) };
  if (method === 'oauth_github') return { provider: 'github', origins: origins.github.map((o) => new URL(o).origin) };
  return undefined;
}

/** Every secret a login request carries (what no answer may show). */
function secretsOf(req: LoginRequest): string[] {
  return [req.cred.password, req.cred.totpSecret ?? '', ...Object.values(req.additionalFields)];
}
