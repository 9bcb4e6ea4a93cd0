import { ERROR_CODE_STATUS } from '../../shared/errors.js';

/**
 * The one application error. `code` is lower_snake; the HTTP error handler renders it in the
 * documented shape of the API the route belongs to (login: UPPER_CODE + details, video: lower_code).
 */
export class AppError extends Error {
  readonly status: number;
  readonly code: string;
  readonly details: Record<string, unknown>;
  /** Extra response headers (e.g. Retry-After). */
  readonly headers: Record<string, string>;

  constructor(
    status: number,
    code: string,
    message: string,
    details: Record<string, unknown> = {},
    headers: Record<string, string> = {},
  ) {
    super(message);
    this.name = 'AppError';
    this.status = status;
    this.code = code;
    this.details = details;
    this.headers = headers;
  }
}

/**
 * What a validation error says, for a caller that is not an HTTP client (the CLI): its `details.issues` (each a
 * field and a message) as `field: message; …`, without the route's "Invalid body: " framing; else its message.
 */
export function issuesText(err: AppError): string {
  const issues = err.details.issues as { path: string; message: string }[] | undefined;
  return issues?.length ? issues.map((i) => (i.path ? `${i.path}: ${i.message}` : i.message)).join('; ') : err.message;
}

export const badRequest = (message: string, details: Record<string, unknown> = {}) =>
  new AppError(ERROR_CODE_STATUS.validation_error, 'validation_error', message, details);
export const notFound = (message = 'Resource not found') =>
  new AppError(ERROR_CODE_STATUS.not_found, 'not_found', message);
/**
 * A missing or wrong API key. WWW-Authenticate (RFC 6750) says it plainly, so an MCP client shows "invalid API key"
 * rather than starting an OAuth flow of its own.
 */
export const unauthorized = () =>
  new AppError(
    ERROR_CODE_STATUS.unauthorized,
    'unauthorized',
    'Missing or invalid API key. Send Authorization: Bearer <API_KEY>.',
    {},
    {
      'WWW-Authenticate':
        'Bearer realm="agent-studio", error="invalid_token", error_description="Missing or invalid API key: send ' +
        'Authorization: Bearer pk_... (an Agent Studio API key)"',
    },
  );
export const forbidden = (scope: string) =>
  new AppError(ERROR_CODE_STATUS.forbidden, 'forbidden', `This API key lacks the required scope "${scope}".`, {
    required_scope: scope,
  });
