// API key scopes. `*` grants every scope but the explicit-only ones. Documented in README "Scopes".
export const SCOPES = [
  'login:write', // POST /api/login
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

export function hasScope(granted: readonly string[], needed: Scope): boolean {
  if (granted.includes(needed)) return true;
  return granted.includes(ALL_SCOPES) && !EXPLICIT_ONLY_SCOPES.includes(needed);
}
