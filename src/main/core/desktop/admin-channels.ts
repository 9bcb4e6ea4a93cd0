// Desktop-only administration answered in main, in process (no HTTP route on purpose: an API key
// belongs to one organization and must not mint keys or credits for others): API keys of every
// organization (a key's plaintext is answered once, when it is made, and never listed), organizations,
// their credits. Plain Node.
import type { IpcResult } from '../../../shared/errors.js';
import type { ApiKeySummary, Credits, OrgSummary } from '../../../shared/ipc-contract.js';
import { AppError } from '../errors.js';
import { STARTER_CREDITS } from '../create-core.js';
import type { ApiKeyInfo } from '../tenancy/api-keys.service.js';
import { ProfileAccess } from '../tenancy/profile-readers.js';
import type { CoreHost } from './core-host.js';
import { switchDesktopOrg } from './desktop-key.js';
import { fail } from './http-channel.js';
import type { LocalHandlers } from './ipc-dispatcher.js';

export type AdminChannelName =
  | 'keys:list'
  | 'keys:create'
  | 'keys:revoke'
  | 'orgs:list'
  | 'orgs:create'
  | 'orgs:credits'
  | 'orgs:grantCredits'
  | 'orgs:useInWindow'
  | 'orgs:setBrowserProfiles';

const DAY_MS = 86_400_000;
const LEDGER_ENTRIES = 50;

/** A service's AppError as an IpcResult failure (its code, message and status); anything else is rethrown. */
export function appErrorResult(err: unknown, field?: string): IpcResult<never> {
  if (!(err instanceof AppError)) throw err;
  return fail(err.code, err.message, { status: err.status, ...err.details, ...(field ? { field } : {}) });
}

export function adminChannels(host: Pick<CoreHost, 'current' | 'restart'>): Pick<LocalHandlers, AdminChannelName> {
  const core = () => host.current().core;
  const desktop = () => host.current().desktop;
  const noOrg = (orgId: string) => fail('not_found', `There is no organization ${orgId}.`, { status: 404 });
  const profileAccess = () => new ProfileAccess(core().db, core().orgs);

  const summary = (k: ApiKeyInfo): ApiKeySummary => ({ ...k, desktop: k.id === desktop().keyId });
  const credits = (orgId: string): Credits => ({
    org_id: orgId,
    balance: core().credits.balance(orgId),
    ledger: core()
      .credits.ledger(orgId, LEDGER_ENTRIES)
      .map(({ amount, kind, ref, created_at }) => ({ amount, kind, ref, created_at })),
  });
  const orgSummary = (org: { id: string; name: string; created_at: number }, now = Date.now()): OrgSummary => ({
    ...org,
    balance: core().credits.balance(org.id),
    active_keys: core()
      .keys.list(org.id)
      .filter((k) => k.revoked_at === null && (k.expires_at === null || k.expires_at > now)).length,
    desktop: org.id === desktop().orgId,
    browser_profiles: profileAccess().allows(org.id),
  });

  return {
    'keys:list': async ({ orgId }) => {
      if (!core().orgs.get(orgId)) return noOrg(orgId);
      return { ok: true, value: { data: core().keys.list(orgId).map(summary) } };
    },
    'keys:create': async ({ orgId, name, scopes, expiresInDays }) => {
      if (!core().orgs.get(orgId)) return noOrg(orgId);
      try {
        const expiresAt = expiresInDays ? Date.now() + expiresInDays * DAY_MS : null;
        const { key, info } = core().keys.create(orgId, { name, scopes, expiresAt });
        return { ok: true, value: { key, info: summary(info) } };
      } catch (err) {
        return appErrorResult(err, 'scopes');
      }
    },
    'keys:revoke': async ({ id }) => {
      const key = core()
        .keys.list()
        .find((k) => k.id === id);
      if (!key) return fail('not_found', `There is no API key ${id}.`, { status: 404 });
      if (key.id === desktop().keyId) {
        return fail(
          'forbidden',
          'This is the key this window uses, so it cannot be revoked here. Revoke it with the CLI ' +
            '(keys revoke ID) while the app is closed; the app makes a new one on its next start.',
          { status: 403 },
        );
      }
      core().keys.revoke(id);
      const after = core()
        .keys.list(key.org_id)
        .find((k) => k.id === id);
      return { ok: true, value: summary(after ?? key) };
    },
    'orgs:list': async () => ({
      ok: true,
      value: {
        data: core()
          .orgs.list()
          .map((o) => orgSummary(o)),
      },
    }),
    'orgs:create': async ({ name }) => {
      try {
        const org = core().orgs.create(name);
        // As the first organization got at first run: a new one is usable at once, not a dead end at 0.
        core().credits.grant(org.id, STARTER_CREDITS, 'starter credits');
        return { ok: true, value: orgSummary(org) };
      } catch (err) {
        return appErrorResult(err, 'name');
      }
    },
    'orgs:credits': async ({ orgId }) => (core().orgs.get(orgId) ? { ok: true, value: credits(orgId) } : noOrg(orgId)),
    'orgs:useInWindow': async ({ orgId }) => {
      if (!core().orgs.get(orgId)) return noOrg(orgId);
      if (desktop().orgId === orgId) return { ok: true, value: orgSummary(core().orgs.get(orgId)!) };
      try {
        await switchDesktopOrg(core(), orgId);
      } catch (err) {
        return fail(
          'secrets_unavailable',
          `The window could not switch: its key for that organization could not be kept in the secret store (${(err as Error).message}).`,
          { status: 503 },
        );
      }
      // The new core finds the organization's key (resolveDesktopKey) and serves the window in it.
      await host.restart();
      return { ok: true, value: orgSummary(core().orgs.get(orgId)!) };
    },
    'orgs:setBrowserProfiles': async ({ orgId, allowed }) => {
      const org = core().orgs.get(orgId);
      if (!org) return noOrg(orgId);
      if (allowed) profileAccess().allow(orgId);
      else profileAccess().deny(orgId);
      return { ok: true, value: orgSummary(org) };
    },
    'orgs:grantCredits': async ({ orgId, amount }) => {
      if (!core().orgs.get(orgId)) return noOrg(orgId);
      try {
        core().credits.grant(orgId, amount, 'granted in the desktop app');
        return { ok: true, value: credits(orgId) };
      } catch (err) {
        return appErrorResult(err, 'amount');
      }
    },
  };
}
