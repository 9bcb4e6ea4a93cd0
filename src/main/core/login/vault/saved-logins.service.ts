import type {
  CredentialUse,
  SavedLogin,
  SavedLoginCreate,
  SavedLoginSecret,
  SavedLoginUpdate,
} from '../../../../shared/credentials.schema.js';
import { SAVED_LOGIN_SECRETS } from '../../../../shared/credentials.schema.js';
import { AppError, notFound } from '../../errors.js';
import { newId } from '../../ids.js';
import type { Logger } from '../../logger.js';
import type { SecretStore } from '../../secrets/secret-store.js';
import { parseTotpSecret } from '../codes/totp.js';
import { checkLoginInput } from '../login-methods.js';
import { rpIdFitsOrigins, type PasskeyUse, type StoredPasskey } from '../passkeys/passkey-types.js';
import type { CredentialUsesRepo } from './credential-uses.repo.js';
import { decodeSecrets } from './saved-login-payload.js';
import type { SavedLoginsRepo, StoredSavedLogin } from './saved-logins.repo.js';
import { changedLoginUrl, hidesParts, loginUrlView } from './login-url-view.js';
import { secretsNeededToMove, secretsRequired, type SavedLoginEditor } from './saved-login-move.js';

/** How long a saved login's secrets stay in memory after their last use. */
const WARM_MS = 60_000;

/** The secret-store account of a saved login's secrets (the store itself is namespaced per installation). */
/** The secret-store accounts of saved logins' secrets (kept sealed in the vault file: secrets/envelope-store.ts). */
export const SAVED_LOGIN_ACCOUNT_PREFIX = 'saved-login:';
export const savedLoginAccount = (id: string) => `${SAVED_LOGIN_ACCOUNT_PREFIX}${id}`;

/** What the secret store holds for a saved login. Only the vault reads it; nothing returns it but Reveal. */
export interface SavedLoginSecrets {
  password?: string;
  totpSecret?: string;
  additionalFields?: Record<string, string>;
  notes?: string;
  /** Passkeys, private keys included (the row lists their RP IDs and credential ids only). */
  passkeys?: StoredPasskey[];
  /** The login page in full when it has a query or fragment (the row keeps it masked: login-url-view.ts). */
  loginUrl?: string;
}

/** A saved login and its secrets, checked, not saved yet (an import saves thousands in one batch). */
export type SavedLoginDraft = { saved: StoredSavedLogin; secrets: SavedLoginSecrets };

/** The fields checkLoginInput names, as a saved login spells them. */
const SAVED_FIELDS = {
  username: 'username',
  password: 'password',
  totpSecret: 'totpSecret',
  email: 'additionalFields.email',
  phone: 'phone',
};

export interface SavedLoginsDeps {
  repo: SavedLoginsRepo;
  uses: CredentialUsesRepo;
  secrets: SecretStore;
  log: Logger;
  /** Each identity provider's own origins (login.oauth.<provider>.origins): default origins of an oauth login. */
  oauthOrigins: { google: string[]; github: string[] };
  /** Whether the organization has this mailbox (a saved login may name the one its codes come to). */
  hasMailbox: (orgId: string, id: string) => boolean;
  /** The ids of the organization's API keys (a saved login is shared with some of them). */
  keyIds: (orgId: string) => string[];
  now?: () => number;
}

const invalid = (field: string, message: string) =>
  new AppError(400, 'validation_error', `Invalid body: ${field}: ${message}`, {
    field,
    issues: [{ path: field, message }],
  });

/** The API's view: no organization id; the login page masked (a row an older version wrote may hold it in full). */
export function publicSavedLogin(s: StoredSavedLogin): SavedLogin {
  const { orgId: _orgId, ...view } = s;
  return { ...view, loginUrl: loginUrlView(s.loginUrl) };
}

/**
 * Saved logins of an organization: metadata in SQLite (saved-logins.repo.ts), secrets in the secret
 * store under one account per saved login. Secrets are written here and read only by the vault itself
 * (a login by reference, the desktop's Reveal); no method returns them to an API answer.
 */
export class SavedLoginsService {
  /**
   * Secrets read in the last WARM_MS, by saved login: a login by reference served from the session cache then
   * costs what an inline one does (a keychain read is a D-Bus round trip, ~3 ms, more than the whole cache hit).
   * Dropped when the saved login changes or goes, and WARM_MS after its last use.
   */
  private readonly warm = new Map<string, { secrets: SavedLoginSecrets; updatedAt: number; until: number }>();

  constructor(private readonly deps: SavedLoginsDeps) {}

  private now() {
    return this.deps.now?.() ?? Date.now();
  }

  list(orgId: string): SavedLogin[] {
    return this.deps.repo.list(orgId).map(publicSavedLogin);
  }

  /** By id (cred_…) or label; 404 naming what was asked for. */
  get(orgId: string, ref: string): StoredSavedLogin {
    const found = this.deps.repo.find(orgId, ref);
    if (!found) throw notFound(`No saved login "${ref}" in this organization (GET /api/credentials lists them).`);
    return found;
  }

  find(orgId: string, ref: string): StoredSavedLogin | null {
    return this.deps.repo.find(orgId, ref);
  }

  /** The saved login `storeCredentials` kept for this login page and username (SavedLoginsRepo.keptBy). */
  keptBy(orgId: string, loginUrl: string, username: string): StoredSavedLogin | null {
    return this.deps.repo.keptBy(orgId, loginUrl, username);
  }

  /** The saved login `create` would make (id chosen), checked (400/409 as create answers), saving nothing. */
  validate(orgId: string, input: SavedLoginCreate, source: SavedLogin['source']): SavedLoginDraft {
    const built = this.build(orgId, input, source);
    this.check(built.saved, built.secrets);
    return built;
  }

  private build(
    orgId: string,
    input: SavedLoginCreate,
    source: SavedLogin['source'],
  ): { saved: StoredSavedLogin; secrets: SavedLoginSecrets } {
    const now = this.now();
    const secrets: SavedLoginSecrets = {
      password: input.password || undefined,
      totpSecret: input.totpSecret || undefined,
      additionalFields:
        input.additionalFields && Object.keys(input.additionalFields).length ? input.additionalFields : undefined,
      notes: input.notes || undefined,
      loginUrl: hidesParts(input.loginUrl) ? input.loginUrl : undefined,
    };
    const saved: StoredSavedLogin = {
      id: newId('cred', 16),
      orgId,
      label: input.label,
      loginUrl: loginUrlView(input.loginUrl),
      origins: input.origins ?? this.defaultOrigins(input.loginUrl, input.loginMethod),
      loginMethod: input.loginMethod,
      username: input.username,
      secrets: secretNames(secrets),
      additionalFieldNames: Object.keys(secrets.additionalFields ?? {}),
      passkeys: [],
      mailboxId: input.mailboxId ?? null,
      phone: input.phone ?? null,
      shareWith: input.shareWith,
      browser: input.browser ?? null,
      source,
      created_at: now,
      updated_at: now,
      last_used_at: null,
    };
    return { saved, secrets };
  }

  /** The secrets are stored first: a row never exists without them. */
  async create(orgId: string, input: SavedLoginCreate, source: SavedLogin['source']): Promise<SavedLogin> {
    const { saved, secrets } = this.build(orgId, input, source);
    this.check(saved, secrets);
    await this.deps.secrets.set(savedLoginAccount(saved.id), JSON.stringify({ v: 1, ...secrets }));
    try {
      this.deps.repo.insert(saved);
    } catch (err) {
      await this.deps.secrets.delete(savedLoginAccount(saved.id)).catch(() => false);
      throw err;
    }
    this.deps.log.info({ orgId, credentialId: saved.id, source }, 'saved login added');
    return publicSavedLogin(saved);
  }

  /**
   * Only what the patch gives changes; null removes an optional value. Secrets are written before the row. An API
   * key's change that moves where the secrets are typed must carry them (saved-login-move.ts).
   */
  async update(orgId: string, ref: string, patch: SavedLoginUpdate, by: SavedLoginEditor): Promise<SavedLogin> {
    const before = this.get(orgId, ref);
    const held = await this.readSecrets(before);
    const secrets = { ...held };
    for (const name of SAVED_LOGIN_SECRETS) {
      const value = patch[name];
      if (value === null) delete secrets[name];
      else if (value !== undefined) (secrets as Record<string, unknown>)[name] = value;
    }
    if (secrets.additionalFields && !Object.keys(secrets.additionalFields).length) delete secrets.additionalFields;
    const url = changedLoginUrl(before.loginUrl, held.loginUrl, patch.loginUrl);
    secrets.loginUrl = url.hidden;
    const loginUrl = url.view;
    const loginMethod = patch.loginMethod ?? before.loginMethod;
    const after: StoredSavedLogin = {
      ...before,
      label: patch.label ?? before.label,
      loginUrl,
      loginMethod,
      // A new login page (or method) with no origins given moves the default origins along with it.
      origins:
        patch.origins ??
        (url.changed || patch.loginMethod !== undefined
          ? sameSet(before.origins, this.defaultOrigins(before.loginUrl, before.loginMethod))
            ? this.defaultOrigins(loginUrl, loginMethod)
            : before.origins
          : before.origins),
      username: patch.username ?? before.username,
      secrets: secretNames(secrets),
      additionalFieldNames: Object.keys(secrets.additionalFields ?? {}),
      mailboxId: patch.mailboxId === undefined ? before.mailboxId : patch.mailboxId,
      phone: patch.phone === undefined ? before.phone : patch.phone,
      shareWith: patch.shareWith ?? before.shareWith,
      browser: patch.browser === undefined ? before.browser : patch.browser,
      updated_at: this.now(),
    };
    if (by === 'api_key') {
      const { places, fields } = secretsNeededToMove({ ...before, loginUrl: url.shown }, after, patch, held);
      if (fields.length) throw secretsRequired(before, places, fields);
    }
    this.check(after, secrets);
    this.warm.delete(after.id);
    await this.deps.secrets.set(savedLoginAccount(after.id), JSON.stringify({ v: 1, ...secrets }));
    this.deps.repo.update(after);
    this.deps.log.info({ orgId, credentialId: after.id, by }, 'saved login changed');
    return publicSavedLogin(after);
  }

  /** Rows an older version wrote with a login page's query or fragment in clear: moved to the secret store at start. */
  async hideLoginUrls(): Promise<number> {
    let moved = 0;
    for (const s of this.deps.repo.withQueryOrFragment().filter((row) => hidesParts(row.loginUrl))) {
      await this.update(s.orgId, s.id, {}, 'core').then(
        () => moved++,
        (err: Error) => this.deps.log.warn({ credentialId: s.id, err: err.message }, 'saved login URL not hidden yet'),
      );
    }
    return moved;
  }

  /** Keeps a passkey (a new one, or one with the same credential id replaced): secrets first, then the row. */
  async addPasskey(saved: StoredSavedLogin, passkey: StoredPasskey): Promise<void> {
    await this.changePasskeys(saved, (list) => [
      ...list.filter((p) => p.credentialId !== passkey.credentialId),
      passkey,
    ]);
    this.deps.log.info({ orgId: saved.orgId, credentialId: saved.id, rpId: passkey.rpId }, 'passkey added');
  }

  /** The counters the authenticator left after a use (a relying party refuses a counter that does not increase). */
  async saveSignCounts(saved: StoredSavedLogin, counts: ReadonlyMap<string, number>): Promise<void> {
    const current = this.get(saved.orgId, saved.id);
    const secrets = await this.readSecrets(current);
    if (!(secrets.passkeys ?? []).some((p) => (counts.get(p.credentialId) ?? p.signCount) > p.signCount)) return;
    await this.changePasskeys(current, (list) =>
      list.map((p) => ({ ...p, signCount: Math.max(p.signCount, counts.get(p.credentialId) ?? 0) })),
    );
  }

  /** A login's passkeys: only those whose RP ID fits the saved login's origins (WebAuthn's rule, and the vault's). */
  async passkeyUse(saved: StoredSavedLogin, secrets: SavedLoginSecrets): Promise<PasskeyUse> {
    const all = secrets.passkeys ?? [];
    const fits = (p: StoredPasskey) => rpIdFitsOrigins(p.rpId, saved.origins.length ? saved.origins : [saved.loginUrl]);
    return {
      passkeys: all.filter(fits),
      refusedRpIds: [...new Set(all.filter((p) => !fits(p)).map((p) => p.rpId))],
      saveSignCounts: (counts) => this.saveSignCounts(saved, counts),
    };
  }

  private async changePasskeys(
    saved: StoredSavedLogin,
    change: (list: StoredPasskey[]) => StoredPasskey[],
  ): Promise<void> {
    const current = this.get(saved.orgId, saved.id);
    const secrets = { ...(await this.readSecrets(current)) };
    secrets.passkeys = change(secrets.passkeys ?? []);
    this.warm.delete(current.id);
    await this.deps.secrets.set(savedLoginAccount(current.id), JSON.stringify({ v: 1, ...secrets }));
    this.deps.repo.update({
      ...current,
      passkeys: secrets.passkeys.map((p) => ({
        rp_id: p.rpId,
        credential_id: p.credentialId,
        created_at: p.createdAt,
      })),
      updated_at: Math.max(this.now(), current.updated_at + 1),
    });
  }

  /** Deletes the secrets, then the row: a failing secret store leaves the saved login listed, not half gone. */
  async delete(orgId: string, ref: string): Promise<boolean> {
    const found = this.deps.repo.find(orgId, ref);
    if (!found) return false;
    this.warm.delete(found.id);
    await this.deps.secrets.delete(savedLoginAccount(found.id));
    const deleted = this.deps.repo.delete(orgId, found.id);
    if (deleted) this.deps.log.info({ orgId, credentialId: found.id }, 'saved login removed');
    return deleted;
  }

  /** The secrets of a saved login (empty when the store holds none, e.g. it was cleared by hand). */
  async readSecrets(saved: StoredSavedLogin): Promise<SavedLoginSecrets> {
    const now = Date.now();
    const warm = this.warm.get(saved.id);
    if (warm && warm.updatedAt === saved.updated_at && warm.until > now) {
      warm.until = now + WARM_MS;
      return warm.secrets;
    }
    const raw = await this.deps.secrets.get(savedLoginAccount(saved.id));
    let secrets: SavedLoginSecrets = {};
    try {
      // an import's merge may have written the secrets its transaction makes current (saved-login-payload.ts)
      if (raw) secrets = decodeSecrets<SavedLoginSecrets>(raw, saved.updated_at);
    } catch {
      return {};
    }
    this.warm.set(saved.id, { secrets, updatedAt: saved.updated_at, until: now + WARM_MS });
    this.sweepLater(saved.id);
    return secrets;
  }

  /** Forgets warm secrets once they were not used for WARM_MS. */
  private sweepLater(id: string): void {
    setTimeout(() => {
      const warm = this.warm.get(id);
      if (!warm) return;
      if (warm.until <= Date.now()) this.warm.delete(id);
      else this.sweepLater(id);
    }, WARM_MS).unref();
  }

  uses(orgId: string, ref: string): CredentialUse[] {
    return this.deps.uses.list(this.get(orgId, ref).id);
  }

  recordUse(saved: StoredSavedLogin, use: Omit<CredentialUse, 'at' | 'origin'> & { origin?: string | null }): void {
    const at = this.now();
    this.deps.uses.record(saved.id, { ...use, origin: use.origin ?? originOf(saved.loginUrl), at });
    // Coarse, like the session cache's stamp: at most one write a minute (the use log has every use).
    if (saved.last_used_at === null || at - saved.last_used_at > 60_000) this.deps.repo.touch(saved.id, at);
  }

  /** A label no saved login of the organization has yet: `base`, else `base (2)`, `base (3)`… */
  freeLabel(orgId: string, base: string): string {
    const trimmed = base.trim().slice(0, 110) || 'login';
    for (let n = 1; ; n++) {
      const label = n === 1 ? trimmed : `${trimmed} (${n})`;
      if (!this.deps.repo.labelTaken(orgId, label)) return label;
    }
  }

  /** The login page's origin, and for oauth methods the identity provider's own origins. */
  defaultOrigins(loginUrl: string, method: string): string[] {
    const provider =
      method === 'oauth_google'
        ? this.deps.oauthOrigins.google
        : method === 'oauth_github'
          ? this.deps.oauthOrigins.github
          : [];
    return [...new Set([originOf(loginUrl), ...provider.map(originOf)].filter((o): o is string => !!o))];
  }

  /** 400/409 for a saved login that could never log in, or whose label is taken (also an import's merges). */
  check(s: StoredSavedLogin, secrets: SavedLoginSecrets): void {
    if (this.deps.repo.labelTaken(s.orgId, s.label, s.id))
      throw new AppError(409, 'credential_exists', `A saved login labelled "${s.label}" already exists.`, {
        field: 'label',
      });
    checkLoginInput(
      {
        loginMethod: s.loginMethod,
        username: s.username,
        password: secrets.password,
        totpSecret: secrets.totpSecret,
        additionalFields: { ...secrets.additionalFields, ...(s.phone ? { phone: s.phone } : {}) },
      },
      SAVED_FIELDS,
    );
    if (secrets.totpSecret) {
      try {
        parseTotpSecret(secrets.totpSecret);
      } catch {
        throw invalid('totpSecret', 'not a TOTP secret: base32, or an otpauth://totp/ URI');
      }
    }
    if (s.phone && !/^\+[1-9]\d{6,14}$/.test(s.phone.replace(/[\s().-]/g, '')))
      throw invalid('phone', 'must be an E.164 number (+ country code and number, e.g. +15550100)');
    if (s.shareWith !== 'all') {
      const known = new Set(this.deps.keyIds(s.orgId));
      const unknown = s.shareWith.filter((id) => !known.has(id));
      if (unknown.length) throw invalid('shareWith', `not API keys of this organization: ${unknown.join(', ')}`);
    }
    if (s.mailboxId && !this.deps.hasMailbox(s.orgId, s.mailboxId))
      throw invalid('mailboxId', `no mailbox ${s.mailboxId} in this organization (GET /api/mailboxes)`);
  }
}

export function secretNames(secrets: SavedLoginSecrets): SavedLoginSecret[] {
  return SAVED_LOGIN_SECRETS.filter((name) => secrets[name] !== undefined);
}

function sameSet(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((x) => b.includes(x));
}

export function originOf(url: string): string | null {
  try {
    return new URL(url).origin;
  } catch {
    return null;
  }
}
