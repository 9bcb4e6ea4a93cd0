// The server's OpenAPI document as tests read it, for checks that a route table (the typed client, the
// IPC contract) matches what the server documents.

export type Json = Record<string, unknown>;

export interface Operation {
  summary: string;
  /** One scope, or the list of all the scopes a route needs. */
  'x-required-scope'?: string | string[];
  parameters?: { name: string; in: string; required: boolean; schema: Json }[];
  requestBody?: { content: Record<string, { schema: Json }> };
  responses: Record<string, { content?: Record<string, { schema: Json }>; headers?: Record<string, unknown> }>;
}

export interface Document {
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: Record<string, Json> };
}

/** A Fastify-style path (`:id`, trailing `*`) as the OpenAPI document writes it. */
export const openApiPath = (path: string): string => path.replace(/:(\w+)/g, '{$1}').replace(/\*$/, '{key}');

/** A schema with every component it references (transitively), so two documents compare by id and content. */
export function closure(schema: Json | undefined, doc: Document): { schema?: Json; components: Record<string, Json> } {
  const components: Record<string, Json> = {};
  const visit = (v: unknown): void => {
    if (Array.isArray(v)) return v.forEach(visit);
    if (!v || typeof v !== 'object') return;
    for (const [k, val] of Object.entries(v)) {
      if (k === '$ref' && typeof val === 'string') {
        const id = val.replace('#/components/schemas/', '');
        if (!(id in components)) {
          components[id] = doc.components.schemas[id];
          visit(components[id]);
        }
      } else visit(val);
    }
  };
  visit(schema);
  return { schema, components };
}
