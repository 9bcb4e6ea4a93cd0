// Who may move a secret (docs/saved-logins.md#who-may-move-a-secret): the one rule of when a change to a saved login moves where
// its secrets are typed. The core refuses such a change from an API key unless the request carries the secrets
// (core/login/vault/saved-login-move.ts); the desktop window asks the person to confirm it (SavedLoginForm). Pure.

/** Where a saved login's secrets may go: its login page and its origins (empty: not known yet, learned later). */
export interface SecretPlaces {
  loginUrl: string;
  origins: readonly string[];
}

const originOf = (url: string): string | null => {
  try {
    return new URL(url).origin;
  } catch {
    return null;
  }
};

/**
 * The places `after` lets the secrets be typed that `before` did not, by origin; empty when nothing moves.
 * - The login page on another origin moves them (the login opens it first; with the default origins they follow it).
 *   Another path on the same origin does not: the secrets were already allowed there.
 * - Every origin added moves them; an origin removed only narrows where they go.
 * - A saved login whose origins are not known yet (moved from an earlier version) types wherever its login page
 *   leads, so any other login page moves them, and naming origins for the first time only narrows.
 */
export function secretsMoveTo(before: SecretPlaces, after: SecretPlaces): string[] {
  const places = new Set<string>();
  const page = originOf(after.loginUrl) ?? after.loginUrl;
  if (page !== (originOf(before.loginUrl) ?? before.loginUrl)) places.add(page);
  else if (!before.origins.length && after.loginUrl !== before.loginUrl) places.add(page);
  if (before.origins.length) for (const o of after.origins) if (!before.origins.includes(o)) places.add(o);
  return [...places];
}
