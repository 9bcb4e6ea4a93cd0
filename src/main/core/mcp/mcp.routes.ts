// /mcp: the MCP Streamable HTTP transport on the local server (same Bearer key and Host guard as every route).
import { randomUUID } from 'node:crypto';
import type { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { API_ROUTES } from '../../../shared/api/index.js';
import type { BaseCore } from '../base-core.js';
import { bearerKey } from '../http/plugins/auth.js';
import type { FeatureRoutes } from '../http/route.js';
import { lazyModule } from '../lazy-module.js';
import { McpSessions, type McpSession } from './mcp-sessions.js';

const ALLOW = 'GET, POST, DELETE';

/**
 * The MCP SDK (with hono, its HTTP layer), the MCP server and its tools (got, for upload_file) are loaded by the
 * first POST to /mcp, not at start: a server no MCP client talks to never loads them. Only a POST creates a
 * transport; a GET or DELETE names a session, which a POST opened.
 */
const loadMcp = lazyModule(async () => {
  const [{ StreamableHTTPServerTransport }, { isInitializeRequest }, { createMcpServer }, { answerMalformedRequests }] =
    await Promise.all([
      import('@modelcontextprotocol/sdk/server/streamableHttp.js'),
      import('@modelcontextprotocol/sdk/types.js'),
      import('./mcp-server.js'),
      import('./mcp-request-guard.js'),
    ]);
  return { StreamableHTTPServerTransport, isInitializeRequest, createMcpServer, answerMalformedRequests };
});
type Mcp = Awaited<ReturnType<typeof loadMcp>>;

const sessionIdOf = (req: FastifyRequest) => {
  const id = req.headers['mcp-session-id'];
  return typeof id === 'string' && id ? id : undefined;
};

const opensSession = ({ isInitializeRequest }: Mcp, body: unknown) =>
  Array.isArray(body) ? body.some((m) => isInitializeRequest(m)) : isInitializeRequest(body);

/** A protocol error of the endpoint itself, as the SDK's transport answers them (a JSON-RPC error object). */
const rpcError = (reply: FastifyReply, status: number, code: number, message: string) =>
  reply.status(status).send({ jsonrpc: '2.0', error: { code, message }, id: null });

/**
 * Sessions, so that a request of the server to the client (an elicitation, sent on a tool call's SSE stream) can
 * be answered by the client's next POST. An `initialize` POST opens a session: the answer carries its
 * Mcp-Session-Id, and the POSTs, the GET (the session's own SSE stream) and the DELETE (its end) that carry it go
 * to that session's MCP server. A session belongs to the API key that opened it: another key's — or an unknown,
 * expired or ended — session id is a 404 `Session not found` (JSON-RPC -32001), after the key check (401 as for
 * every route). Sessions close after 30 minutes without an open request; a key keeps at most 100 (a new one
 * closes its longest-idle one).
 *
 * A POST without a session id that is not an initialize is served on its own, as before sessions (one MCP server
 * for that request only): scripts that send a single `tools/call` keep working, without elicitation (the server
 * knows nothing of the client's capabilities). GET and DELETE without a session id are a 400. Everything refused
 * before the transport (Host, key, rate limit, an unknown path under /mcp) is in the login-service shape.
 */
export function mcpRoutes(core: Pick<BaseCore, 'events' | 'log' | 'config'>, app: FastifyInstance) {
  const sessions = new McpSessions();
  /** One-request servers, and sessions whose initialize is still being answered. */
  const unnamed = new Set<StreamableHTTPServerTransport>();
  // A long tool call must not hold the server's shutdown open: closing aborts it.
  app.addHook('preClose', async () => {
    await Promise.all([sessions.closeAll(), ...[...unnamed].map((t) => t.close())]);
  });
  const route = API_ROUTES.mcp;
  const config = { api: route.api, scope: route.scope, keyOnly: route.keyOnly };

  const newServer = ({ createMcpServer }: Mcp, req: FastifyRequest) =>
    createMcpServer({
      app,
      // The auth hook has accepted this key; the tools call the API with it, so each needs its route's scope.
      apiKey: bearerKey(req.headers.authorization) as string,
      // Loopback (the host guard refused anything else) and the address the caller reached.
      host: req.headers.host as string,
      events: core.events,
      log: core.log,
      allowInlineCredentials: core.config.mcp.allowInlineCredentials,
      takeoverLinksInContent: core.config.mcp.takeoverLinksInContent,
      scopes: req.auth?.scopes ?? [],
    });

  /** Hands the request to the transport (which answers it, or streams the answer). */
  const serve = async (transport: StreamableHTTPServerTransport, req: FastifyRequest, reply: FastifyReply) => {
    reply.hijack();
    try {
      await transport.handleRequest(req.raw, reply.raw, req.body);
    } catch (err) {
      core.log.error({ err: { message: (err as Error).message, stack: (err as Error).stack } }, 'mcp request failed');
      if (!reply.raw.headersSent) {
        reply.raw.writeHead(500, { 'content-type': 'application/json' });
        reply.raw.end(JSON.stringify({ jsonrpc: '2.0', error: { code: -32603, message: 'Internal error' }, id: null }));
      } else reply.raw.destroy();
    }
  };

  /** The caller's session named by Mcp-Session-Id, or the refusal already sent. */
  const sessionFor = (req: FastifyRequest, reply: FastifyReply, id: string): McpSession | undefined => {
    const session = sessions.get(id, req.auth!.keyId);
    if (!session) void rpcError(reply, 404, -32001, 'Session not found');
    else sessions.track(session, reply.raw);
    return session;
  };

  /** An initialize: a new session, registered under its id once the transport gives it one. */
  const openSession = async (mcp: Mcp, req: FastifyRequest, reply: FastifyReply) => {
    const keyId = req.auth!.keyId;
    await sessions.makeRoom(keyId);
    const server = newServer(mcp, req);
    const entry = { server, keyId, lastSeen: Date.now(), open: 0 } as McpSession;
    const transport = new mcp.StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: (id) => {
        unnamed.delete(transport);
        sessions.add(id, entry);
      },
    });
    entry.transport = transport;
    transport.onclose = () => {
      unnamed.delete(transport);
      sessions.remove(transport.sessionId);
      void server.close();
    };
    unnamed.add(transport);
    sessions.track(entry, reply.raw);
    // An initialize the transport refused (a batch, bad params) named no session: nothing may linger.
    reply.raw.once('close', () => {
      if (!transport.sessionId) void transport.close();
    });
    await server.connect(transport);
    mcp.answerMalformedRequests(transport);
    await serve(transport, req, reply);
  };

  /** A POST outside any session: its own MCP server, closed with its answer. */
  const serveOnce = async (mcp: Mcp, req: FastifyRequest, reply: FastifyReply) => {
    const server = newServer(mcp, req);
    const transport = new mcp.StreamableHTTPServerTransport({ sessionIdGenerator: undefined });
    unnamed.add(transport);
    reply.raw.on('close', () => {
      unnamed.delete(transport);
      void transport.close();
      void server.close();
    });
    await server.connect(transport);
    mcp.answerMalformedRequests(transport);
    await serve(transport, req, reply);
  };

  // GET: the session's standalone SSE stream (server requests and notifications outside a tool call); DELETE: its
  // end. HEAD is not GET here (it would open a stream without a body to read).
  app.route({
    method: ['GET', 'DELETE'],
    url: route.path,
    config,
    exposeHeadRoute: false,
    handler: async (req, reply) => {
      const id = sessionIdOf(req);
      if (!id)
        return rpcError(
          reply,
          400,
          -32000,
          'Bad Request: Mcp-Session-Id header is required (POST an initialize request to open a session).',
        );
      const session = sessionFor(req, reply, id);
      if (session) await serve(session.transport, req, reply);
    },
  });

  // Every other method the router knows is a 405 (not a 404 of an unknown path).
  app.route({
    method: ['HEAD', 'PUT', 'PATCH', 'OPTIONS'],
    url: route.path,
    config,
    handler: async (_req, reply) =>
      reply
        .status(405)
        .header('allow', ALLOW)
        .send({ jsonrpc: '2.0', error: { code: -32000, message: `Method not allowed: send ${ALLOW}.` }, id: null }),
  });

  return {
    mcp: async ({ req, reply }) => {
      const id = sessionIdOf(req);
      if (id) {
        const session = sessionFor(req, reply, id);
        if (session) await serve(session.transport, req, reply);
        return;
      }
      const mcp = await loadMcp();
      if (opensSession(mcp, req.body)) await openSession(mcp, req, reply);
      else await serveOnce(mcp, req, reply);
    },
  } satisfies FeatureRoutes;
}
