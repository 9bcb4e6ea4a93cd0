// The API key the desktop UI presents to the core (in-process-api.ts). Plain Node: never imports electron.
import type { Core } from '../create-core.js';

export const DESKTOP_KEY_ACCOUNT = 'desktop-api-key';

export interface DesktopKey {
  key: string;
  /** The key's organization: the desktop window gets this organization's live events. */
  orgId: string;
  /** True when the key's plaintext is kept in the secret store (survives restarts). */
  persisted: boolean;
  secretStoreError: string | null;
}

/**
 * The key the UI presents. Reuses the stored desktop key, else the first-run default key, else
 * creates one for the default org. When the secret store is unusable the key lives for this launch
 * only and is revoked when the core is disposed (so no orphaned live keys pile up).
 */
export async function resolveDesktopKey(core: Core): Promise<DesktopKey> {
  const orgOf = (key: string | null): string | null => (key ? (core.keys.authenticate(key)?.orgId ?? null) : null);
  let secretStoreError: string | null = null;
  try {
    const stored = await core.secrets.get(DESKTOP_KEY_ACCOUNT);
    const storedOrg = orgOf(stored);
    if (stored && storedOrg) return { key: stored, orgId: storedOrg, persisted: true, secretStoreError };
    const defaultId = await core.secrets.get('default-api-key-id');
    const defaultKey = defaultId ? await core.secrets.get(`api-key:${defaultId}`) : null;
    const defaultOrg = orgOf(defaultKey);
    if (defaultKey && defaultOrg) {
      await core.secrets.set(DESKTOP_KEY_ACCOUNT, defaultKey);
      return { key: defaultKey, orgId: defaultOrg, persisted: true, secretStoreError };
    }
  } catch (err) {
    secretStoreError = (err as Error).message;
  }
  const org = core.orgs.findByName('default') ?? core.orgs.list()[0] ?? core.orgs.create('default');
  const { key, info } = core.keys.create(org.id, { name: 'desktop', scopes: ['*'] });
  if (!secretStoreError) {
    try {
      await core.secrets.set(DESKTOP_KEY_ACCOUNT, key);
      return { key, orgId: org.id, persisted: true, secretStoreError };
    } catch (err) {
      secretStoreError = (err as Error).message;
    }
  }
  core.onDispose(() => core.keys.revoke(info.id));
  return { key, orgId: org.id, persisted: false, secretStoreError };
}

/** Where an organization's own desktop key is kept, so switching back to it reuses the key. */
export const orgDesktopKeyAccount = (orgId: string) => `${DESKTOP_KEY_ACCOUNT}:${orgId}`;

/**
 * Makes `orgId` the window's organization from the next core start on: its desktop key (made once, full
 * scope, kept in the secret store) becomes the one resolveDesktopKey finds. The key in use now is kept
 * under its own organization first, so going back does not mint another. Throws when the secret store
 * cannot be written (nothing changed then but perhaps a new, unused key).
 */
export async function switchDesktopOrg(core: Core, orgId: string): Promise<void> {
  const orgOf = (key: string | null) => (key ? (core.keys.authenticate(key)?.orgId ?? null) : null);
  const current = await core.secrets.get(DESKTOP_KEY_ACCOUNT);
  const currentOrg = orgOf(current);
  if (current && currentOrg && orgOf(await core.secrets.get(orgDesktopKeyAccount(currentOrg))) !== currentOrg)
    await core.secrets.set(orgDesktopKeyAccount(currentOrg), current);
  let key = await core.secrets.get(orgDesktopKeyAccount(orgId));
  if (orgOf(key) !== orgId) {
    key = core.keys.create(orgId, { name: 'desktop', scopes: ['*'] }).key;
    await core.secrets.set(orgDesktopKeyAccount(orgId), key);
  }
  await core.secrets.set(DESKTOP_KEY_ACCOUNT, key!);
}
