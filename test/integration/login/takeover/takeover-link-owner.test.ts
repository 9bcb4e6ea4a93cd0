// The live page's link of a login that waits for a person is the starting key's alone (docs/security.md#a-logins-live-page-is-the-starting-keys): the link
// drives the stopped browser, which may hold a saved login no other key of the organization may use. Another key of
// the same organization sees where the login stands, without the link, over HTTP and over MCP; the desktop window
// (the person at this machine) still gets it from the event bus.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CoreEvents } from '../../../../src/main/core/events.js';
import type { LoginRun } from '../../../../src/shared/login.schema.js';
import { startCaptcha } from '../../../fixtures/sites/captcha.site.js';
import type { FixtureSite } from '../../../fixtures/sites/index.js';
import { callTool, textOf } from '../../../helpers/mcp-agent.js';
import { waitForEnd, waitForTakeoverUrl } from '../../../helpers/takeover-person.js';
import { startTestServer, type TestServer } from '../../../helpers/test-server.js';

const ID = 'owned-1';

let t: TestServer;
let captcha: FixtureSite;
/** Key A (t.key) starts the login; key B is another login:write key of the same organization. */
let keyB: string;
let takeoverUrl: string;
let token: string;
const needsPerson: CoreEvents['login.needs_person'][] = [];

const loginBody = (over: Record<string, unknown> = {}) => ({
  cred: { username: captcha.credentials.username, password: captcha.credentials.password },
  domain: captcha.loginUrl,
  useCache: false,
  ...over,
});

beforeAll(async () => {
  t = await startTestServer();
  t.core.events.on('login.needs_person', (e) => needsPerson.push(e));
  captcha = await startCaptcha();
  keyB = t.core.keys.create(t.orgId, { name: 'agent B', scopes: ['login:write'] }).key;
  const started = await t.request('/api/login', {
    method: 'POST',
    headers: { 'x-login-id': ID },
    json: loginBody({ async: true, interactive: true }),
  });
  expect(started.status, await started.clone().text()).toBe(202);
  takeoverUrl = await waitForTakeoverUrl(t, ID);
  token = takeoverUrl.split('#')[1]!;
}, 90_000);
afterAll(async () => {
  if (t) {
    await t.request(`/api/login/${ID}/cancel`, { method: 'POST' });
    await waitForEnd(t, ID).catch(() => undefined);
  }
  await captcha?.close();
  await t?.close();
});

/** GET /api/login/{id} as `key`: the parsed run and the raw text (to search for the token anywhere). */
async function status(key: string): Promise<{ run: LoginRun; text: string }> {
  const res = await t.request(`/api/login/${ID}`, { key });
  const text = await res.text();
  expect(res.status, text).toBe(200);
  return { run: JSON.parse(text) as LoginRun, text };
}

describe('the takeover link of a login that waits for a person', () => {
  it('key A, which started it, gets the takeover_url', async () => {
    const { run } = await status(t.key);
    expect(run).toMatchObject({
      login_id: ID,
      status: 'needs_person',
      reason: 'captcha_blocked',
      takeover_url: takeoverUrl,
    });
    expect(takeoverUrl).toMatch(new RegExp(`^${t.url}/live/${ID}#[A-Za-z0-9_-]{20,}$`));
  });

  it('key B of the same organization sees the status without the link, and no token anywhere', async () => {
    const { run, text } = await status(keyB);
    expect(run).toMatchObject({ login_id: ID, status: 'needs_person', reason: 'captcha_blocked', finished_at: null });
    expect(run).not.toHaveProperty('takeover_url');
    expect(text).not.toContain(token);
    expect(text).not.toContain('/live/');
    // A full key of the organization is another key all the same.
    const full = await status(t.core.keys.create(t.orgId, { name: 'another full key' }).key);
    expect(full.run).not.toHaveProperty('takeover_url');
    expect(full.text).not.toContain(token);
  });

  it('key B cannot take the running id over with a login of its own (its entry would get the link)', async () => {
    const res = await t.request('/api/login', {
      method: 'POST',
      key: keyB,
      headers: { 'x-login-id': ID },
      json: loginBody(),
    });
    const body = (await res.json()) as { error: string; details: Record<string, unknown> };
    expect(res.status, JSON.stringify(body)).toBe(409);
    expect(body).toMatchObject({ error: 'LOGIN_RUNNING', details: { login_id: ID } });
    expect((await status(t.key)).run.takeover_url).toBe(takeoverUrl);
    expect((await status(keyB)).run).not.toHaveProperty('takeover_url');
  });

  it('over MCP, wait_for_login of key B answers that the login waits, without the link', async () => {
    const client = new Client({ name: 'takeover-owner-test', version: '1.0.0' });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(`${t.url}/mcp`), {
        requestInit: { headers: { authorization: `Bearer ${keyB}` } },
      }),
    );
    try {
      const result = await callTool(client, 'wait_for_login', { login_id: ID, timeout_sec: 1 });
      expect(result.isError ?? false, textOf(result)).toBe(false);
      expect(result.structuredContent).toEqual({ status: 'needs_person', login_id: ID, reason: 'captcha_blocked' });
      expect(textOf(result)).toContain('only to the API key that started it');
      expect(JSON.stringify(result)).not.toContain(token);
    } finally {
      await client.close();
    }
  });

  it('the desktop window of the organization still gets the link (the bus event it shows the live page from)', () => {
    expect(needsPerson).toContainEqual(expect.objectContaining({ orgId: t.orgId, loginId: ID, takeoverUrl }));
  });
});
