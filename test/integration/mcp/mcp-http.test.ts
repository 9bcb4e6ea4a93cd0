// The MCP server over Streamable HTTP (POST /mcp on the local server), driven by the SDK's own client.
import fs from 'node:fs';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { API_ROUTES, successSchema, type ApiRouteName } from '../../../src/shared/api/index.js';
import { startSite, type FixtureSite } from '../../fixtures/sites/index.js';
import { launchTestBrowser, opensProtectedPage } from '../../helpers/browser.js';
import {
  callTool,
  dataOf,
  expectMp4,
  generateThroughTools,
  loginArgs,
  saveSiteLogins,
  SITE_LOGIN,
  WRONG_LOGIN,
  MCP_HTTP_TOOL_NAMES,
  textOf,
  type ToolResult,
} from '../../helpers/mcp-agent.js';
import { media } from '../../helpers/media-fixtures.js';
import { httpRequest, rawHttp } from '../../helpers/raw-http.js';
import { startTestServer, tempDir, type TestServer } from '../../helpers/test-server.js';

let t: TestServer;
let site: FixtureSite;
let browser: Browser;
const clients: Client[] = [];

beforeAll(async () => {
  t = await startTestServer({ login: { timeoutMs: 30_000 }, jobs: { renderConcurrency: 1 } }, { credits: 10_000 });
  site = await startSite('classic-csrf');
  await saveSiteLogins(t.core, t.orgId, site);
  browser = await launchTestBrowser();
});
afterAll(async () => {
  await Promise.all(clients.map((c) => c.close()));
  await browser?.close();
  await site?.close();
  await t?.close();
});

async function connect(key: string): Promise<Client> {
  const client = new Client({ name: 'mcp-http-test', version: '1.0.0' });
  const transport = new StreamableHTTPClientTransport(new URL(`${t.url}/mcp`), {
    requestInit: { headers: { authorization: `Bearer ${key}` } },
  });
  await client.connect(transport);
  clients.push(client);
  return client;
}

describe('MCP over Streamable HTTP', () => {
  let client: Client;
  beforeAll(async () => {
    client = await connect(t.key);
  });

  it('lists the tools with the API schemas as input', async () => {
    const { tools } = await client.listTools();
    expect(tools.map((x) => x.name).sort()).toEqual(MCP_HTTP_TOOL_NAMES);
    const login = tools.find((x) => x.name === 'login');
    // Every tool says what it does to the world; a charge is never read-only
    for (const tool of tools) expect(tool.annotations, tool.name).toMatchObject({ readOnlyHint: expect.any(Boolean) });
    expect(tools.find((x) => x.name === 'generate_video')?.annotations).toMatchObject({ readOnlyHint: false });
    expect(tools.find((x) => x.name === 'list_templates')?.annotations).toMatchObject({ readOnlyHint: true });
    // Saved logins only: the model never holds a password (config mcp.allowInlineCredentials brings cred back).
    expect(login?.inputSchema.required).toEqual(['credential']);
    expect(Object.keys(login?.inputSchema.properties ?? {})).not.toContain('cred');
    // A key over HTTP never reaches the server's disk: no file arguments, no upload_file.
    for (const name of ['login', 'refresh_session']) {
      const tool = tools.find((x) => x.name === name);
      expect(Object.keys(tool?.inputSchema.properties ?? {})).not.toContain('path');
      expect(tool?.description).not.toMatch(/\bpath\b/);
    }
    const generate = tools.find((x) => x.name === 'generate_video');
    expect(Object.keys(generate?.inputSchema.properties ?? {})).toEqual(
      expect.arrayContaining(['template_id', 'variables', 'num_videos', 'webhook_url']),
    );
    // Output schemas are the success answers of the routes the tools call, from the route table.
    const outputs: Record<string, ApiRouteName> = {
      get_template: 'getTemplate',
      list_templates: 'listTemplates',
      get_generation: 'getGeneration',
      generate_video: 'generate',
      validate_session: 'validateSession',
    };
    for (const [tool, route] of Object.entries(outputs)) {
      const schema = tools.find((x) => x.name === tool)?.outputSchema;
      const fields = Object.keys((successSchema(API_ROUTES[route]) as z.ZodObject).shape);
      expect(Object.keys(schema?.properties ?? {}).sort(), tool).toEqual(fields.sort());
    }
  });

  it('a tool answers structured content of its route’s answer shape (checked by the client against outputSchema)', async () => {
    const templates = await client.callTool({ name: 'list_templates', arguments: { limit: 2 } });
    expect(templates.isError).toBeFalsy();
    const parsed = (successSchema(API_ROUTES.listTemplates) as z.ZodType).safeParse(templates.structuredContent);
    expect(parsed.success).toBe(true);
  });

  it('logs in to a local site: the returned storageState opens the protected page', async () => {
    const state = dataOf<{
      cookies: { name: string; value: string }[];
      origins: unknown[];
      browser?: { userAgent: string; locale: string; timezoneId: string };
    }>(await callTool(client, 'login', loginArgs(site)));
    expect(state.cookies.length).toBeGreaterThan(0);
    expect(await opensProtectedPage(browser, site, state)).toBe(true);
    // What the login browser presented, for the agent's context (docs/login-service.md#bot-walls).
    expect(state.browser).toEqual({
      userAgent: expect.stringMatching(/Chrome\/\d+/),
      locale: expect.any(String),
      timezoneId: expect.any(String),
    });
    expect(state.browser?.userAgent).not.toMatch(/headless/i);
    // The state is only the tool's answer: no cookie value reaches the log.
    await t.core.logger.flush();
    const log = fs.readFileSync(t.core.logger.file, 'utf8');
    expect(log).toContain('/mcp');
    for (const cookie of state.cookies) expect(log).not.toContain(cookie.value);
  });

  it('login with a path writes no file: the state is the answer (file access is for stdio only)', async () => {
    const dir = tempDir();
    const existing = path.join(dir, 'secrets.key');
    fs.writeFileSync(existing, 'keep me');
    const result = await callTool(client, 'login', loginArgs(site, { path: existing, useCache: true }));
    const out = dataOf<{ cookies: unknown[] }>(result);
    expect(out.cookies.length).toBeGreaterThan(0);
    expect(fs.readFileSync(existing, 'utf8')).toBe('keep me');
    expect(fs.readdirSync(dir)).toEqual(['secrets.key']);
    const sessionId = /\(session (ses_\S+)\)/.exec(textOf(result))?.[1];
    expect(sessionId).toMatch(/^ses_/);

    // The cached session is what list_sessions and validate_session report.
    const sessions = dataOf<{ data: { id: string; origin: string }[] }>(await callTool(client, 'list_sessions'));
    expect(sessions.data.find((s) => s.id === sessionId)?.origin).toBe(site.origin);
    // validate_session opens the site with the session (POST /api/sessions/:id/validate)
    const checked = dataOf<{ valid: boolean; session_id: string; dropped: boolean }>(
      await callTool(client, 'validate_session', { id: sessionId }),
    );
    expect(checked).toMatchObject({ valid: true, session_id: sessionId, dropped: false });
  });

  it('uploads a PNG (presign_upload, then a PUT from the agent), generates a video and waits for it', async () => {
    const video = await generateThroughTools(client);
    expect(video.progress.length).toBeGreaterThanOrEqual(1);
    // The final 100 is in the result (asserted by generateThroughTools); the SDK client may drop a last progress
    // notification that arrives in the same read as the result (it dispatches notifications a microtask later).
    expect(new URL(video.videoUrl).host).toBe(new URL(t.url).host);
    await expectMp4(video.videoUrl);
  });

  it('answers API errors as tool errors that carry the API code and message', async () => {
    const unknown = await callTool(client, 'get_template', { id: 'no-such-template' });
    expect(unknown.isError).toBe(true);
    expect(textOf(unknown)).toMatch(/^not_found: .*no-such-template.*\(HTTP 404\)/);

    const generate = await callTool(client, 'generate_video', { template_id: 'no-such-template', variables: {} });
    expect(generate.isError).toBe(true);
    expect(textOf(generate)).toMatch(/^not_found: /);

    const session = await callTool(client, 'validate_session', { id: 'no-such-session' });
    expect(textOf(session)).toMatch(/^NOT_FOUND: /);

    const upload = await callTool(client, 'upload_file', { path: '/etc/passwd' });
    expect(upload.isError).toBe(true);
    expect(textOf(upload)).toMatch(/upload_file not found/i);
    const presign = await callTool(client, 'presign_upload', { content_type: 'text/plain' });
    expect(textOf(presign)).toMatch(/^validation_error: .*contentType/);

    const badLogin = await callTool(client, 'login', loginArgs(site, { credential: WRONG_LOGIN }));
    expect(badLogin.isError).toBe(true);
    expect(textOf(badLogin)).toMatch(/^AUTHENTICATION_FAILED: /);
    expect(textOf(badLogin)).not.toContain('wrong-Pq83');

    const inline = await callTool(client, 'login', {
      cred: { username: site.credentials.username, password: site.credentials.password },
      domain: site.loginUrl,
      credential: SITE_LOGIN,
    });
    expect(textOf(inline)).toMatch(/^INVALID_REQUEST: This MCP server does not take inline credentials/);
  });

  it('a key without templates:read is not offered list_templates: a call of it is an unknown tool', async () => {
    const limited = t.newOrg('mcp-limited', ['sessions:read']);
    const other = await connect(limited.key);
    const denied = await callTool(other, 'list_templates');
    expect(denied.isError).toBe(true);
    expect(textOf(denied)).toMatch(/Tool list_templates not found/);
    expect(dataOf<{ data: unknown[] }>(await callTool(other, 'list_sessions')).data).toEqual([]);
  });
});

describe('wait_for_generation is bounded', () => {
  // Rendering paused (the test server's default): the generation stays `generating`.
  let paused: TestServer;
  beforeAll(async () => {
    paused = await startTestServer({}, { credits: 1000 });
  });
  afterAll(() => paused?.close());

  it('still generating at timeout_sec is a wait_timeout tool error, after one progress notification', async () => {
    const client = new Client({ name: 'mcp-http-test', version: '1.0.0' });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(`${paused.url}/mcp`), {
        requestInit: { headers: { authorization: `Bearer ${paused.key}` } },
      }),
    );
    clients.push(client);
    const started = dataOf<{ generations: { generation_id: string }[] }>(
      await callTool(client, 'generate_video', {
        template_id: 'image-to-video-animate',
        variables: { photo: `data:image/png;base64,${media.png().toString('base64')}` },
      }),
    );
    const progress: number[] = [];
    const began = Date.now();
    const res = (await client.callTool(
      { name: 'wait_for_generation', arguments: { id: started.generations[0].generation_id, timeout_sec: 1 } },
      undefined,
      { onprogress: (p) => void progress.push(p.progress) },
    )) as ToolResult;
    expect(res.isError).toBe(true);
    expect(textOf(res)).toMatch(/^wait_timeout: .*still generating after 1 s/);
    expect(Date.now() - began).toBeGreaterThanOrEqual(1000);
    expect(progress).toEqual([0]);
  });

  it('timeout_sec over 1800 is refused by the input schema', async () => {
    const client = clients.at(-1) as Client;
    const res = await callTool(client, 'wait_for_generation', { id: 'gen_x', timeout_sec: 1801 });
    expect(res.isError).toBe(true);
    expect(textOf(res)).toMatch(/Input validation error/);
  });
});

describe('/mcp refuses callers without a valid key and foreign Host headers', () => {
  const initialize = JSON.stringify({
    jsonrpc: '2.0',
    id: 1,
    method: 'initialize',
    params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'x', version: '1' } },
  });
  const post = (headers: [string, string][]) =>
    rawHttp(
      t.server.port,
      httpRequest(
        'POST',
        '/mcp',
        [['Content-Type', 'application/json'], ['Accept', 'application/json, text/event-stream'], ...headers],
        initialize,
      ),
    );

  it('a wrong key is a 401 in the login-service shape, and the SDK client cannot connect', async () => {
    for (const auth of [[['Authorization', 'Bearer sk_wrong_key']], []] as [string, string][][]) {
      const res = await post([['Host', '127.0.0.1'], ...auth]);
      expect(res.status).toBe(401);
      expect(res.body).toMatchObject({ error: 'AUTHENTICATION_FAILED', details: { reason: 'invalid_api_key' } });
      // Plain words for MCP clients, no OAuth discovery to try (RFC 6750)
      expect(res.headers['www-authenticate']).toMatch(
        /^Bearer realm="agent-studio", error="invalid_token", error_description=/,
      );
    }
    await expect(connect('sk_wrong_key')).rejects.toThrow(/401|AUTHENTICATION_FAILED/);
  });

  it('a non-loopback Host is refused before the key is looked at', async () => {
    const res = await post([
      ['Host', 'evil.example'],
      ['Authorization', `Bearer ${t.key}`],
    ]);
    expect(res.status).toBe(403);
    expect(res.body).toMatchObject({ error: 'FORBIDDEN_HOST' });
  });

  it('GET and DELETE without a session id are a 400; PUT is a 405 naming the methods served', async () => {
    for (const method of ['GET', 'DELETE']) {
      const res = await rawHttp(
        t.server.port,
        httpRequest(method, '/mcp', [
          ['Host', '127.0.0.1'],
          ['Authorization', `Bearer ${t.key}`],
          ['Accept', 'text/event-stream'],
        ]),
      );
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ jsonrpc: '2.0', error: { message: expect.stringMatching(/Mcp-Session-Id/) } });
    }
    const put = await rawHttp(
      t.server.port,
      httpRequest('PUT', '/mcp', [
        ['Host', '127.0.0.1'],
        ['Authorization', `Bearer ${t.key}`],
      ]),
    );
    expect(put.status).toBe(405);
    expect(put.headers.allow).toBe('GET, POST, DELETE');
  });
});

describe('mcp.allowInlineCredentials', () => {
  it('brings inline cred back to the login tool (for scripts that already hold their secrets)', async () => {
    const inline = await startTestServer({ login: { timeoutMs: 30_000 }, mcp: { allowInlineCredentials: true } });
    try {
      const client = new Client({ name: 'mcp-inline-test', version: '1.0.0' });
      await client.connect(
        new StreamableHTTPClientTransport(new URL(`${inline.url}/mcp`), {
          requestInit: { headers: { authorization: `Bearer ${inline.key}` } },
        }),
      );
      clients.push(client);
      const { tools } = await client.listTools();
      expect(Object.keys(tools.find((x) => x.name === 'login')?.inputSchema.properties ?? {})).toContain('cred');
      const state = dataOf<{ cookies: unknown[] }>(
        await callTool(client, 'login', {
          cred: { username: site.credentials.username, password: site.credentials.password },
          domain: site.loginUrl,
        }),
      );
      expect(await opensProtectedPage(browser, site, state)).toBe(true);
    } finally {
      await inline.close();
    }
  });
});
