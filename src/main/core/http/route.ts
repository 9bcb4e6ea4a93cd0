import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { z } from 'zod';
import type { ErrorShape } from '../../../shared/errors.js';
import type { Scope } from '../../../shared/scopes.js';
import type { AuthContext } from '../tenancy/api-keys.service.js';
import { badRequest } from '../errors.js';
import type { OpenApiRegistry } from './openapi.js';

export type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export interface RouteSpec<
  B extends z.ZodType | undefined,
  Q extends z.ZodType | undefined,
  P extends z.ZodType | undefined,
> {
  method: Method;
  url: string;
  /** Extra paths answering the same handler (e.g. POST /login for POST /api/login). */
  aliases?: string[];
  /** Which documented error body this route renders. */
  api: ErrorShape;
  /** Required scope; `null` means no API key is needed. */
  scope: Scope | null;
  summary: string;
  description?: string;
  tags: string[];
  body?: B;
  query?: Q;
  params?: P;
  /** Response documentation, by status. */
  responses: Record<number, { description: string; schema?: z.ZodType; headers?: Record<string, string> }>;
  bodyLimit?: number;
  /** Raw body handling (the route parses the stream itself, e.g. uploads and multipart). */
  rawBody?: boolean;
  /** Request content types documented for the body (default application/json). */
  contentTypes?: string[];
}

type Infer<T> = T extends z.ZodType ? z.infer<T> : undefined;

export interface RouteInput<B, Q, P> {
  body: B;
  query: Q;
  params: P;
  /** Present on every route with a scope. */
  auth: AuthContext;
  req: FastifyRequest;
  reply: FastifyReply;
}

export function zodMessage(error: z.ZodError): string {
  return error.issues
    .map((i) => {
      const where = i.path.length ? i.path.join('.') : 'body';
      return `${where}: ${i.message}`;
    })
    .join('; ');
}

function parsePart<T extends z.ZodType>(schema: T, value: unknown, part: string): z.infer<T> {
  const res = schema.safeParse(value ?? (part === 'body' ? undefined : {}));
  if (!res.success) {
    throw badRequest(`Invalid ${part}: ${zodMessage(res.error)}`, {
      issues: res.error.issues.map((i) => ({ path: i.path.join('.'), message: i.message })),
    });
  }
  return res.data;
}

/**
 * Registers a route whose input is parsed by the same zod schemas that feed the OpenAPI document.
 * Handlers return the 200 body (or call reply themselves and return `reply`).
 */
export function defineRoute<
  B extends z.ZodType | undefined = undefined,
  Q extends z.ZodType | undefined = undefined,
  P extends z.ZodType | undefined = undefined,
>(
  app: FastifyInstance,
  registry: OpenApiRegistry,
  spec: RouteSpec<B, Q, P>,
  handler: (input: RouteInput<Infer<B>, Infer<Q>, Infer<P>>) => unknown,
): void {
  registry.add(spec);
  for (const url of [spec.url, ...(spec.aliases ?? [])]) {
    app.route({
      method: spec.method,
      url,
      bodyLimit: spec.bodyLimit,
      config: { api: spec.api, scope: spec.scope, rawBody: spec.rawBody ?? false },
      handler: async (req, reply) => {
        const input = {
          body: spec.body && !spec.rawBody ? parsePart(spec.body, req.body, 'body') : undefined,
          query: spec.query ? parsePart(spec.query, req.query, 'query') : undefined,
          params: spec.params ? parsePart(spec.params, req.params, 'path') : undefined,
          auth: req.auth as AuthContext,
          req,
          reply,
        } as RouteInput<Infer<B>, Infer<Q>, Infer<P>>;
        return handler(input);
      },
    });
  }
}
