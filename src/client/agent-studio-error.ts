import { z } from 'zod';

/**
 * Both documented error bodies: the login service's `{ error: "UPPER_CODE", message, details }` and the
 * video service's `{ error: "lower_code", message }` (details absent). One loose schema reads either.
 */
const ApiErrorBodySchema = z.object({
  error: z.string(),
  message: z.string(),
  details: z.record(z.string(), z.unknown()).optional(),
});

/** Codes the client itself uses (with status 0 when no HTTP answer was involved). */
export const CLIENT_ERROR_CODES = {
  /** fetch failed: the server is not running, or the connection dropped. */
  network: 'network_error',
  /** A success answer that does not match the client's schema: client and server versions differ. */
  invalidResponse: 'invalid_response',
  /** An error answer without a documented body (e.g. from S3 or a proxy). */
  http: 'http_error',
  /** generations.waitFor gave up before the generation finished. */
  waitTimeout: 'wait_timeout',
  aborted: 'aborted',
} as const;

/**
 * Every failure of the typed client. `code` is the API's code as sent (`AUTHENTICATION_FAILED` from
 * the login service, `not_found` from the video service) or one of CLIENT_ERROR_CODES.
 */
export class AgentStudioError extends Error {
  override readonly name = 'AgentStudioError';
  /** The HTTP status; 0 when the request got no answer (network error, time-out, abort). */
  readonly status: number;
  readonly code: string;
  /** The login service's `details` (e.g. `{ reason: 'invalid_credentials' }`); `{}` otherwise. */
  readonly details: Record<string, unknown>;

  constructor(init: { status: number; code: string; message: string; details?: Record<string, unknown> }) {
    super(init.message);
    this.status = init.status;
    this.code = init.code;
    this.details = init.details ?? {};
  }
}

/** The error of a non-success answer. `what` names the request ("GET /api/templates/x") without secrets. */
export async function errorFromResponse(res: Response, what: string): Promise<AgentStudioError> {
  const text = await res.text().catch(() => '');
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  const body = ApiErrorBodySchema.safeParse(json);
  if (body.success) {
    const { error, message, details } = body.data;
    return new AgentStudioError({ status: res.status, code: error, message, details });
  }
  return new AgentStudioError({
    status: res.status,
    code: CLIENT_ERROR_CODES.http,
    message: `${what} failed with HTTP ${res.status} ${res.statusText}`.trim(),
  });
}
