import type {
  LoginRequest,
  LoginRequestBody,
  RefreshRequestBody,
  SessionValidation,
  StorageState,
} from '../../../../shared/login.schema.js';
import { AppError, notFound } from '../../errors.js';
import type { Logger } from '../../logger.js';
import type { LoginOutcome, LoginRunOptions } from '../sessions/login.service.js';
import type { CacheEntry, LifecyclePatch, SessionCache } from '../sessions/session-cache.js';
import type { CheckResult, SessionValidator } from './session-validator.js';
import type { Vault, VaultCaller } from '../vault/index.js';

/** How POST /refresh answered (header X-Session-Refresh). */
export type RefreshKind = 'still-valid' | 'renewed';

/** What one background health check did with an entry. */
export type HealthCheckResult = 'valid' | 'renewed' | 'dropped' | 'failed' | 'unreachable' | 'gone';

export interface SessionLifecycleDeps {
  cache: SessionCache;
  /** The login service: a re-login is an ordinary fresh login (single flight, cache replacement, errors). */
  logins: { login(orgId: string, req: LoginRequest, opts?: LoginRunOptions): Promise<LoginOutcome> };
  validator: Pick<SessionValidator, 'check'>;
  /** Saved logins: what a login by reference uses, what storeCredentials keeps, what a re-login uses. */
  vault: Vault;
  /** Settles once credentials kept before saved logins existed were moved onto them (adopt-stored-credentials.ts). */
  ready?: Promise<unknown>;
  log: Logger;
  now?: () => number;
  /** Called when an entry's health-check schedule changed (the timer re-arms). */
  onScheduleChanged?: () => void;
}

const noStoredCredentials = () =>
  new AppError(
    409,
    'no_stored_credentials',
    'This session has no saved login to log in again with. Log in with "credential": a saved login, or with ' +
      '"storeCredentials": true on POST /api/login first (or just log in again).',
  );

/**
 * The session lifecycle on top of the cache: lifecycle options of a login (stored credentials,
 * check page, health-check interval), validation on the site, refresh with stored credentials, and
 * the per-entry step of the background health checks. One operation at a time per identity, so a
 * refresh and a health check never log in twice for the same session.
 */
export class SessionLifecycle {
  private readonly locks = new Map<string, Promise<unknown>>();

  constructor(private readonly deps: SessionLifecycleDeps) {}

  private now() {
    return this.deps.now?.() ?? Date.now();
  }

  /** Runs `fn` after any running operation on the same identity (a per-identity queue). */
  private exclusive<T>(identityKey: string, fn: () => Promise<T>): Promise<T> {
    const before = this.locks.get(identityKey) ?? Promise.resolve();
    const run = before.catch(() => {}).then(fn);
    const tail = run.catch(() => {});
    this.locks.set(identityKey, tail);
    void tail.then(() => {
      if (this.locks.get(identityKey) === tail) this.locks.delete(identityKey);
    });
    return run;
  }

  /**
   * POST /api/login: with `credential`, the saved login (shared with the caller's key, its use recorded,
   * its secrets typed only on its origins) and the session linked to it; else the inline login. Then the
   * lifecycle options are applied to the entry it returned.
   */
  async login(
    who: VaultCaller,
    body: LoginRequestBody,
    opts: LoginRunOptions & { endpoint?: 'login' | 'desktop_test' } = {},
  ): Promise<LoginOutcome> {
    if (body.credential === undefined) {
      const { cred, domain, credential: _none, ...rest } = body;
      // LoginRequestSchema requires cred and domain when no credential is named.
      return this.loginWith(who.orgId, { ...rest, cred: cred!, domain: domain! }, opts);
    }
    await this.deps.ready;
    const saved = this.deps.vault.usable(who, body.credential);
    const { cred: _cred, credential: _ref, loginMethod: _method, ...options } = body;
    const { req, secretOrigins, passkeys } = await this.deps.vault.loginRequest(saved, options);
    const { endpoint = 'login', ...run } = opts;
    return this.deps.vault.use(
      who,
      saved,
      endpoint,
      async () => {
        const outcome = await this.loginWith(who.orgId, req, { ...run, secretOrigins, passkeys }, saved.id);
        await this.deps.vault.learnOrigins(saved, outcome.typedOn);
        return outcome;
      },
      new URL(req.domain).origin,
    );
  }

  /** The login, then its lifecycle options; `savedLogin`: the saved login it was made with (linked to the entry). */
  private async loginWith(
    orgId: string,
    req: LoginRequest,
    opts: LoginRunOptions,
    savedLogin?: string,
  ): Promise<LoginOutcome> {
    const outcome = await this.deps.logins.login(orgId, req, opts);
    // A cache hit that asks for no lifecycle change is answered as it is (the hot path: no read or write).
    const asksForChange =
      req.checkUrl !== undefined ||
      req.healthCheckIntervalSec !== undefined ||
      req.storeCredentials !== undefined ||
      (savedLogin !== undefined && outcome.credentialId !== savedLogin);
    if (outcome.cached && !asksForChange) return outcome;
    await this.deps.ready;
    const entry = await this.deps.cache.entry(orgId, outcome.sessionId);
    if (!entry) return outcome; // already replaced by a concurrent login of the same identity
    const patch: LifecyclePatch = {};
    const checkUrl = req.checkUrl ?? (outcome.cached ? undefined : httpUrlOrUndefined(outcome.finalUrl));
    if (checkUrl) patch.checkUrl = checkUrl;
    if (req.healthCheckIntervalSec !== undefined) patch.healthCheckIntervalSec = req.healthCheckIntervalSec;
    const linked = entry.credentialId;
    if (req.storeCredentials === false) {
      if (linked) patch.credentialId = null;
    } else if (savedLogin !== undefined) {
      if (linked !== savedLogin) patch.credentialId = savedLogin;
    } else {
      // Omitted: a fresh login of an identity whose credentials storeCredentials kept keeps the ones that just worked.
      const keptBefore = !!linked && this.deps.vault.savedLogins.find(orgId, linked)?.source === 'stored_credentials';
      if (req.storeCredentials === true || (keptBefore && !outcome.cached))
        patch.credentialId = await this.deps.vault.keep(orgId, req, outcome.typedOn, linked);
    }
    await this.deps.cache.updateLifecycle(orgId, entry.id, patch);
    if (patch.credentialId === null && linked)
      await this.deps.vault.forgetKept(orgId, linked, this.deps.cache.linkedTo(orgId, linked));
    if (patch.healthCheckIntervalSec !== undefined) this.deps.onScheduleChanged?.();
    return outcome;
  }

  /** DELETE /api/sessions/:id: the entry, and a saved login storeCredentials kept only for it. */
  async deleteSession(orgId: string, id: string): Promise<boolean> {
    const entry = await this.deps.cache.entry(orgId, id);
    if (!entry || !this.deps.cache.delete(orgId, id)) return false;
    if (entry.credentialId)
      await this.deps.vault.forgetKept(orgId, entry.credentialId, this.deps.cache.linkedTo(orgId, entry.credentialId));
    return true;
  }

  /** POST /api/sessions/:id/validate. A dead entry without stored credentials is dropped. */
  async validate(orgId: string, id: string): Promise<SessionValidation> {
    const first = await this.deps.cache.entry(orgId, id);
    if (!first) throw notFound(`No cached session ${id} in this organization.`);
    return this.exclusive(first.identityKey, async () => {
      const entry = await this.deps.cache.entry(orgId, id);
      if (!entry) throw notFound(`No cached session ${id} in this organization (it was replaced or deleted).`);
      const check = await this.inspect(entry);
      if (check.verdict === 'unreachable') throw siteUnreachable(check);
      const dropped = check.verdict === 'invalid' && !entry.credentialId;
      if (dropped) this.deps.cache.delete(orgId, id);
      else await this.record(entry, check);
      return {
        session_id: id,
        valid: check.verdict === 'valid',
        status: check.verdict === 'valid' ? 'valid' : 'invalid',
        checked_url: check.checkedUrl,
        evidence: check.evidence,
        checked_at: check.checkedAt,
        dropped,
      };
    });
  }

  /**
   * POST /refresh: the identity's session as it is when it still works, else a fresh login with the
   * stored credentials (which replaces the entry). `force` skips the check.
   */
  async refresh(
    who: VaultCaller,
    body: RefreshRequestBody,
  ): Promise<{ state: StorageState; sessionId: string; refresh: RefreshKind }> {
    const orgId = who.orgId;
    await this.deps.ready;
    // With a saved login: its site, username and method pick the session, and it must be shared with the key.
    const saved = body.credential !== undefined ? this.deps.vault.usable(who, body.credential) : undefined;
    const identity = {
      orgId,
      origin: new URL(body.domain ?? saved!.loginUrl).origin,
      username: saved?.username ?? body.username!,
      method: saved?.loginMethod ?? body.loginMethod ?? 'password',
    };
    const first = await this.deps.cache.find(identity);
    const missing = () =>
      new AppError(
        404,
        'not_found',
        `No cached session for this username at ${identity.origin} (loginMethod ${identity.method}). Log in with POST /api/login first.`,
        { origin: identity.origin, loginMethod: identity.method },
      );
    if (!first) throw missing();
    return this.exclusive(first.identityKey, async () => {
      const entry = await this.deps.cache.find(identity);
      if (!entry) throw missing();
      if (!entry.credentialId) throw noStoredCredentials();
      if (!body.force && entry.state) {
        const check = await this.inspect(entry);
        if (check.verdict === 'unreachable') throw siteUnreachable(check);
        await this.record(entry, check);
        if (check.verdict === 'valid') return { state: entry.state, sessionId: entry.id, refresh: 'still-valid' };
      }
      const renewed = await this.relogin(entry, who, 'refresh');
      return { state: renewed.state, sessionId: renewed.sessionId, refresh: 'renewed' };
    });
  }

  /** One background health check of an entry (see HealthChecks). */
  async healthCheck(orgId: string, id: string, signal?: AbortSignal): Promise<HealthCheckResult> {
    const first = await this.deps.cache.entry(orgId, id);
    if (!first) return 'gone';
    return this.exclusive(first.identityKey, async () => {
      const entry = await this.deps.cache.entry(orgId, id);
      if (!entry?.healthCheckIntervalSec) return 'gone'; // replaced, deleted or switched off meanwhile
      const next = () => this.now() + entry.healthCheckIntervalSec! * 1000;
      let check: CheckResult;
      try {
        check = await this.inspect(entry, signal);
      } catch (err) {
        // e.g. the browser could not start: try again an interval later, never in a tight loop
        if (!signal?.aborted) await this.deps.cache.updateLifecycle(orgId, id, { nextCheckAt: next() });
        throw err;
      }
      if (check.verdict === 'unreachable') {
        await this.deps.cache.updateLifecycle(orgId, id, { nextCheckAt: next() });
        this.deps.log.info(
          { orgId, sessionId: id, evidence: check.evidence },
          'session health check: site unreachable',
        );
        return 'unreachable';
      }
      if (check.verdict === 'valid') {
        await this.record(entry, check, next());
        return 'valid';
      }
      if (!entry.credentialId) {
        this.deps.cache.delete(orgId, id);
        this.deps.log.info({ orgId, sessionId: id }, 'session health check: dead session dropped');
        return 'dropped';
      }
      await this.record(entry, check, next());
      try {
        await this.relogin(entry, { orgId, keyId: null }, 'health_check');
        this.deps.log.info({ orgId, origin: entry.origin }, 'session health check: renewed with its saved login');
        return 'renewed';
      } catch (err) {
        const status = err instanceof AppError ? err.status : 500;
        const code = err instanceof AppError ? err.code : 'error';
        if (code === 'no_stored_credentials') {
          this.deps.cache.delete(orgId, id);
          return 'dropped';
        }
        // The site refused the stored credentials (4xx): trying again on a timer could lock the account.
        if (status < 500) await this.deps.cache.updateLifecycle(orgId, id, { nextCheckAt: null });
        this.deps.log.warn({ orgId, origin: entry.origin, code, status }, 'session health check: re-login failed');
        return 'failed';
      }
    });
  }

  private async inspect(entry: CacheEntry, signal?: AbortSignal): Promise<CheckResult> {
    const url = entry.checkUrl ?? `${entry.origin}/`;
    if (!entry.state) {
      return {
        verdict: 'invalid',
        checkedUrl: url,
        evidence: ['the cached state cannot be decrypted (the session-cache key changed)'],
        checkedAt: this.now(),
      };
    }
    const check = await this.deps.validator.check(entry.state, url, signal, entry.mode);
    if (!entry.checkUrl) check.evidence.unshift('no check page was recorded for this session: opened the site root');
    return check;
  }

  private async record(entry: CacheEntry, check: CheckResult, nextCheckAt?: number): Promise<void> {
    await this.deps.cache.updateLifecycle(entry.orgId, entry.id, {
      status: check.verdict === 'valid' ? 'valid' : 'invalid',
      lastCheckedAt: check.checkedAt,
      ...(nextCheckAt !== undefined ? { nextCheckAt } : {}),
    });
  }

  /** A fresh login with the entry's saved login; the new entry replaces this one, marked renewed. */
  private async relogin(
    entry: CacheEntry,
    who: VaultCaller,
    endpoint: 'refresh' | 'health_check',
  ): Promise<LoginOutcome> {
    const saved = entry.credentialId ? this.deps.vault.savedLogins.find(entry.orgId, entry.credentialId) : null;
    if (!saved) {
      await this.deps.cache.updateLifecycle(entry.orgId, entry.id, { credentialId: null });
      throw noStoredCredentials();
    }
    this.deps.vault.checkShared(who, saved);
    const { req, secretOrigins, passkeys } = await this.deps.vault.loginRequest(saved, {
      useCache: false,
      include: entry.include,
      additionalFields: {},
      interactive: false,
      interactiveTimeoutSec: 300,
      async: false,
    });
    return this.deps.vault.use(
      who,
      saved,
      endpoint,
      async () => {
        const outcome = await this.deps.logins.login(entry.orgId, req, { secretOrigins, passkeys });
        await this.deps.vault.learnOrigins(saved, outcome.typedOn);
        const checkUrl = entry.checkUrl ?? httpUrlOrUndefined(outcome.finalUrl);
        await this.deps.cache.updateLifecycle(entry.orgId, outcome.sessionId, {
          status: 'renewed',
          lastCheckedAt: this.now(),
          credentialId: saved.id,
          ...(checkUrl ? { checkUrl } : {}),
        });
        return outcome;
      },
      new URL(req.domain).origin,
    );
  }
}

function httpUrlOrUndefined(url: string | undefined): string | undefined {
  return url && /^https?:\/\//i.test(url) ? url : undefined;
}

function siteUnreachable(check: CheckResult): AppError {
  return new AppError(
    502,
    'site_unreachable',
    `Could not check the session: ${check.evidence.at(-1) ?? 'the site did not answer'}. The session was left as it is.`,
    { reason: 'site_unreachable', checked_url: check.checkedUrl, evidence: check.evidence },
  );
}
