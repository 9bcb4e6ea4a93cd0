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

export const badRequest = (message: string, details: Record<string, unknown> = {}) =>
  new AppError(400, 'validation_error', message, details);
export const notFound = (message = 'Resource not found') => new AppError(404, 'not_found', message);
export const unauthorized = () =>
  new AppError(401, 'unauthorized', 'Missing or invalid API key. Send Authorization: Bearer <API_KEY>.');
export const forbidden = (scope: string) =>
  new AppError(403, 'forbidden', `This API key lacks the required scope "${scope}".`, { required_scope: scope });
