// POST /mcp: the MCP Streamable HTTP transport on the local server (same Bearer key and Host guard as every route).
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type { FastifyInstance } from 'fastify';
import { API_ROUTES } from '../../../shared/api/index.js';
import type { BaseCore } from '../base-core.js';
import { bearerKey } from '../http/plugins/auth.js';
import type { FeatureRoutes } from '../http/route.js';
import { answerMalformedRequests } from './mcp-request-guard.js';
import { createMcpServer } from './mcp-server.js';

/**
 * Stateless: every POST carries its own key and gets its own MCP server, so no session outlives a request and no
 * state is shared between keys. A tool's progress notifications stream on the POST's own SSE answer; GET (a
 * standalone stream) and DELETE (ending a session) have nothing to serve and answer 405, as the spec allows, and so
 * do PUT, PATCH and OPTIONS. Protocol errors are JSON-RPC error objects (the transport's own); everything refused
 * before (Host, key, rate limit, an unknown path under /mcp) is in the login-service shape.
 * A missing or wrong key is a 401 in the login-service shape (`AUTHENTICATION_FAILED`, details.reason
 * `invalid_api_key`), before any MCP message is read.
 */
export function mcpRoutes(core: Pick<BaseCore, 'events' | 'log' | 'config'>, app: FastifyInstance) {
  const open = new Set<StreamableHTTPServerTransport>();
  // A long wait_for_generation must not hold the server's shutdown open: closing aborts the tool.
  app.addHook('preClose', async () => {
    await Promise.all([...open].map((t) => t.close()));
  });
  const route = API_ROUTES.mcp;

  // Every other method the router knows is a 405 too (not a 404 of an unknown path); HEAD comes with GET.
  app.route({
    method: ['GET', 'DELETE', 'PUT', 'PATCH', 'OPTIONS'],
    url: route.path,
    config: { api: route.api, scope: route.scope, keyOnly: route.keyOnly },
    handler: async (_req, reply) =>
      reply
        .status(405)
        .header('allow', route.method)
        .send({
          jsonrpc: '2.0',
          error: { code: -32000, message: 'Method not allowed: this MCP endpoint is stateless; send POST.' },
          id: null,
        }),
  });

  return {
    mcp: async ({ req, reply }) => {
      const server = createMcpServer({
        app,
        // The auth hook has accepted this key; the tools call the API with it, so each needs its route's scope.
        apiKey: bearerKey(req.headers.authorization) as string,
        // Loopback (the host guard refused anything else) and the address the caller reached.
        host: req.headers.host as string,
        events: core.events,
        log: core.log,
        allowInlineCredentials: core.config.mcp.allowInlineCredentials,
      });
      const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined });
      open.add(transport);
      reply.raw.on('close', () => {
        open.delete(transport);
        void transport.close();
        void server.close();
      });
      await server.connect(transport);
      answerMalformedRequests(transport);
      reply.hijack();
      try {
        await transport.handleRequest(req.raw, reply.raw, req.body);
      } catch (err) {
        core.log.error({ err: { message: (err as Error).message, stack: (err as Error).stack } }, 'mcp request failed');
        if (!reply.raw.headersSent) {
          reply.raw.writeHead(500, { 'content-type': 'application/json' });
          reply.raw.end(
            JSON.stringify({ jsonrpc: '2.0', error: { code: -32603, message: 'Internal error' }, id: null }),
          );
        } else reply.raw.destroy();
      }
    },
  } satisfies FeatureRoutes;
}
