import { CreditsSchema } from '../credits.schema.js';
import { z } from 'zod';
import { defineApiRoutes } from './api-route.js';

const Health = z.object({
  status: z.literal('ok'),
  version: z.string(),
  uptime_sec: z.number(),
  secrets: z
    .enum(['ok', 'missing', 'unavailable', 'checking'])
    .describe(
      'Whether every secret this data dir stored is in the secret store: missing after a move to another computer ' +
        'or a restore without them (see secrets_missing), unavailable when the store cannot be reached, checking ' +
        'until the first look after the start',
    ),
  secrets_missing: z
    .number()
    .int()
    .nullable()
    .describe('How many stored secrets the secret store lacks (null unless known)'),
  data_dir_proof: z
    .string()
    .optional()
    .describe('With `challenge`: HMAC of it that only a process of the same data dir can compute (hex)'),
});

const HealthQuery = z.object({
  challenge: z
    .string()
    .regex(/^[0-9a-f]{64}$/, 'challenge must be 64 lower-case hex digits')
    .optional()
    .describe(
      'A random challenge: the answer then carries data_dir_proof, by which an MCP server on stdio knows the ' +
        'server of its own data dir (never its path) from any other program on that port',
    ),
});

/** Health, credits, the OpenAPI document and the MCP endpoint. */
export const SYSTEM_API = defineApiRoutes({
  health: {
    method: 'GET',
    path: '/healthz',
    api: 'video',
    scope: null,
    summary: 'Liveness check (no key needed)',
    tags: ['system'],
    query: HealthQuery,
    responses: { 200: { description: 'The server is up', schema: Health } },
  },

  credits: {
    method: 'GET',
    path: '/api/credits',
    api: 'video',
    scope: 'credits:read',
    summary: "The organization's credit balance and its latest ledger entries",
    tags: ['credits'],
    responses: { 200: { description: 'Balance and the newest 50 ledger entries', schema: CreditsSchema } },
  },

  openapi: {
    method: 'GET',
    path: '/api/openapi.json',
    api: 'video',
    scope: null,
    summary: 'This document: every route, its scope, request and answer schemas',
    tags: ['system'],
    undocumented: true,
    responses: { 200: { description: 'OpenAPI 3.1 document' } },
  },

  /**
   * The same document as a page to read in a browser (Scalar's API reference, served from this server: it works
   * offline). No key to read it; its try-it-out calls carry the key the person pastes into it.
   */
  apiReference: {
    method: 'GET',
    path: '/docs',
    api: 'video',
    scope: null,
    summary: 'The API reference: this document as a web page (HTML; no key needed to read it)',
    tags: ['system'],
    undocumented: true,
    responses: { 200: { description: 'text/html' } },
  },

  apiReferenceScript: {
    method: 'GET',
    path: '/docs/scalar.js',
    api: 'video',
    scope: null,
    summary: "The API reference page's script (Scalar's standalone bundle)",
    tags: ['system'],
    undocumented: true,
    responses: { 200: { description: 'text/javascript' } },
  },

  /**
   * The MCP Streamable HTTP transport (stateless; other methods answer 405). A key is needed, no scope: each tool
   * checks its own route's scope with the caller's key.
   */
  mcp: {
    method: 'POST',
    path: '/mcp',
    api: 'login',
    scope: null,
    keyOnly: true,
    rawBody: false,
    summary: 'MCP (Streamable HTTP, JSON-RPC 2.0): the tools of the login and video services',
    description:
      'An initialize POST opens a session (answer header Mcp-Session-Id, bound to the API key that opened it); ' +
      'POSTs with that header go to the session (a tool call may ask the client for input, and the client answers ' +
      'with its next POST), GET opens its SSE stream, DELETE ends it. Another key’s, an unknown or an expired ' +
      'session id is a 404 (sessions idle 30 minutes close; 100 per key). A POST without a session id that is not ' +
      'an initialize is served on its own (no elicitation); GET and DELETE without one are a 400.',
    tags: ['mcp'],
    undocumented: true,
    responses: { 200: { description: 'A JSON-RPC answer, or an SSE stream of progress and the answer' } },
  },
});
