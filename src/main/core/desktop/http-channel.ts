// One contract channel of kind `http` as a call of its route in the route table, and the API's answer as an
// IpcResult: the argument is parsed with the route's own schemas before anything is sent, the answer with the
// route's success schema (never a guessed shape). Plain Node: never imports electron.
import { z } from 'zod';
import { API_ROUTES, type ApiRoute, type ApiRouteName } from '../../../shared/api/index.js';
import type { IpcResult } from '../../../shared/errors.js';
import type { HttpChannel } from '../../../shared/ipc-contract.js';
import {
  readRouteAnswer,
  routeRequest,
  type ApiAnswer,
  type CoreApi,
  type RouteFailure,
} from '../http/in-process-api.js';
import { zodMessage } from '../http/route.js';

export type IpcFailure = Extract<IpcResult<never>, { ok: false }>;

export const fail = (code: string, message: string, details?: Record<string, unknown>): IpcFailure => ({
  ok: false,
  error: details ? { code, message, details } : { code, message },
});

/**
 * Parses an IPC argument; a mismatch is a `validation_error` result naming each field, never a throw.
 * `details.issues` lists them as the API's 400s do (`{ path, message }`), so the window can mark fields.
 */
export function parseArgs<S extends z.ZodType>(schema: S, raw: unknown): IpcResult<z.output<S>> {
  const res = schema.safeParse(raw);
  if (res.success) return { ok: true, value: res.data };
  const issues = res.error.issues.map((i) => ({ path: i.path.join('.'), message: i.message }));
  return fail('validation_error', zodMessage(res.error, 'argument'), { issues });
}

const argsSchemas = new WeakMap<ApiRoute, z.ZodType>();

/**
 * The IPC argument of an http channel: `{ params, query, body, headers }`, each part its route's own schema
 * (query and headers optional), parts the route does not take refused. Without params or body it may be omitted.
 */
export function httpArgsSchema(channel: HttpChannel): z.ZodType {
  const route: ApiRoute = API_ROUTES[channel.route];
  let schema = argsSchemas.get(route);
  if (!schema) {
    const shape: Record<string, z.ZodType> = {};
    if (route.params) shape.params = route.params;
    if (route.query) shape.query = route.query.optional();
    if (route.body) shape.body = route.body;
    if (route.headers) shape.headers = route.headers.optional();
    const object = z.object(shape).strict();
    schema = route.params || route.body ? object : object.optional();
    argsSchemas.set(route, schema);
  }
  return schema;
}

/** A refusal of the API as an IPC failure: its own code and message, with the status in `details`. */
const failureOf = (f: RouteFailure): IpcFailure => fail(f.code, f.message, { status: f.status, ...f.details });

/**
 * The route's answer as an IpcResult: the success body (null for a 204), or `{ body, headers }` when the route
 * declares answer headers.
 */
export function answerResult(route: ApiRoute, res: ApiAnswer): IpcResult<unknown> {
  const answer = readRouteAnswer(route, res);
  if (!answer.ok) return failureOf(answer);
  return { ok: true, value: route.answerHeaders ? { body: answer.body, headers: answer.headers } : answer.body };
}

/**
 * Calls the route of an http channel with an argument already parsed by httpArgsSchema. The parts are sent as
 * the renderer gave them (the route parses them again, exactly as for an agent).
 */
export function callHttpChannel(api: CoreApi, channel: HttpChannel, args: unknown): Promise<IpcResult<unknown>> {
  return callHttpRoute(api, channel.route, args);
}

/** Calls a route of the table by name, its answer as an IpcResult. */
export async function callHttpRoute(api: CoreApi, name: ApiRouteName, args: unknown): Promise<IpcResult<unknown>> {
  const route: ApiRoute = API_ROUTES[name];
  const res = await api.request(routeRequest(route, (args ?? {}) as object));
  return answerResult(route, res);
}
