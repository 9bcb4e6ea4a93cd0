// tools/list offers only the tools the calling key can call (docs/security.md#mcp-offers-only-what-the-key-can-call): each tool is a call of routes of the
// route table, and a key sees a tool only when its scopes allow every one of them (mcp-tool-scopes.ts). Over
// Streamable HTTP (POST /mcp), with the SDK's own client.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TOOL_ANNOTATIONS } from '../../../src/main/core/mcp/mcp-annotations.js';
import { TOOL_ROUTES, toolAllowed } from '../../../src/main/core/mcp/mcp-tool-scopes.js';
import { callTool, MCP_HTTP_TOOL_NAMES, textOf } from '../../helpers/mcp-agent.js';
import { startTestServer, type TestServer } from '../../helpers/test-server.js';

let t: TestServer;
const clients: Client[] = [];

beforeAll(async () => {
  t = await startTestServer();
});
afterAll(async () => {
  await Promise.all(clients.map((c) => c.close()));
  await t?.close();
});

async function connect(key: string): Promise<Client> {
  const client = new Client({ name: 'mcp-scopes-test', version: '1.0.0' });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(`${t.url}/mcp`), {
      requestInit: { headers: { authorization: `Bearer ${key}` } },
    }),
  );
  clients.push(client);
  return client;
}

const toolNames = async (client: Client) => (await client.listTools()).tools.map((x) => x.name).sort();
const keyWith = (scopes: string[]) => t.core.keys.create(t.orgId, { scopes }).key;

describe('MCP tools/list by the key’s scopes', () => {
  it('a key of login:write only is offered the login tools, not list_credentials', async () => {
    const client = await connect(keyWith(['login:write']));
    const names = await toolNames(client);
    expect(names).toContain('login');
    expect(names).not.toContain('list_credentials');
    expect(names).toEqual(['login', 'refresh_session', 'wait_for_login']);
    // A tool it is not offered is no tool at all for it: a call is an unknown tool, the API is never reached.
    const call = await callTool(client, 'list_credentials');
    expect(call.isError).toBe(true);
    expect(textOf(call)).toMatch(/Tool list_credentials not found/);
  });

  it('a full key sees every tool', async () => {
    expect(await toolNames(await connect(t.key))).toEqual(MCP_HTTP_TOOL_NAMES);
  });

  it('credentials:read adds list_credentials; a key no tool needs gets an empty list, not an error', async () => {
    expect(await toolNames(await connect(keyWith(['login:write', 'credentials:read'])))).toEqual([
      'list_credentials',
      'login',
      'refresh_session',
      'wait_for_login',
    ]);
    const none = await connect(keyWith(['credits:read']));
    expect(await toolNames(none)).toEqual([]);
    expect(textOf(await callTool(none, 'login', { credential: 'x' }))).toMatch(/Tool login not found/);
  });
});

describe('the tool → routes table', () => {
  it('names every tool there is (a tool missing from it would never be offered)', () => {
    expect(Object.keys(TOOL_ROUTES).sort()).toEqual(Object.keys(TOOL_ANNOTATIONS).sort());
  });

  it('offers a tool only when every route it calls is allowed', () => {
    // login also reads the board and types codes: all login:write. "*" never grants browser-profiles:read.
    expect(toolAllowed('login', ['login:write'])).toBe(true);
    expect(toolAllowed('login', ['sessions:read'])).toBe(false);
    expect(toolAllowed('import_session', ['*'])).toBe(false);
    expect(toolAllowed('import_session', ['browser-profiles:read'])).toBe(true);
    expect(toolAllowed('no_such_tool', ['*'])).toBe(false);
  });
});
