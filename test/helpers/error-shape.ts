/** Reading /api/openapi.json and checking error bodies against the shape it documents for each route. */

export type ApiShape = 'login' | 'video';

/** The parts of the OpenAPI document the error tests walk. */
export interface OpenApiOperation {
  parameters?: { name: string; in: 'path' | 'query'; required?: boolean; schema?: JsonSchema }[];
  requestBody?: { content: Record<string, { schema: JsonSchema }> };
  responses: Record<string, { content?: Record<string, { schema: JsonSchema }> }>;
  security?: unknown[];
}
export interface JsonSchema {
  $ref?: string;
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  enum?: unknown[];
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
}
export interface OpenApiDocument {
  paths: Record<string, Record<string, OpenApiOperation>>;
  components: { schemas: Record<string, JsonSchema> };
}

export interface DocumentedRoute {
  method: string;
  /** OpenAPI path, e.g. /api/templates/{id}. */
  path: string;
  op: OpenApiOperation;
  shape: ApiShape;
}

/** The error body a route documents: the schema of its `default` response (LoginError or VideoError). */
export function documentedShape(op: OpenApiOperation): ApiShape {
  const ref = op.responses.default?.content?.['application/json']?.schema.$ref;
  if (ref === '#/components/schemas/LoginError') return 'login';
  if (ref === '#/components/schemas/VideoError') return 'video';
  throw new Error(`the operation documents no error body (default response): ${JSON.stringify(op.responses)}`);
}

/** Every operation of the document with the error shape it documents. */
export function documentedRoutes(doc: OpenApiDocument): DocumentedRoute[] {
  return Object.entries(doc.paths).flatMap(([path, methods]) =>
    Object.entries(methods).map(([method, op]) => ({
      method: method.toUpperCase(),
      path,
      op,
      shape: documentedShape(op),
    })),
  );
}

/**
 * Why `body` is not an error body of `shape` (login: exactly {error: UPPER_CODE, message, details: object};
 * video: exactly {error: lower_code, message}), or null when it is.
 */
export function errorShapeProblem(body: unknown, shape: ApiShape): string | null {
  if (!body || typeof body !== 'object' || Array.isArray(body)) return `not a JSON object: ${JSON.stringify(body)}`;
  const b = body as Record<string, unknown>;
  const keys = Object.keys(b).sort().join(',');
  if (shape === 'login') {
    if (keys !== 'details,error,message') return `login body keys are ${keys}`;
    if (typeof b.error !== 'string' || !/^[A-Z][A-Z0-9_]*$/.test(b.error)) return `login error code ${String(b.error)}`;
    if (!b.details || typeof b.details !== 'object' || Array.isArray(b.details)) return 'login details not an object';
  } else {
    if (keys !== 'error,message') return `video body keys are ${keys}`;
    if (typeof b.error !== 'string' || !/^[a-z][a-z0-9_]*$/.test(b.error)) return `video error code ${String(b.error)}`;
  }
  if (typeof b.message !== 'string' || !b.message) return 'message is not a non-empty string';
  return null;
}
