// Handlers of the route table (src/shared/api): each entry of API_ROUTES gets exactly one handler, whose input
// is parsed by the entry's own zod schemas (the same ones the OpenAPI document, the client and the window use).
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { z } from 'zod';
import {
  API_ROUTE_NAMES,
  API_ROUTES,
  type ApiRoute,
  type ApiRouteName,
  type ApiRoutes,
  type RouteParsedInput,
  successStatus,
} from '../../../shared/api/index.js';
import type { AuthContext } from '../tenancy/api-keys.service.js';
import { badRequest } from '../errors.js';
import { ParsedQueries } from './parsed-queries.js';

export type RouteInput<N extends ApiRouteName> = RouteParsedInput<ApiRoutes[N]> & {
  /** Present on every route with a scope (or keyOnly). */
  auth: AuthContext;
  req: FastifyRequest;
  reply: FastifyReply;
};

/**
 * Returns the success body (or calls reply itself and returns `reply`). The answer's status is the entry's success
 * status (register below): a handler sets one only when it chooses between two documented ones.
 */
export type RouteHandler<N extends ApiRouteName> = (input: RouteInput<N>) => unknown;

/** One handler per entry of the route table. */
export type RouteHandlers = { [N in ApiRouteName]: RouteHandler<N> };

/**
 * A feature's part: its handlers, by route name (`satisfies FeatureRoutes` types each handler's input from its
 * table entry). The composition (core/routes.ts) merges the parts into RouteHandlers.
 */
export type FeatureRoutes = Partial<RouteHandlers>;

/** Every issue of a zod error as `field: message`; `whole` names an issue about the value itself. */
export function zodMessage(error: z.ZodError, whole = 'body'): string {
  return error.issues.map((i) => `${i.path.length ? i.path.join('.') : whole}: ${i.message}`).join('; ');
}

/** Parses one part of a request with its schema; a mismatch is a 400 listing every field. */
export function parseRequestPart<T extends z.ZodType>(schema: T, value: unknown, part: string): z.output<T> {
  const res = schema.safeParse(value ?? (part === 'body' ? undefined : {}));
  if (!res.success) {
    throw badRequest(`Invalid ${part}: ${zodMessage(res.error)}`, {
      issues: res.error.issues.map((i) => ({ path: i.path.join('.'), message: i.message })),
    });
  }
  return res.data;
}

/**
 * Merges the features' parts into one handler per route. A route handled twice, or a part naming a route the
 * table does not have, is a programming error and throws at start-up.
 */
export function mergeRoutes(...parts: FeatureRoutes[]): RouteHandlers {
  const merged: Record<string, unknown> = {};
  for (const part of parts) {
    for (const [name, handler] of Object.entries(part)) {
      if (!(name in API_ROUTES)) throw new Error(`A handler for "${name}", which the route table does not have`);
      if (name in merged) throw new Error(`Route "${name}" has two handlers`);
      merged[name] = handler;
    }
  }
  const missing = API_ROUTE_NAMES.filter((name) => !(name in merged));
  if (missing.length) throw new Error(`Routes without a handler: ${missing.join(', ')}`);
  return merged as RouteHandlers;
}

/** The handlers with some swapped for others (each must name a route of the table). */
export function replaceRoutes(handlers: RouteHandlers, replace: FeatureRoutes): RouteHandlers {
  for (const name of Object.keys(replace)) {
    if (!(name in API_ROUTES)) throw new Error(`A handler for "${name}", which the route table does not have`);
  }
  return { ...handlers, ...replace };
}

/** Whether a route keeps its parsed queries: only where the key rides in a header (signed URLs' queries are not kept). */
export function keepsParsedQueries(route: ApiRoute): boolean {
  return !!route.query && !!(route.scope || route.keyOnly);
}

function register(app: FastifyInstance, route: ApiRoute, handler: (input: never) => unknown): void {
  const querySchema = route.query;
  const queries =
    querySchema && keepsParsedQueries(route)
      ? new ParsedQueries((query) => parseRequestPart(querySchema, query, 'query'))
      : undefined;
  // The entry's success status (201, 202, 204) is set before the handler runs, so handlers return only the body;
  // an error's own status replaces it, and a handler that answers another documented 2xx sets that itself.
  const status = successStatus(route);
  for (const url of [route.path, ...(route.aliases ?? [])]) {
    app.route({
      method: route.method,
      url,
      bodyLimit: route.bodyLimit,
      config: { api: route.api, scope: route.scope, keyOnly: route.keyOnly, rawBody: route.rawBody ?? false },
      // Not an async function: a handler that answers at once (a list kept in memory) costs no promise and no
      // extra microtask turn; Fastify awaits the promise of one that does not. A parse error thrown here reaches
      // the error handler as a rejection would.
      handler: (req, reply) => {
        if (status !== 200) reply.status(status);
        const input = {
          body: route.body && !route.rawBody ? parseRequestPart(route.body, req.body, 'body') : undefined,
          query: queries
            ? queries.get(req.url, req.query)
            : querySchema
              ? parseRequestPart(querySchema, req.query, 'query')
              : undefined,
          params: route.params ? parseRequestPart(route.params, req.params, 'path') : undefined,
          auth: req.auth as AuthContext,
          req,
          reply,
        };
        const result = handler(input as never);
        // Undefined: an empty answer, as from an async handler. `reply`: the handler answered (or will) itself.
        if (result === undefined && !reply.sent) reply.send();
        return result === reply ? undefined : result;
      },
    });
  }
}

/** Registers the routes of the table (those `which` picks, default all) with their handlers. */
export function registerRoutes(
  app: FastifyInstance,
  handlers: RouteHandlers,
  which: (route: ApiRoute) => boolean = () => true,
): void {
  for (const name of API_ROUTE_NAMES) {
    const route = API_ROUTES[name];
    if (which(route)) register(app, route, handlers[name] as (input: never) => unknown);
  }
}
