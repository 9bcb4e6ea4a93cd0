// What every MCP tool file shares: the registration with annotations, results, and API errors as tool errors.
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { RequestHandlerExtra } from '@modelcontextprotocol/sdk/shared/protocol.js';
import {
  CallToolRequestSchema,
  ErrorCode,
  ListToolsRequestSchema,
  McpError,
  type CallToolResult,
  type ServerNotification,
  type ServerRequest,
} from '@modelcontextprotocol/sdk/types.js';
import type { CoreEventBus } from '../events.js';
import type { Logger } from '../logger.js';
import { ApiCallError, type CoreApi } from '../http/in-process-api.js';
import type { McpFileAccess } from './mcp-files.js';
import { TOOL_ANNOTATIONS } from './mcp-annotations.js';
import { toolAllowed } from './mcp-tool-scopes.js';

export interface McpToolDeps {
  api: CoreApi;
  /** The core's event bus, when the server runs in the core's process: the waiting tools wake on its events. */
  events?: CoreEventBus;
  log?: Logger;
  /**
   * Files of this machine (stdio only, see mcp-files.ts): the session tools' `path` and upload_file exist only
   * with it. Over HTTP a key never reaches the server's disk: uploads go through presign_upload.
   */
  files?: McpFileAccess;
  /** login takes inline `cred` too (config mcp.allowInlineCredentials); otherwise only a saved login's reference. */
  allowInlineCredentials?: boolean;
  /** Takeover links in the text content too (config mcp.takeoverLinksInContent, default true), not only structured. */
  takeoverLinksInContent?: boolean;
  /**
   * Said after a result's links (stdio): null while they point at the running server of the data dir, else that
   * they die with this process (mcp-link-host.ts).
   */
  linkNote?: () => Promise<string | null>;
  /**
   * The calling key's scopes when the server was made: only the tools whose routes they allow are registered
   * (mcp-tool-scopes.ts), so tools/list offers what the key can call.
   */
  scopes: readonly string[];
}

export type Extra = RequestHandlerExtra<ServerRequest, ServerNotification>;

export const ok = (text: string, data: object): CallToolResult => ({
  content: [{ type: 'text', text }],
  structuredContent: data as Record<string, unknown>,
});

/** A tool error of this server's own (not an API answer): `CODE: message`. */
export const failure = (code: string, message: string): CallToolResult => ({
  isError: true,
  content: [{ type: 'text', text: `${code}: ${message}` }],
});

/** A 4xx/5xx of the API becomes a tool error whose text starts with the API's code: `not_found: No template x`. */
export function toolError(err: unknown, log: Logger | undefined, tool: string): CallToolResult {
  if (err instanceof ApiCallError) {
    // Status 0: an error the API reported without an HTTP answer of its own (a background login's error body).
    const status = err.status ? ` (HTTP ${err.status})` : '';
    return { isError: true, content: [{ type: 'text', text: `${err.code}: ${err.message}${status}` }] };
  }
  log?.error({ tool, err: { message: (err as Error).message, stack: (err as Error).stack } }, 'mcp tool failed');
  return {
    isError: true,
    content: [{ type: 'text', text: 'server_error: Unexpected error in the MCP tool. See the log file for details.' }],
  };
}

export interface ToolKit {
  /** registerTool with the tool's annotations (mcp-annotations.ts); a tool the key's scopes do not allow is skipped. */
  register: McpServer['registerTool'];
  /** A handler whose thrown errors become tool errors. */
  safe<A>(
    tool: string,
    run: (args: A, extra: Extra) => Promise<CallToolResult>,
  ): (args: A, extra: Extra) => Promise<CallToolResult>;
  /** After the last register: a key allowed no tool still gets an empty tools/list, not "method not found". */
  finish(): void;
}

export function toolKit(server: McpServer, log: Logger | undefined, scopes: readonly string[]): ToolKit {
  let registered = 0;
  const register = ((name: string, config: Record<string, unknown>, cb: unknown) => {
    // Not registered at all, not only left out of tools/list: a call of it is an unknown tool, as for any other key.
    if (!toolAllowed(name, scopes)) return undefined;
    registered++;
    return server.registerTool(name, { ...config, annotations: TOOL_ANNOTATIONS[name] }, cb as never);
  }) as unknown as McpServer['registerTool'];
  return {
    register,
    finish() {
      // McpServer sets up tools/list and tools/call with its first tool; the capability is declared anyway.
      if (registered > 0) return;
      server.server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: [] }));
      server.server.setRequestHandler(CallToolRequestSchema, (req) => ({
        isError: true,
        content: [
          { type: 'text', text: new McpError(ErrorCode.InvalidParams, `Tool ${req.params.name} not found`).message },
        ],
      }));
    },
    safe:
      <A>(tool: string, run: (args: A, extra: Extra) => Promise<CallToolResult>) =>
      async (args: A, extra: Extra): Promise<CallToolResult> => {
        try {
          return await run(args, extra);
        } catch (err) {
          return toolError(err, log, tool);
        }
      },
  };
}

/** Sends notifications/progress when the call asked for them (a progressToken); progress must only go up. */
export function progressReporter(extra: Extra): (message: string) => Promise<void> {
  const progressToken = extra._meta?.progressToken;
  let progress = 0;
  return async (message) => {
    if (progressToken === undefined) return;
    progress += 1;
    await extra.sendNotification({ method: 'notifications/progress', params: { progressToken, progress, message } });
  };
}
