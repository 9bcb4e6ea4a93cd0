import { CreditsSchema } from '../credits.schema.js';
import { z } from 'zod';
import { defineApiRoutes } from './api-route.js';

const Health = z.object({ status: z.literal('ok'), version: z.string(), uptime_sec: z.number() });

/** Health, credits, the OpenAPI document and the MCP endpoint. */
export const SYSTEM_API = defineApiRoutes({
  health: {
    method: 'GET',
    path: '/healthz',
    api: 'video',
    scope: null,
    summary: 'Liveness check (no key needed)',
    tags: ['system'],
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
    tags: ['mcp'],
    undocumented: true,
    responses: { 200: { description: 'A JSON-RPC answer, or an SSE stream of progress and the answer' } },
  },
});
