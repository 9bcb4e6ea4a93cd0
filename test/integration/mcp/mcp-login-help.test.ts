// MCP agents ask their user for help (docs/agents.md#a-person-through-mcp): the login tool over Streamable HTTP, driven by the official SDK
// client, against a real server and real fixture sites that stop for a person. A client with elicitation gets a URL
// elicitation (the test plays the person on the takeover page, through the streamed canvas) or a form for a code
// (typed into the live page by the server); a client without it gets the takeover_url and calls wait_for_login.
// Also the sessions of the transport: another key's or an unknown Mcp-Session-Id is refused.
import { EventEmitter } from 'node:events';
import fs from 'node:fs';
import type { ServerResponse } from 'node:http';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import {
  ElicitationCompleteNotificationSchema,
  ElicitRequestSchema,
  type ElicitRequest,
  type ElicitResult,
} from '@modelcontextprotocol/sdk/types.js';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { McpSessions, type McpSession } from '../../../src/main/core/mcp/mcp-sessions.js';
import { startCaptcha } from '../../fixtures/sites/captcha.site.js';
import { MFA_CODE, MFA_PROMPT, startSite, type FixtureSite } from '../../fixtures/sites/index.js';
import { launchTestBrowser, opensProtectedPage } from '../../helpers/browser.js';
import { dataOf, saveLoginAs, textOf, type ToolResult } from '../../helpers/mcp-agent.js';
import { LivePerson, signInPastCaptcha, waitForEnd } from '../../helpers/takeover-person.js';
import { startTestServer, type TestServer } from '../../helpers/test-server.js';

const CAPTCHA_LOGIN = 'Ticket site';
const MFA_LOGIN = 'Vault site';
const RUNS = 5;
/** A person takes a while (the engine's run, then the clicks through the stream): well past the SDK's 60 s. */
const CALL = { timeout: 180_000 };

type ElicitParams = ElicitRequest['params'];
type Answer = (params: ElicitParams) => ElicitResult | Promise<ElicitResult>;

let t: TestServer;
let agent: Browser;
let captcha: FixtureSite;
let mfa: FixtureSite;
const clients: Client[] = [];
const people: LivePerson[] = [];

beforeAll(async () => {
  t = await startTestServer({ login: { timeoutMs: 30_000 } });
  agent = await launchTestBrowser();
  captcha = await startCaptcha({ personCanSolve: true });
  mfa = await startSite('mfa');
  await saveLoginAs(t.core, t.orgId, captcha, CAPTCHA_LOGIN);
  await saveLoginAs(t.core, t.orgId, mfa, MFA_LOGIN);
});
afterAll(async () => {
  for (const p of people) await p.close();
  await Promise.all(clients.map((c) => c.close()));
  await agent?.close();
  await Promise.all([captcha?.close(), mfa?.close()]);
  await t?.close();
});

/** An SDK client over Streamable HTTP; with `answer`, it declares elicitation (url and form) and answers with it. */
async function connect(opts: { key?: string; answer?: Answer } = {}) {
  const elicited: ElicitParams[] = [];
  const completed: string[] = [];
  const client = new Client(
    { name: 'mcp-login-help-test', version: '1.0.0' },
    { capabilities: opts.answer ? { elicitation: { url: {}, form: {} } } : {} },
  );
  if (opts.answer) {
    const answer = opts.answer;
    client.setRequestHandler(ElicitRequestSchema, async (req) => {
      elicited.push(req.params);
      return answer(req.params);
    });
    client.setNotificationHandler(ElicitationCompleteNotificationSchema, (n) => {
      completed.push(n.params.elicitationId);
    });
  }
  const transport = new StreamableHTTPClientTransport(new URL(`${t.url}/mcp`), {
    requestInit: { headers: { authorization: `Bearer ${opts.key ?? t.key}` } },
  });
  await client.connect(transport);
  clients.push(client);
  return { client, elicited, completed, transport };
}

const login = (client: Client, credential: string) =>
  client.callTool(
    { name: 'login', arguments: { credential, useCache: false } },
    undefined,
    CALL,
  ) as Promise<ToolResult>;

const loginIdOf = (takeoverUrl: string) => /\/live\/([^/#]+)#/.exec(takeoverUrl)![1]!;

/** A person opens the takeover URL in a browser of their own and gets past the CAPTCHA through the stream. */
async function personSolvesCaptcha(takeoverUrl: string): Promise<void> {
  const id = loginIdOf(takeoverUrl);
  const person = await LivePerson.open(agent, takeoverUrl, () => t.core.login.takeover!.livePage(id));
  people.push(person);
  await person.settle();
  await signInPastCaptcha(person, captcha);
}

async function logText(): Promise<string> {
  await t.core.logger.flush();
  return fs.readFileSync(t.core.logger.file, 'utf8');
}

describe('a client with elicitation', () => {
  it('CAPTCHA: a URL elicitation; the person solves it on the live page; the tool answers the session', async () => {
    let person: Promise<void> | undefined;
    const { client, elicited, completed } = await connect({
      answer: (params) => {
        // Accepting means "I open it": the person then works on the page while the tool call waits.
        if (params.mode === 'url') person = personSolvesCaptcha(params.url);
        return { action: 'accept' };
      },
    });
    const before = captcha.stats().successfulLogins;
    const result = await login(client, CAPTCHA_LOGIN);
    await person;
    const state = dataOf<{ cookies: unknown[]; origins: unknown[] }>(result);
    expect(await opensProtectedPage(agent, captcha, state)).toBe(true);
    expect(captcha.stats().successfulLogins).toBe(before + 1);
    expect(textOf(result)).toMatch(/^Logged in \(session ses_\S+\)/);

    expect(elicited).toHaveLength(1);
    const asked = elicited[0] as Extract<ElicitParams, { mode: 'url' }>;
    expect(asked.mode).toBe('url');
    expect(asked.url).toMatch(new RegExp(`^${t.url}/live/[\\w.-]+#[A-Za-z0-9_-]{20,}$`));
    expect(asked.message).toMatch(/CAPTCHA/);
    expect(asked.message).toContain(new URL(captcha.origin).host);
    // The server says when the out-of-band part is over.
    await vi.waitFor(() => expect(completed).toEqual([asked.elicitationId]));
    const run = await waitForEnd(t, loginIdOf(asked.url));
    expect(run.status).toBe('succeeded');
    // The takeover token reached the client only: never the log.
    expect(await logText()).not.toContain(asked.url.split('#')[1]);
  });

  it('a code with no source: a form elicitation; the code is typed into the live page by the server', async () => {
    const { client, elicited } = await connect({
      answer: (params) =>
        params.mode === 'form' ? { action: 'accept', content: { code: MFA_CODE } } : { action: 'decline' },
    });
    const result = await login(client, MFA_LOGIN);
    const state = dataOf<{ cookies: unknown[] }>(result);
    expect(await opensProtectedPage(agent, mfa, state)).toBe(true);
    // Only the form was needed: nobody opened the live page.
    expect(elicited.map((e) => e.mode)).toEqual(['form']);
    const form = elicited[0] as Extract<ElicitParams, { mode?: 'form' }>;
    expect(form.message).toMatch(/one-time code/);
    expect(form.requestedSchema).toMatchObject({ type: 'object', required: ['code'] });
    expect(await logText()).not.toContain(MFA_CODE);
  });

  it(`a wrong code is asked again as soon as the page rejects it, in its words; the steps say it all (${RUNS} of ${RUNS})`, async () => {
    for (let run = 1; run <= RUNS; run++) {
      const codes = ['000000', MFA_CODE];
      // One timeline: the login's steps and the questions to the person, in the order they happened.
      const timeline: string[] = [];
      const off = t.core.events.on('login.step', (e) => timeline.push(`step: ${e.step}`));
      const { client, elicited } = await connect({
        answer: (params) => {
          timeline.push(`ask: ${params.message}`);
          return params.mode === 'form'
            ? { action: 'accept', content: { code: codes.shift()! } }
            : { action: 'decline' };
        },
      });
      try {
        const state = dataOf<{ cookies: unknown[] }>(await login(client, MFA_LOGIN));
        expect(await opensProtectedPage(agent, mfa, state)).toBe(true);
      } finally {
        off();
      }
      expect({ run, modes: elicited.map((e) => e.mode) }).toEqual({ run, modes: ['form', 'form'] });
      // The prompt quotes the page's instruction (where the code comes from) after its heading.
      expect(elicited[0]!.message).toContain(`"Two-factor authentication: ${MFA_PROMPT}.`);
      // Asked again because the page said so: its error is in the question, right after the step that saw it.
      expect(elicited[1]!.message).toMatch(/^The site did not take that code: "Invalid code\. Try again\."/);
      const after = timeline.slice(timeline.findIndex((l) => l.startsWith('ask: ')));
      expect(after).toEqual([
        expect.stringMatching(/^ask: Logging in to \S+ needs a one-time code/),
        "step: typed the code the person gave into 'Two-factor authentication' and submitted it",
        "step: the site rejected the code: 'Invalid code. Try again.'",
        expect.stringMatching(/^ask: The site did not take that code: "Invalid code\. Try again\."/),
        "step: typed the code the person gave into 'Two-factor authentication' and submitted it",
        'step: the code prompt is gone: the site took the code',
        'step: signed in on the live page (a new session cookie, no login form)',
      ]);
    }
  });

  it('declined: the login is cancelled and the tool answers an error saying so', async () => {
    const { client, elicited } = await connect({ answer: () => ({ action: 'decline' }) });
    const result = await login(client, CAPTCHA_LOGIN);
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(/^LOGIN_DECLINED: The person declined .*was cancelled/);
    const asked = elicited[0] as Extract<ElicitParams, { mode: 'url' }>;
    const run = await waitForEnd(t, loginIdOf(asked.url));
    expect(run.status).toBe('cancelled');
    expect(textOf(result)).not.toContain(asked.url.split('#')[1]);
  });
});

describe('a client without elicitation', () => {
  it('gets the takeover_url and the login_id; a person finishes; wait_for_login answers the session', async () => {
    const { client } = await connect();
    const first = await login(client, CAPTCHA_LOGIN);
    const pending = dataOf<{ status: string; login_id: string; takeover_url: string; reason: string }>(first);
    expect(pending).toMatchObject({ status: 'needs_person', reason: 'captcha_blocked' });
    expect(pending.takeover_url).toMatch(new RegExp(`^${t.url}/live/${pending.login_id}#`));
    expect(textOf(first)).toContain(pending.takeover_url);
    expect(textOf(first)).toMatch(/wait_for_login/);
    expect(first.structuredContent).not.toHaveProperty('cookies');

    // Nobody yet: a short wait answers where it stands, not an error.
    const early = await client.callTool({
      name: 'wait_for_login',
      arguments: { login_id: pending.login_id, timeout_sec: 1 },
    });
    expect(dataOf(early as ToolResult)).toMatchObject({ status: 'needs_person', takeover_url: pending.takeover_url });

    await personSolvesCaptcha(pending.takeover_url);
    const progress: string[] = [];
    const waited = (await client.callTool(
      { name: 'wait_for_login', arguments: { login_id: pending.login_id, timeout_sec: 120 } },
      undefined,
      { ...CALL, onprogress: (p) => void progress.push(p.message ?? '') },
    )) as ToolResult;
    const state = dataOf<{ cookies: unknown[] }>(waited);
    expect(await opensProtectedPage(agent, captcha, state)).toBe(true);
    // The state is given once.
    const again = (await client.callTool({
      name: 'wait_for_login',
      arguments: { login_id: pending.login_id },
    })) as ToolResult;
    expect(again.isError).toBe(true);
    expect(textOf(again)).toMatch(/^STATE_UNAVAILABLE: /);
  });

  it('interactive: false answers the typed error at once', async () => {
    const { client } = await connect();
    const result = (await client.callTool({
      name: 'login',
      arguments: { credential: CAPTCHA_LOGIN, useCache: false, interactive: false },
    })) as ToolResult;
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(/^CAPTCHA_BLOCKED: .*\(HTTP 422\)/);
  });

  it('an unknown saved login: NOT_FOUND, with the status the API answers', async () => {
    const { client } = await connect();
    expect(textOf(await login(client, 'No such login'))).toMatch(/^NOT_FOUND: .*\(HTTP 404\)$/);
  });

  it('an unknown login id: NOT_FOUND', async () => {
    const { client } = await connect();
    const result = (await client.callTool({
      name: 'wait_for_login',
      arguments: { login_id: 'no-such-login' },
    })) as ToolResult;
    expect(textOf(result)).toMatch(/^NOT_FOUND: /);
  });
});

describe('MCP sessions over HTTP', () => {
  const MCP_HEADERS = { accept: 'application/json, text/event-stream', 'content-type': 'application/json' };
  const rpc = (method: string, params: unknown = {}, id = 1) => JSON.stringify({ jsonrpc: '2.0', id, method, params });
  const post = (body: string, key: string | null, session?: string) =>
    fetch(`${t.url}/mcp`, {
      method: 'POST',
      headers: {
        ...MCP_HEADERS,
        ...(key ? { authorization: `Bearer ${key}` } : {}),
        ...(session ? { 'mcp-session-id': session } : {}),
      },
      body,
    });
  const open = async (key: string) => {
    const res = await post(
      rpc('initialize', { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '1' } }),
      key,
    );
    expect(res.status).toBe(200);
    await res.text();
    const id = res.headers.get('mcp-session-id');
    expect(id).toMatch(/^[\w-]{16,}$/);
    return id!;
  };

  it('a session is its key’s: another key gets 404, a wrong key 401, an unknown id 404; DELETE ends it', async () => {
    const session = await open(t.key);
    const other = t.newOrg('mcp-other-org');
    const list = rpc('tools/list', {}, 2);

    const mine = await post(list, t.key, session);
    expect(mine.status).toBe(200);
    expect(await mine.text()).toContain('wait_for_login');

    const foreign = await post(list, other.key, session);
    expect(foreign.status).toBe(404);
    expect(await foreign.json()).toMatchObject({ jsonrpc: '2.0', error: { code: -32001 } });
    const wrong = await post(list, 'sk_wrong_key', session);
    expect(wrong.status).toBe(401);
    expect(await wrong.json()).toMatchObject({ error: 'AUTHENTICATION_FAILED' });
    expect((await post(list, t.key, 'no-such-session')).status).toBe(404);

    // The session's own SSE stream (GET), for its key only.
    const abort = new AbortController();
    const stream = await fetch(`${t.url}/mcp`, {
      headers: { accept: 'text/event-stream', authorization: `Bearer ${t.key}`, 'mcp-session-id': session },
      signal: abort.signal,
    });
    expect([stream.status, stream.headers.get('content-type')]).toEqual([200, 'text/event-stream']);
    abort.abort();
    const end = (key: string) =>
      fetch(`${t.url}/mcp`, {
        method: 'DELETE',
        headers: { authorization: `Bearer ${key}`, 'mcp-session-id': session },
      });
    expect((await end(other.key)).status).toBe(404);
    expect((await end(t.key)).status).toBe(200);
    expect((await post(list, t.key, session)).status).toBe(404);
  });

  it('without a session id: a POST is served on its own; GET and DELETE are a 400', async () => {
    const once = await post(rpc('tools/list'), t.key);
    expect(once.status).toBe(200);
    expect(once.headers.get('mcp-session-id')).toBeNull();
    expect(await once.text()).toContain('wait_for_login');
    for (const method of ['GET', 'DELETE']) {
      const res = await fetch(`${t.url}/mcp`, {
        method,
        headers: { accept: 'text/event-stream', authorization: `Bearer ${t.key}` },
      });
      expect(res.status, method).toBe(400);
      expect(await res.json()).toMatchObject({ jsonrpc: '2.0', error: { message: /Mcp-Session-Id/ } });
    }
  });

  it('the login tool declares one output schema covering the state and the needs-a-person answer', async () => {
    const { client } = await connect();
    const { tools } = await client.listTools();
    for (const name of ['login', 'wait_for_login', 'refresh_session']) {
      const props = Object.keys(tools.find((x) => x.name === name)?.outputSchema?.properties ?? {});
      expect(props, name).toEqual(
        expect.arrayContaining(['cookies', 'origins', 'path', 'session_id', 'status', 'login_id', 'takeover_url']),
      );
    }
    expect(tools.find((x) => x.name === 'wait_for_login')?.annotations).toMatchObject({ readOnlyHint: false });
  });
});

describe('MCP session limits (McpSessions, with a clock of its own)', () => {
  it('idle sessions close; at the cap the longest-idle one makes room; busy ones are kept (429)', async () => {
    let now = 0;
    const sessions = new McpSessions({ idleMs: 1000, perKey: 2 }, () => now);
    const closed: string[] = [];
    const add = (id: string, keyId: string): McpSession => {
      const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: () => id });
      transport.onclose = () => {
        closed.push(id);
        sessions.remove(id);
      };
      const session = { transport, server: undefined as never, keyId, lastSeen: now, open: 0 };
      sessions.add(id, session);
      return session;
    };
    const request = (s: McpSession) => {
      const res = new EventEmitter();
      sessions.track(s, res as ServerResponse);
      return () => res.emit('close');
    };
    try {
      const a = add('a', 'key-1');
      now = 500;
      const b = add('b', 'key-1');
      add('c', 'key-2');
      expect(sessions.get('a', 'key-2')).toBeUndefined(); // another key's session is no session
      // key-1 is at its cap: its longest-idle session (a) makes room; key-2's is untouched.
      await sessions.makeRoom('key-1');
      expect(closed).toEqual(['a']);
      add('d', 'key-1');
      // All of key-1's sessions busy: refused.
      const doneB = request(b);
      const doneD = request(sessions.get('d', 'key-1')!);
      await expect(sessions.makeRoom('key-1')).rejects.toMatchObject({ status: 429, code: 'too_many_sessions' });
      doneD();
      // Idle past the limit closes, unless a request is open.
      now = 5000;
      sessions.sweep();
      await vi.waitFor(() => expect([...closed].sort()).toEqual(['a', 'c', 'd']));
      expect(sessions.get('b', 'key-1')).toBe(b);
      doneB();
      expect(a.open + b.open).toBe(0);
    } finally {
      await sessions.closeAll();
    }
  });
});
