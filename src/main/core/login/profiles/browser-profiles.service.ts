import os from 'node:os';
import type {
  BrowserProfile,
  ImportedSession,
  SessionImportRequest,
  SessionImportResult,
} from '../../../../shared/browser-profiles.schema.js';
import { AppError } from '../../errors.js';
import type { Logger } from '../../logger.js';
import type { SessionLifecycle } from '../lifecycle/session-lifecycle.js';
import type { CacheIdentity, CredentialHash, SessionCache } from '../sessions/session-cache.js';
import type { Vault } from '../vault/vault.js';
import { currentPlatform, type Platform } from './browser-kinds.js';
import { discoverProfiles, type FoundProfile } from './profile-discovery.js';
import type { StoredSavedLogin } from '../vault/saved-logins.repo.js';
import type { ImportVia, ProfileImportsRepo } from './profile-imports.repo.js';
import { profileOrigins, readSiteStates } from './profile-reader.js';

/** The login method of sessions imported from a browser profile (their cache identity's method). */
export const IMPORT_METHOD = 'browser-import';

export interface BrowserProfilesDeps {
  /** Home directories searched (config browserProfiles.roots; default this user's home). */
  roots?: readonly string[];
  platform?: Platform;
  cache: SessionCache;
  sessions: Pick<SessionLifecycle, 'validate'>;
  imports: ProfileImportsRepo;
  /** Saved logins: an import may be filed under one (its account), so later logins with it are served the session. */
  vault: Pick<Vault, 'usable' | 'loginRequest'>;
  log: Logger;
  now?: () => number;
}

export interface ImportCaller {
  orgId: string;
  keyId: string | null;
  via: ImportVia;
}

const profileNotFound = (id: string) =>
  new AppError(
    404,
    'profile_not_found',
    `No browser profile "${id}" on this machine (see GET /api/browser-profiles).`,
    {
      reason: 'profile_not_found',
    },
  );

/**
 * The person's own browser profiles (docs/own-browsers-and-passkeys.md#sessions-from-your-own-browsers): lists them, and imports some sites'
 * sessions from one into the session cache, each validated at once with the session check.
 */
export class BrowserProfiles {
  constructor(private readonly deps: BrowserProfilesDeps) {}

  private platform(): Platform {
    return this.deps.platform ?? currentPlatform();
  }

  private found(): FoundProfile[] {
    return discoverProfiles(this.deps.roots?.length ? this.deps.roots : [os.homedir()], this.platform());
  }

  /** Every profile with the sites it holds cookies for (a profile whose file cannot be read says why). */
  list(): BrowserProfile[] {
    return this.found().map((p) => {
      const base = { id: p.id, browser: p.browser, name: p.name, path: p.path };
      try {
        return { ...base, origins: profileOrigins(p) };
      } catch (err) {
        return { ...base, origins: [], error: err instanceof AppError ? err.message : 'its cookies could not be read' };
      }
    });
  }

  profile(id: string): FoundProfile {
    const found = this.found().find((p) => p.id === id);
    if (!found) throw profileNotFound(id);
    return found;
  }

  async import(who: ImportCaller, req: SessionImportRequest): Promise<SessionImportResult> {
    const profile = this.profile(req.profile);
    const now = () => this.deps.now?.() ?? Date.now();
    const record = (origin: string, outcome: string, sessionId: string | null) =>
      this.deps.imports.record(who.orgId, {
        keyId: who.keyId,
        via: who.via,
        profileId: profile.id,
        browser: profile.browser,
        origin,
        outcome,
        sessionId,
        at: now(),
      });
    // Checked before anything is read: a saved login the key may not use, or one for other sites, stops the import.
    const account = req.credential ? this.account(who, req.credential, req.sites) : null;
    let states;
    try {
      states = await readSiteStates(profile, req.sites, this.platform());
    } catch (err) {
      const code = err instanceof AppError ? err.code : 'error';
      for (const site of new Set(req.sites.map((s) => new URL(s).origin))) record(site, code, null);
      throw err;
    }
    const sessions: ImportedSession[] = [];
    for (const { origin, state } of states) {
      const { identity, hash, credentialId } = await this.filing(who, profile, origin, account);
      const sessionId = await this.deps.cache.put(identity, state, hash);
      const checkUrl =
        req.checkUrl && new URL(req.checkUrl).origin === origin
          ? req.checkUrl
          : (req.sites.find((s) => new URL(s).origin === origin) ?? `${origin}/`);
      await this.deps.cache.updateLifecycle(who.orgId, sessionId, {
        checkUrl,
        ...(credentialId ? { credentialId } : {}),
      });
      const imported = await this.check(who.orgId, sessionId, origin, state);
      record(origin, imported.status === 'unchecked' ? 'unchecked' : imported.valid ? 'valid' : 'invalid', sessionId);
      sessions.push(imported);
    }
    this.deps.log.info(
      { orgId: who.orgId, via: who.via, browser: profile.browser, sites: sessions.length },
      'imported sessions from a browser profile',
    );
    return { sessions };
  }

  /** The saved login an import is filed under, when its origins cover every site asked for. */
  private account(who: ImportCaller, ref: string, sites: readonly string[]): StoredSavedLogin {
    const saved = this.deps.vault.usable(who, ref);
    const allowed = new Set([new URL(saved.loginUrl).origin, ...saved.origins]);
    const outside = [...new Set(sites.map((s) => new URL(s).origin))].filter((o) => !allowed.has(o));
    if (outside.length)
      throw new AppError(
        400,
        'validation_error',
        `The saved login "${saved.label}" is not for ${outside.join(', ')}: an imported session is filed under a saved ` +
          "login of the same site only (its login page's origin or the origins it was used on).",
        { field: 'credential' },
      );
    return saved;
  }

  /**
   * Where an imported session is kept. Under a saved login: the identity and credential hash its own login would
   * have, so a later POST /api/login with it (or its username and password) is a cache hit. Without one: under the
   * profile's name with no secrets (no login request ever asks for that identity, so nothing serves it by accident).
   */
  private async filing(
    who: ImportCaller,
    profile: FoundProfile,
    origin: string,
    account: StoredSavedLogin | null,
  ): Promise<{ identity: CacheIdentity; hash: CredentialHash; credentialId: string | null }> {
    if (!account) {
      const identity = {
        orgId: who.orgId,
        origin,
        username: `${profile.browser} profile "${profile.name}"`,
        method: IMPORT_METHOD,
      };
      return {
        identity,
        hash: await this.deps.cache.credentialHash(identity, { cred: {}, additionalFields: {} }),
        credentialId: null,
      };
    }
    // The options a plain `{"credential": …}` login body has: its request hashes to the same cache identity.
    const { req } = await this.deps.vault.loginRequest(account, {
      domain: origin,
      useCache: true,
      include: [],
      additionalFields: {},
      interactive: false,
      interactiveTimeoutSec: 300,
      async: false,
    });
    const identity = { orgId: who.orgId, origin, username: req.cred.username, method: req.loginMethod };
    return {
      identity,
      hash: await this.deps.cache.credentialHash(identity, { cred: req.cred, additionalFields: req.additionalFields }),
      credentialId: account.id,
    };
  }

  /** The session check at once; a site that cannot be reached leaves the entry unchecked (kept, not valid). */
  private async check(
    orgId: string,
    sessionId: string,
    origin: string,
    state: ImportedSession['state'],
  ): Promise<ImportedSession> {
    try {
      const v = await this.deps.sessions.validate(orgId, sessionId);
      // A dead imported session (no saved login to renew it) is dropped by the check: nothing is kept.
      return {
        session_id: v.dropped ? null : sessionId,
        origin,
        valid: v.valid,
        status: v.status,
        evidence: v.evidence,
        state,
      };
    } catch (err) {
      if (!(err instanceof AppError) || err.code !== 'site_unreachable') throw err;
      const evidence = Array.isArray(err.details.evidence) ? (err.details.evidence as string[]) : [err.message];
      return { session_id: sessionId, origin, valid: false, status: 'unchecked', evidence, state };
    }
  }
}
