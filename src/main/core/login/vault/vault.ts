import type { CredentialUse, SavedLogin } from '../../../../shared/credentials.schema.js';
import type { LoginRequest, LoginRequestBody } from '../../../../shared/login.schema.js';
import { ERROR_CODE_STATUS } from '../../../../shared/errors.js';
import { AppError } from '../../errors.js';
import type { Logger } from '../../logger.js';
import type { PasskeyUse } from '../passkeys/passkey-types.js';
import type { CredentialImporter } from './credential-importer.js';
import { SecretsMissingError } from '../../secrets/secret-store.js';
import { originOf, type SavedLoginSecrets, type SavedLoginsService } from './saved-logins.service.js';
import type { StoredSavedLogin } from './saved-logins.repo.js';

/** Who asks to use a saved login: an API key, or (keyId null) the person in the desktop app or a background check. */
export interface VaultCaller {
  orgId: string;
  keyId: string | null;
}

/** The options of a login body a saved login's login keeps (everything but the credentials and the page). */
export type LoginOptions = Omit<LoginRequestBody, 'cred' | 'credential' | 'domain' | 'loginMethod'> & {
  domain?: string;
};

/** A login with a saved login's secrets in hand, and the origins they may be typed on. */
export interface SavedLoginRequest {
  saved: StoredSavedLogin;
  req: LoginRequest;
  /** Undefined for a saved login whose origins are not known yet (moved from an earlier version). */
  secretOrigins?: string[];
  /** loginMethod "passkey": its passkeys for the virtual authenticator. */
  passkeys?: PasskeyUse;
}

/**
 * What the rest of login does with saved logins: resolve a reference for a caller (sharing), turn a saved
 * login into a login request, record each use, and keep an inline login's credentials (`storeCredentials`)
 * as a saved login. The one place that knows a site's credentials.
 */
export class Vault {
  constructor(
    readonly savedLogins: SavedLoginsService,
    private readonly log: Logger,
    /** Imports from password-manager and browser exports. */
    readonly importer: CredentialImporter,
  ) {}

  /** A saved login the caller may use: 404 when unknown, 403 CREDENTIAL_NOT_SHARED when not shared with its key. */
  usable(who: VaultCaller, ref: string): StoredSavedLogin {
    const saved = this.savedLogins.get(who.orgId, ref);
    this.checkShared(who, saved);
    return saved;
  }

  checkShared(who: VaultCaller, saved: StoredSavedLogin): void {
    if (who.keyId === null || saved.shareWith === 'all' || saved.shareWith.includes(who.keyId)) return;
    throw new AppError(
      ERROR_CODE_STATUS.credential_not_shared,
      'credential_not_shared',
      `The saved login "${saved.label}" is not shared with this API key. The person can share it in the desktop app ` +
        '(Saved logins) or with PATCH /api/credentials/{id} {"shareWith": …}.',
      { credential: saved.id },
    );
  }

  /**
   * The login request a saved login makes: its page, method, username and secrets; the body's options kept.
   * A page (`domain`) off the saved login's origins is refused before any page loads: its secrets, passkeys
   * included, are used only there.
   */
  async loginRequest(saved: StoredSavedLogin, options: LoginOptions): Promise<SavedLoginRequest> {
    const asked = options.domain === undefined ? undefined : originOf(options.domain);
    if (asked !== undefined && saved.origins.length && !saved.origins.includes(asked ?? ''))
      throw new AppError(
        422,
        'credential_origin_mismatch',
        `The page to log in on (${asked ?? 'not a URL'}) is not one of the saved login "${saved.label}"'s origins ` +
          `(${saved.origins.join(', ')}); no page was opened. The person can add the origin to the saved login.`,
        { credential: saved.id, origin: asked ?? null },
      );
    const secrets = await this.secretsOf(saved);
    const browser = options.browser ?? saved.browser ?? undefined;
    const req: LoginRequest = {
      ...options,
      // The request's browser wins over the saved login's (a caller trying another mode), which wins over the config.
      ...(browser ? { browser } : {}),
      // The row keeps the login page masked; the secret store has it in full when it has a query or fragment.
      domain: options.domain ?? secrets.loginUrl ?? saved.loginUrl,
      loginMethod: saved.loginMethod,
      cred: {
        username: saved.username,
        password: secrets.password ?? '',
        ...(secrets.totpSecret ? { totpSecret: secrets.totpSecret } : {}),
      },
      additionalFields: {
        ...options.additionalFields,
        ...secrets.additionalFields,
        ...(saved.phone ? { phone: saved.phone } : {}),
      },
    };
    return {
      saved,
      req,
      ...(saved.origins.length ? { secretOrigins: saved.origins } : {}),
      ...(saved.loginMethod === 'passkey' ? { passkeys: await this.savedLogins.passkeyUse(saved, secrets) } : {}),
    };
  }

  /**
   * The saved login's secrets, every one its row names: a lost one (a data dir moved to another keychain) is
   * 409 SECRETS_MISSING naming the saved login, never a login attempted without it.
   */
  private async secretsOf(saved: StoredSavedLogin): Promise<SavedLoginSecrets> {
    const what = (names: readonly string[]) => `The ${names.join(', ')} of the saved login "${saved.label}"`;
    let secrets: SavedLoginSecrets;
    try {
      secrets = await this.savedLogins.readSecrets(saved);
    } catch (err) {
      if (err instanceof SecretsMissingError)
        throw new SecretsMissingError(what(['secrets']), { credential: saved.id });
      throw err;
    }
    const lost: string[] = saved.secrets.filter((name) => secrets[name] === undefined);
    if (saved.passkeys.length && !secrets.passkeys?.length) lost.push('passkeys');
    if (lost.length) throw new SecretsMissingError(what(lost), { credential: saved.id, missing: lost });
    return secrets;
  }

  /** Runs `fn` (a login, a refresh …) with a saved login and records the use with its outcome. */
  async use<T>(
    who: VaultCaller,
    saved: StoredSavedLogin,
    endpoint: CredentialUse['endpoint'],
    fn: () => Promise<T>,
    origin?: string,
  ): Promise<T> {
    let outcome = 'success';
    try {
      return await fn();
    } catch (err) {
      outcome = err instanceof AppError ? err.code.toUpperCase() : 'SERVER_ERROR';
      throw err;
    } finally {
      try {
        this.savedLogins.recordUse(saved, { keyId: who.keyId, endpoint, outcome, origin: origin ?? null });
      } catch (err) {
        // The saved login was deleted meanwhile (its use log went with it): nothing to record.
        this.log.debug({ credentialId: saved.id, err: (err as Error).message }, 'saved login use not recorded');
      }
    }
  }

  /**
   * `storeCredentials: true` on an inline login: its credentials kept as a saved login (source
   * stored_credentials) whose origins are where the login typed them. Updates the one kept for the session
   * before, when there is one; a person's saved login is never overwritten by an agent's inline credentials.
   */
  async keep(
    orgId: string,
    req: LoginRequest,
    typedOn: readonly string[] | undefined,
    current: string | null,
    opts: { originsUnknown?: boolean } = {},
  ) {
    // Also the one kept before for this page and user, though no session links it (credentials an older version
    // stored again after a downgrade): merged into, never duplicated.
    const previous =
      (current ? this.savedLogins.find(orgId, current) : null) ??
      this.savedLogins.keptBy(orgId, req.domain, req.cred.username);
    const origins = [...new Set([originOf(req.domain), ...(typedOn ?? [])])].filter((o): o is string => !!o);
    const fields = {
      loginUrl: req.domain,
      loginMethod: req.loginMethod,
      username: req.cred.username,
      password: req.cred.password || null,
      totpSecret: req.cred.totpSecret ?? null,
      additionalFields: Object.keys(req.additionalFields).length ? req.additionalFields : null,
    };
    if (previous?.source === 'stored_credentials') {
      const merged = [...new Set([...previous.origins, ...origins])];
      // The inline login handed over these very secrets, and its origins only add to the kept ones.
      return (await this.savedLogins.update(orgId, previous.id, { ...fields, origins: merged }, 'core')).id;
    }
    const host = originOf(req.domain) ? new URL(req.domain).host : req.domain;
    const label = this.savedLogins.freeLabel(orgId, req.cred.username ? `${host} (${req.cred.username})` : host);
    const made: SavedLogin = await this.savedLogins.create(
      orgId,
      {
        ...fields,
        label,
        password: fields.password ?? undefined,
        totpSecret: fields.totpSecret ?? undefined,
        additionalFields: fields.additionalFields ?? undefined,
        // Credentials kept before saved logins existed were typed wherever the login led: their origins are
        // learned on the next successful use (learnOrigins), not guessed.
        origins: opts.originsUnknown
          ? []
          : origins.length
            ? [...new Set([...origins, ...this.savedLogins.defaultOrigins(req.domain, req.loginMethod)])]
            : undefined,
        shareWith: 'all',
      },
      'stored_credentials',
    );
    return made.id;
  }

  /**
   * A saved login whose origins are not known yet (moved from an earlier version) takes the ones its first
   * successful login typed on; from then on its secrets are typed only there.
   */
  async learnOrigins(saved: StoredSavedLogin, typedOn: readonly string[] | undefined): Promise<void> {
    if (saved.origins.length || !typedOn) return;
    const origins = [...new Set([originOf(saved.loginUrl), ...typedOn])].filter((o): o is string => !!o);
    await this.savedLogins.update(saved.orgId, saved.id, { origins }, 'core');
    this.log.info({ credentialId: saved.id, origins: origins.length }, 'saved login origins learned');
  }

  /** `storeCredentials: false`: a saved login kept by storeCredentials goes once no session uses it. */
  async forgetKept(orgId: string, credentialId: string, stillLinked: number): Promise<void> {
    const saved = this.savedLogins.find(orgId, credentialId);
    if (saved?.source === 'stored_credentials' && stillLinked === 0) await this.savedLogins.delete(orgId, saved.id);
  }
}
