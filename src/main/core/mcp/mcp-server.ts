// The MCP server of Agent Studio: the same tools over stdio (src/main/mcp.ts) and Streamable HTTP (mcp.routes.ts).
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { FastifyInstance } from 'fastify';
import { APP_VERSION } from '../../../shared/version.js';
import type { CoreEventBus } from '../events.js';
import type { Logger } from '../logger.js';
import { createInProcessApi } from '../http/in-process-api.js';
import type { McpFileAccess } from './mcp-files.js';
import { registerMcpTools } from './mcp-tools.js';

export interface McpServerOptions {
  /** The Fastify app of the local API (built by buildServer): every tool calls its routes in process. */
  app: FastifyInstance;
  /** The caller's API key; each tool needs its route's scope. */
  apiKey: string;
  /**
   * Loopback Host the calls carry, naming the address the server listens on (presigned URLs are built from it);
   * a function is asked before each call (stdio: the running server of the data dir, mcp-link-host.ts).
   */
  host: string | (() => Promise<string>);
  /** Where the links in results point and how long they last (stdio), added to the server's instructions. */
  linkLifetimeNote?: string;
  /** Said after a result's links while they die with this process (stdio, mcp-link-host.ts); null otherwise. */
  linkNote?: () => Promise<string | null>;
  events?: CoreEventBus;
  log?: Logger;
  /** Files of this machine: given by the stdio server only (mcp-files.ts says why), never over HTTP. */
  files?: McpFileAccess;
  /** The login tool also takes inline `cred` (config mcp.allowInlineCredentials); default: saved logins only. */
  allowInlineCredentials?: boolean;
  /** Takeover links in the tools' text content too (config mcp.takeoverLinksInContent); default true. */
  takeoverLinksInContent?: boolean;
  /** The key's scopes: only the tools whose routes they allow exist for it (mcp-tool-scopes.ts). */
  scopes: readonly string[];
}

export function createMcpServer(opts: McpServerOptions): McpServer {
  const server = new McpServer(
    { name: 'agent-studio', title: 'Agent Studio', version: APP_VERSION },
    {
      capabilities: { tools: {} },
      instructions:
        'Agent Studio runs a login service (list_credentials, login, wait_for_login, list_sessions, validate_session, ' +
        'refresh_session) and a video service ' +
        `(list_templates, get_template, presign_upload${opts.files ? ', upload_file' : ''}, quote_video, generate_video, create_generation, get_generation, ` +
        'wait_for_generation) on this machine. Errors start with the API error code, e.g. "not_found: ...". ' +
        'When login answers status "needs_person", show its takeover_url to your user, then call wait_for_login.' +
        (opts.linkLifetimeNote ? ` ${opts.linkLifetimeNote}` : ''),
    },
  );
  registerMcpTools(server, {
    api: createInProcessApi({ app: opts.app, key: opts.apiKey, host: opts.host }),
    events: opts.events,
    log: opts.log,
    files: opts.files,
    allowInlineCredentials: opts.allowInlineCredentials ?? false,
    takeoverLinksInContent: opts.takeoverLinksInContent ?? true,
    linkNote: opts.linkNote,
    scopes: opts.scopes,
  });
  return server;
}
