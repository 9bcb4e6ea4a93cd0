// One contract channel of kind `http` as a request to the core's HTTP API, and the API's answer as an
// IpcResult: the argument is parsed with the route's own schemas before anything is sent, the answer
// with the shared response schema (never a guessed shape). Plain Node: never imports electron.
import { z } from 'zod';
import type { IpcResult } from '../../../shared/errors.js';
import type { HttpAnswer, HttpChannel } from '../../../shared/ipc-contract.js';
import type { ApiAnswer, CoreApi } from './in-process-api.js';

export type IpcFailure = Extract<IpcResult<never>, { ok: false }>;

export const fail = (code: string, message: string, details?: Record<string, unknown>): IpcFailure => ({
  ok: false,
  error: details ? { code, message, details } : { code, message },
});

const issuesText = (error: z.ZodError, whole: string): string =>
  error.issues.map((i) => `${i.path.length ? i.path.join('.') : whole}: ${i.message}`).join('; ');

/**
 * Parses an IPC argument; a mismatch is a `validation_error` result naming each field, never a throw.
 * `details.issues` lists them as the API's 400s do (`{ path, message }`), so the window can mark fields.
 */
export function parseArgs<S extends z.ZodType>(schema: S, raw: unknown): IpcResult<z.output<S>> {
  const res = schema.safeParse(raw);
  if (res.success) return { ok: true, value: res.data };
  const issues = res.error.issues.map((i) => ({ path: i.path.join('.'), message: i.message }));
  return fail('validation_error', issuesText(res.error, 'argument'), { issues });
}

const argsSchemas = new WeakMap<HttpChannel, z.ZodType>();

/**
 * The IPC argument of an http channel: `{ params, query, body, headers }`, each part the route's own
 * schema (query and headers optional), parts the route does not take refused. Without params or body
 * it may be omitted.
 */
export function httpArgsSchema(channel: HttpChannel): z.ZodType {
  let schema = argsSchemas.get(channel);
  if (!schema) {
    const shape: Record<string, z.ZodType> = {};
    if (channel.params) shape.params = channel.params;
    if (channel.query) shape.query = channel.query.optional();
    if (channel.body) shape.body = channel.body;
    if (channel.headers) shape.headers = channel.headers.optional();
    const object = z.object(shape).strict();
    schema = channel.params || channel.body ? object : object.optional();
    argsSchemas.set(channel, schema);
  }
  return schema;
}

type HttpArgs =
  | {
      params?: Record<string, unknown>;
      query?: Record<string, unknown>;
      body?: unknown;
      headers?: Record<string, string>;
    }
  | undefined;

/** The route's path with its `:params` filled in (percent-encoded) and the query string. */
export function requestUrl(channel: HttpChannel, args: HttpArgs): string {
  const path = channel.path.replace(/:(\w+)/g, (_m, name: string) => {
    const value = args?.params?.[name];
    if (value === undefined) throw new Error(`${channel.path} needs the path parameter ${name}`);
    return encodeURIComponent(String(value));
  });
  const query = new URLSearchParams();
  for (const [k, v] of Object.entries(args?.query ?? {})) if (v !== undefined) query.set(k, String(v));
  const qs = query.toString();
  return qs ? `${path}?${qs}` : path;
}

/** Either API's error body: login `{ error: "UPPER_CODE", message, details }`, video `{ error, message }`. */
const ApiErrorBody = z.object({
  error: z.string(),
  message: z.string(),
  details: z.record(z.string(), z.unknown()).optional(),
});

function parseJson(text: string): { ok: true; value: unknown } | { ok: false } {
  try {
    return { ok: true, value: text ? JSON.parse(text) : undefined };
  } catch {
    return { ok: false };
  }
}

const headerValue = (v: ApiAnswer['headers'][string]) => (Array.isArray(v) ? v[0] : v === undefined ? v : String(v));

/**
 * The answer as an IpcResult. 2xx: the body parsed with `answer` (an unexpected body is an
 * `invalid_response` failure, not a value of the wrong shape). Otherwise the API's own code and
 * message, with the status in `details`.
 */
export function parseAnswer(res: ApiAnswer, answer: HttpAnswer, what: string): IpcResult<unknown> {
  const body = parseJson(res.body);
  if (res.status < 200 || res.status >= 300) {
    const err = body.ok ? ApiErrorBody.safeParse(body.value) : null;
    if (err?.success) return fail(err.data.error, err.data.message, { status: res.status, ...err.data.details });
    return fail(`http_${res.status}`, `The local service answered ${res.status} to ${what}.`, { status: res.status });
  }
  if (answer.kind === 'empty') return { ok: true, value: null };
  const unexpected = (detail: string) =>
    fail('invalid_response', `The local service answered ${what} with an unexpected body: ${detail}`);
  if (!body.ok) return unexpected('not JSON');
  const parsed = answer.schema.safeParse(body.value);
  if (!parsed.success) return unexpected(issuesText(parsed.error, 'body'));
  if (!answer.headers) return { ok: true, value: parsed.data };
  const named = Object.fromEntries(Object.keys(answer.headers.shape).map((h) => [h, headerValue(res.headers[h])]));
  const headers = answer.headers.safeParse(named);
  if (!headers.success) return unexpected(issuesText(headers.error, 'headers'));
  return { ok: true, value: { body: parsed.data, headers: headers.data } };
}

/** parseAnswer for a JSON answer, typed by its schema. */
export const parseJsonAnswer = <S extends z.ZodType>(res: ApiAnswer, schema: S, what: string) =>
  parseAnswer(res, { kind: 'json', schema }, what) as IpcResult<z.output<S>>;

/**
 * Calls the route of an http channel with an argument already parsed by httpArgsSchema. The parts
 * are sent as the renderer gave them (the route parses them again, exactly as for an agent).
 */
export async function callHttpChannel(api: CoreApi, channel: HttpChannel, args: unknown): Promise<IpcResult<unknown>> {
  const parts = args as HttpArgs;
  const hasBody = channel.body !== undefined;
  // Only the headers the channel declares reach the route (the argument schema refused any other).
  const headers: Record<string, string> = { ...(channel.headers ? parts?.headers : {}) };
  if (hasBody) headers['content-type'] = 'application/json';
  const res = await api.request({
    method: channel.method,
    url: requestUrl(channel, parts),
    ...(Object.keys(headers).length ? { headers } : {}),
    ...(hasBody ? { body: JSON.stringify(parts?.body) } : {}),
  });
  return parseAnswer(res, channel.answer, `${channel.method} ${channel.path}`);
}
