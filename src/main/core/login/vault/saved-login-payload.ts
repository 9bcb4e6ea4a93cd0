// How a saved login's secrets are kept in the secret store: one entry per saved login (account saved-login:<id>).
// Generic over the secrets' type so that the service and the import can both use it without importing each other.

/** Secrets an import has written for a saved login it merges into, in force once the row's updated_at is `at`. */
export interface NextSecrets<T> {
  at: number;
  secrets: T;
}

/**
 * `{v: 1, ...secrets}`, and while an import that merges into the saved login has not committed, also `next`: the
 * import's secrets, in force once the import's transaction sets the row's updated_at to `next.at`. A merge can so
 * write its secrets before its row commits without ever putting the old ones out of reach: if the import dies
 * first, the row keeps its updated_at and the entry's own secrets stay the ones in force.
 */
export function encodeSecrets<T extends object>(secrets: T, next?: NextSecrets<T>): string {
  return JSON.stringify({ v: 1, ...secrets, ...(next ? { next } : {}) });
}

/** The entry's own secrets and the pending ones, if any. Throws on an entry that is not JSON. */
export function parseSecrets<T extends object>(raw: string): { secrets: T; next?: NextSecrets<T> } {
  const { v: _v, next, ...secrets } = JSON.parse(raw) as { v?: number; next?: NextSecrets<T> };
  return { secrets: secrets as T, ...(next && typeof next.at === 'number' ? { next } : {}) };
}

/** The secrets in force for a row last updated at `updatedAt`. */
export function decodeSecrets<T extends object>(raw: string, updatedAt: number): T {
  const { secrets, next } = parseSecrets<T>(raw);
  return next && next.at === updatedAt ? next.secrets : secrets;
}
