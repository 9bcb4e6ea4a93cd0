// API key scopes. `*` grants every scope but the explicit-only ones. Documented in docs/security.md#keys-scopes-and-rate-limits.
export const SCOPES = [
  'login:write', // POST /api/login (and, with credentials:write, POST /api/credentials/:id/passkeys)
  'sessions:read', // GET /api/sessions
  'sessions:write', // DELETE /api/sessions/:id
  'mailboxes:read', // GET /api/mailboxes
  'mailboxes:write', // POST /api/mailboxes, DELETE /api/mailboxes/:id, POST /api/mailboxes/:id/test
  'credentials:read', // GET /api/credentials[/:id[/uses]] (saved logins: metadata only)
  'credentials:write', // POST/PATCH/DELETE /api/credentials, POST /api/credentials/import
  'templates:read', // list/get templates, generate, presign uploads (spec names this one)
  'templates:write', // create, edit, delete the org's templates
  'characters:read', // GET /api/characters
  'characters:write', // POST /api/characters
  'generations:read', // GET /api/generations[/:id]
  'generations:write', // POST /api/generations/:id/cancel
  'credits:read', // GET /api/credits
  'webhooks:read', // GET /api/webhooks/secret (the org's webhook signing secret), GET /api/webhooks/login[/deliveries]
  'webhooks:write', // POST /api/webhooks/secret/rotate, PUT/DELETE /api/webhooks/login
  'browser-profiles:read', // GET /api/browser-profiles, POST /api/sessions/import (the person's own browsers)
] as const;
export type Scope = (typeof SCOPES)[number];
export const ALL_SCOPES = '*';

/**
 * Scopes a key holds only when they are named: `*` does not grant them. They reach the person's own machine (their
 * browsers' sessions), so only the person grants them, one key at a time.
 */
export const EXPLICIT_ONLY_SCOPES: readonly Scope[] = ['browser-profiles:read'];

/**
 * What a route needs: one scope, or a list meaning all of them (creating a passkey signs in with a saved login's
 * password and changes the saved login: `credentials:write` and `login:write`).
 */
export type RequiredScope = Scope | readonly Scope[];

export const requiredScopes = (needed: RequiredScope): readonly Scope[] =>
  typeof needed === 'string' ? [needed] : needed;

const holds = (granted: readonly string[], scope: Scope): boolean =>
  granted.includes(scope) || (granted.includes(ALL_SCOPES) && !EXPLICIT_ONLY_SCOPES.includes(scope));

/** The first scope of `needed` that `granted` lacks, or null when it holds them all (no allocation: every request). */
export function missingScope(granted: readonly string[], needed: RequiredScope): Scope | null {
  if (typeof needed === 'string') return holds(granted, needed) ? null : needed;
  for (const scope of needed) if (!holds(granted, scope)) return scope;
  return null;
}

export function hasScope(granted: readonly string[], needed: RequiredScope): boolean {
  return missingScope(granted, needed) === null;
}
