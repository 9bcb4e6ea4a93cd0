// The MCP tool list of docs/agents.md is the server's (issue 45: README.md once left out quote_video). Between the
// markers `<!-- mcp-tools:begin -->` and `<!-- mcp-tools:end -->` the guide holds a table rendered from what the server
// registers: every tool of tools/list over Streamable HTTP (POST /mcp) and of the stdio server (which also has the
// file tools), its title, the scopes of the routes it calls (mcp-tool-scopes.ts) and where it is offered.
// This test fails when the table is not current; with UPDATE_DOCS=1 it writes the current one instead.
import fs from 'node:fs';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { McpFileAccess } from '../../../src/main/core/mcp/mcp-files.js';
import { createMcpServer } from '../../../src/main/core/mcp/mcp-server.js';
import { TOOL_ROUTES } from '../../../src/main/core/mcp/mcp-tool-scopes.js';
import { API_ROUTES } from '../../../src/shared/api/index.js';
import { REPO_ROOT } from '../../helpers/repo-root.js';
import { startTestServer, tempDir, type TestServer } from '../../helpers/test-server.js';

const GUIDE = path.join(REPO_ROOT, 'docs', 'agents.md');
const BEGIN = '<!-- mcp-tools:begin -->';
const END = '<!-- mcp-tools:end -->';
/** Every scope there is, the explicit-only one included: a key that is offered every tool. */
const ALL_SCOPES = ['*', 'browser-profiles:read'];

let t: TestServer;
let key: string;

beforeAll(async () => {
  t = await startTestServer();
  key = t.core.keys.create(t.orgId, { scopes: ALL_SCOPES }).key;
});
afterAll(async () => {
  await t?.close();
});

/** tools/list over the server's own POST /mcp. */
async function httpTools(): Promise<Tool[]> {
  const client = new Client({ name: 'mcp-tools-doc', version: '1.0.0' });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(`${t.url}/mcp`), {
      requestInit: { headers: { authorization: `Bearer ${key}` } },
    }),
  );
  try {
    return (await client.listTools()).tools;
  } finally {
    await client.close();
  }
}

/** tools/list of the server as src/main/mcp.ts builds it for stdio: with a files folder. */
async function stdioTools(): Promise<Tool[]> {
  const files = new McpFileAccess({ folder: tempDir(), dataDir: t.dataDir, scopes: () => ALL_SCOPES });
  const server = createMcpServer({
    app: t.server.app,
    apiKey: key,
    host: new URL(t.url).host,
    files,
    scopes: ALL_SCOPES,
  });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  const client = new Client({ name: 'mcp-tools-doc', version: '1.0.0' });
  await server.connect(serverSide);
  await client.connect(clientSide);
  try {
    return (await client.listTools()).tools;
  } finally {
    await client.close();
    await server.close();
  }
}

/** The scopes a key needs for a tool: those of every route it calls, each once. */
function scopesOf(tool: string): string {
  const scopes = (TOOL_ROUTES[tool] ?? []).flatMap((route) => {
    const scope = API_ROUTES[route].scope;
    return scope === null || scope === undefined ? [] : Array.isArray(scope) ? scope : [scope];
  });
  return [...new Set(scopes)].map((s) => `\`${s}\``).join(', ') || 'a valid key';
}

/** The table of the guide: one row per tool, in the order the stdio server lists them. */
function renderTable(stdio: Tool[], http: Tool[]): string {
  const overHttp = new Set(http.map((tool) => tool.name));
  const rows = stdio.map((tool) => {
    const title = tool.title ?? tool.annotations?.title ?? '';
    const where = overHttp.has(tool.name) ? 'HTTP and stdio' : 'stdio only';
    return `| \`${tool.name}\` | ${title} | ${scopesOf(tool.name)} | ${where} |`;
  });
  return ['| tool | what it does | scopes | offered over |', '| --- | --- | --- | --- |', ...rows].join('\n');
}

function tableInGuide(text: string): string {
  const begin = text.indexOf(BEGIN);
  const end = text.indexOf(END);
  expect(begin, `docs/agents.md has the markers ${BEGIN} … ${END}`).toBeGreaterThanOrEqual(0);
  expect(end).toBeGreaterThan(begin);
  return text.slice(begin + BEGIN.length, end).trim();
}

describe('the MCP tools in docs/agents.md', () => {
  it('are the tools the server registers, with their titles, scopes and transports', async () => {
    const [http, stdio] = [await httpTools(), await stdioTools()];
    // Over HTTP the server offers the stdio tools but the file ones: the table's rows cover both lists.
    expect(http.map((tool) => tool.name).filter((name) => !stdio.some((s) => s.name === name))).toEqual([]);
    expect(stdio.map((tool) => tool.name)).toContain('quote_video');
    const want = renderTable(stdio, http);
    const text = fs.readFileSync(GUIDE, 'utf8');
    if (process.env.UPDATE_DOCS === '1') {
      const current = tableInGuide(text);
      fs.writeFileSync(
        GUIDE,
        text.replace(`${BEGIN}\n${current}${current ? '\n' : ''}${END}`, `${BEGIN}\n${want}\n${END}`),
      );
    }
    expect(
      tableInGuide(fs.readFileSync(GUIDE, 'utf8')),
      'docs/agents.md lists other MCP tools than the server: run UPDATE_DOCS=1 scripts/with-keyring.sh ' +
        'node_modules/.bin/vitest run test/integration/docs/mcp-tools-doc.test.ts to write the current list',
    ).toBe(want);
  });
});
