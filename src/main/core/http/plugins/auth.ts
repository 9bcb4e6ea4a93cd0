import type { FastifyInstance, FastifyReply } from 'fastify';
import { ALL_SCOPES, EXPLICIT_ONLY_SCOPES, missingScope, type Scope } from '../../../../shared/scopes.js';
import { AppError, forbidden, unauthorized } from '../../errors.js';
import type { ApiKeysService } from '../../tenancy/api-keys.service.js';
import { RateLimiter } from './rate-limiter.js';

export interface AuthOptions {
  keys: ApiKeysService;
  perKeyPerSecond: number;
  perKeyBurst: number;
  unauthenticatedPerMinute: number;
  /** The buckets' clock in ms (monotonic); tests drive it so a refill never depends on how fast the machine is. */
  now?: () => number;
}

function setRateHeaders(reply: FastifyReply, limit: number, r: { remaining: number; resetSec: number }) {
  reply.header('X-RateLimit-Limit', String(limit));
  reply.header('X-RateLimit-Remaining', String(r.remaining));
  reply.header('X-RateLimit-Reset', String(r.resetSec));
}

const tooMany = (retryAfterSec: number) =>
  new AppError(
    429,
    'rate_limited',
    `Too many requests. Retry after ${retryAfterSec} s.`,
    { retry_after_sec: retryAfterSec },
    {
      'Retry-After': String(retryAfterSec),
    },
  );

/** A 403 for a key without `scope`; an explicit-only scope says that `*` does not grant it. */
function refusal(granted: readonly string[], scope: Scope): AppError {
  const refused = forbidden(scope);
  if (!granted.includes(ALL_SCOPES) || !EXPLICIT_ONLY_SCOPES.includes(scope)) return refused;
  return new AppError(
    403,
    refused.code,
    `${refused.message} "*" does not grant it: the person grants it by name to one key (desktop app or CLI).`,
    { ...refused.details, explicit_only: true },
  );
}

/** The key of an `Authorization: Bearer <key>` header, or undefined. */
export function bearerKey(header: string | string[] | undefined): string | undefined {
  const match = typeof header === 'string' ? /^Bearer\s+(\S+)\s*$/i.exec(header) : null;
  return match?.[1];
}

/**
 * Bearer-key authentication, scope check and per-key rate limiting for every route whose config
 * names a scope (or sets `keyOnly`: a valid key, no particular scope). Requests with a bad or missing
 * key draw from one small shared bucket.
 */
export function registerAuth(app: FastifyInstance, opts: AuthOptions): void {
  const perKey = new RateLimiter(opts.perKeyPerSecond, opts.perKeyBurst, opts.now);
  const anonymous = new RateLimiter(
    opts.unauthenticatedPerMinute / 60,
    Math.max(1, Math.ceil(opts.unauthenticatedPerMinute)),
    opts.now,
  );
  app.decorateRequest('auth', null);

  // A callback hook, not an async one: no promise per request on the hot path.
  app.addHook('onRequest', (req, reply, done) => {
    const scope = req.routeOptions.config?.scope;
    if (!scope && !req.routeOptions.config?.keyOnly) return done();
    const auth = opts.keys.authenticate(bearerKey(req.headers.authorization));
    if (!auth) {
      const r = anonymous.take('anonymous');
      return done(r.allowed ? unauthorized() : tooMany(r.retryAfterSec));
    }
    const r = perKey.take(auth.keyId);
    setRateHeaders(reply, perKey.burst, r);
    if (!r.allowed) return done(tooMany(r.retryAfterSec));
    // A route that needs several scopes names the first one the key lacks.
    const missing = scope ? missingScope(auth.scopes, scope) : null;
    if (missing) return done(refusal(auth.scopes, missing));
    req.auth = auth;
    done();
  });
}
