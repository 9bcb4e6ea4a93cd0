// How the Saved logins screen names things: secrets (which exist, never their values), sharing, keys, origins.
import type { ApiKeySummary, LoginMethodInfo } from '../../../shared/ipc-contract.js';
import type { SavedLogin, SavedLoginSecret } from '../../../shared/credentials.schema.js';

export const SECRET_NAMES: Record<SavedLoginSecret, string> = {
  password: 'Password',
  totpSecret: 'Authenticator (TOTP)',
  additionalFields: 'Additional fields',
  notes: 'Notes',
};

/** "All keys", "2 keys", or "No key" (only this app may use it). */
export function sharedWithText(shareWith: SavedLogin['shareWith']): string {
  if (shareWith === 'all') return 'All keys';
  if (shareWith.length === 0) return 'No key';
  return `${shareWith.length} key${shareWith.length === 1 ? '' : 's'}`;
}

/** A key as a person knows it: its name and prefix, else its id (a key since deleted from the list). */
export function keyName(keyId: string, keys: readonly ApiKeySummary[]): string {
  const key = keys.find((k) => k.id === keyId);
  if (!key) return keyId;
  return key.name ? `${key.name} (${key.prefix}…)` : `${key.prefix}…`;
}

export function methodLabel(id: string, methods: readonly LoginMethodInfo[]): string {
  return methods.find((m) => m.id === id)?.label ?? id;
}

/** The origin of a URL, or null when it is not an http(s) URL. */
export function originOf(url: string): string | null {
  try {
    const u = new URL(url.trim());
    return u.protocol === 'http:' || u.protocol === 'https:' ? u.origin : null;
  } catch {
    return null;
  }
}

/** The list's search: label, site (login page and origins) and username, case-insensitively. */
export function matchesSearch(s: SavedLogin, query: string): boolean {
  const q = query.trim().toLowerCase();
  if (!q) return true;
  return [s.label, s.username, s.loginUrl, ...s.origins].some((text) => text.toLowerCase().includes(q));
}

/** What a use log row's key column says: the key's name, or who used it without a key. */
export function usedBy(keyId: string | null, keys: readonly ApiKeySummary[]): string {
  return keyId === null ? 'This app / background check' : keyName(keyId, keys);
}

export const ENDPOINT_NAMES: Record<string, string> = {
  login: 'Login',
  refresh: 'Refresh',
  signup: 'Sign-up',
  health_check: 'Health check',
  desktop_test: 'Test from this app',
};
