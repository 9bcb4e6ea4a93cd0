// What the MCP login tools say, through the SDK's own client over Streamable HTTP against real servers: a login call
// without a saved login's reference gets the server's explanation (not the SDK's bare "expected string"), and the
// takeover link of a login that waits for a person is in the text content only while mcp.takeoverLinksInContent is
// on (the default); off, it is only in the structured content.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startCaptcha } from '../../fixtures/sites/captcha.site.js';
import type { FixtureSite } from '../../fixtures/sites/index.js';
import { callTool, dataOf, saveLoginAs, textOf, type ToolResult } from '../../helpers/mcp-agent.js';
import { waitForEnd } from '../../helpers/takeover-person.js';
import { startTestServer, type TestServer } from '../../helpers/test-server.js';

const CAPTCHA_LOGIN = 'Ticket site';

let linked: TestServer;
let unlinked: TestServer;
let captcha: FixtureSite;
const clients: Client[] = [];

beforeAll(async () => {
  [linked, unlinked, captcha] = await Promise.all([
    startTestServer({ login: { timeoutMs: 30_000 } }),
    startTestServer({ login: { timeoutMs: 30_000 }, mcp: { takeoverLinksInContent: false } }),
    startCaptcha({ personCanSolve: true }),
  ]);
  for (const t of [linked, unlinked]) await saveLoginAs(t.core, t.orgId, captcha, CAPTCHA_LOGIN);
});
afterAll(async () => {
  await Promise.all(clients.map((c) => c.close()));
  await captcha?.close();
  await Promise.all([linked?.close(), unlinked?.close()]);
});

/** An SDK client without elicitation: a login that needs a person answers its takeover link. */
async function connect(t: TestServer): Promise<Client> {
  const client = new Client({ name: 'mcp-login-answers-test', version: '1.0.0' });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(`${t.url}/mcp`), {
      requestInit: { headers: { authorization: `Bearer ${t.key}` } },
    }),
  );
  clients.push(client);
  return client;
}

type Waiting = { status: string; login_id: string; takeover_url: string };

describe('login without a saved login (inline credentials off, the default)', () => {
  it('answers how to log in instead: by a saved login, or with the setting that allows cred', async () => {
    const client = await connect(linked);
    for (const args of [
      { cred: { username: 'ada@example.com', password: 'pw-Zq81-secret' }, domain: captcha.loginUrl },
      { domain: captcha.loginUrl },
    ]) {
      const result = await callTool(client, 'login', args);
      const text = textOf(result);
      expect(result.isError, text).toBe(true);
      expect(text).toContain('INVALID_REQUEST: login needs credential.');
      expect(text).toContain('log in with credential, a saved login’s label or id (list_credentials)');
      expect(text).toContain('mcp.allowInlineCredentials brings cred back');
      expect(text).not.toMatch(/expected string/i);
      // The password given inline is not repeated back.
      expect(text).not.toContain('pw-Zq81-secret');
    }
    // The schema still says so: credential is required, cred is not offered.
    const { tools } = await client.listTools();
    const login = tools.find((x) => x.name === 'login');
    expect(login?.inputSchema.required).toEqual(['credential']);
    expect(Object.keys(login?.inputSchema.properties ?? {})).not.toContain('cred');
  });
});

describe('mcp.takeoverLinksInContent', () => {
  /** The login tool for the CAPTCHA site, left waiting for a person (no elicitation); cancelled afterwards. */
  async function waitingLogin(t: TestServer): Promise<{ client: Client; first: ToolResult; waiting: Waiting }> {
    const client = await connect(t);
    const first = await callTool(client, 'login', { credential: CAPTCHA_LOGIN, useCache: false });
    const waiting = dataOf<Waiting>(first);
    expect(waiting).toMatchObject({ status: 'needs_person' });
    expect(waiting.takeover_url).toMatch(new RegExp(`^${t.url}/live/${waiting.login_id}#.+`));
    return { client, first, waiting };
  }

  async function cancel(t: TestServer, loginId: string): Promise<void> {
    expect((await t.request(`/api/login/${loginId}/cancel`, { method: 'POST' })).status).toBe(204);
    expect((await waitForEnd(t, loginId)).status).toBe('cancelled');
  }

  it('on (default): the link is in the text and in the structured content', async () => {
    const { first, waiting } = await waitingLogin(linked);
    expect(textOf(first)).toContain(waiting.takeover_url);
    await cancel(linked, waiting.login_id);
  });

  it('off: the link (and its token) only in the structured content, login and wait_for_login alike', async () => {
    const { client, first, waiting } = await waitingLogin(unlinked);
    const token = waiting.takeover_url.split('#')[1]!;
    expect(textOf(first)).not.toContain(token);
    expect(textOf(first)).not.toContain('/live/');
    expect(textOf(first)).toMatch(/structured content \(takeover_url/);
    expect(textOf(first)).toContain(`wait_for_login { "login_id": "${waiting.login_id}" }`);

    const again = await callTool(client, 'wait_for_login', { login_id: waiting.login_id, timeout_sec: 1 });
    expect(dataOf<Waiting>(again)).toMatchObject({ status: 'needs_person', takeover_url: waiting.takeover_url });
    expect(textOf(again)).not.toContain(token);
    await cancel(unlinked, waiting.login_id);
  });
});
