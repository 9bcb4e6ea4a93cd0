// The login tool asks its user for help over stdio too (src/main/mcp.ts spawned as a host launches it, the SDK's
// stdio client declaring elicitation): a URL elicitation names the live page the stdio process serves itself, and a
// form elicitation's code signs in. The person here only uses the page's own controls (Done): the remote page lives
// in the child process, where a test cannot see what the stream shows (mcp-login-help.test.ts plays the person in
// full over HTTP).
import fs from 'node:fs';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import {
  ElicitationCompleteNotificationSchema,
  ElicitRequestSchema,
  type ElicitRequest,
  type ElicitResult,
} from '@modelcontextprotocol/sdk/types.js';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { parseConfig } from '../../../src/main/core/config/load-config.js';
import { createCore } from '../../../src/main/core/create-core.js';
import { startCaptcha } from '../../fixtures/sites/captcha.site.js';
import { MFA_CODE, startSite, type FixtureSite } from '../../fixtures/sites/index.js';
import { launchTestBrowser, opensProtectedPage } from '../../helpers/browser.js';
import { dataOf, saveLoginAs, textOf, type ToolResult } from '../../helpers/mcp-agent.js';
import { REPO_ROOT } from '../../helpers/repo-root.js';
import { LivePerson } from '../../helpers/takeover-person.js';
import { tempDir } from '../../helpers/temp-dir.js';

const ENTRY = ['--import', 'tsx', path.join(REPO_ROOT, 'src/main/mcp.ts')];
const CALL = { timeout: 180_000 };
type ElicitParams = ElicitRequest['params'];

let dataDir: string;
let key: string;
let captcha: FixtureSite;
let mfa: FixtureSite;
let agent: Browser;
let client: Client;
const stderr: string[] = [];
const elicited: ElicitParams[] = [];
const completed: string[] = [];
const people: LivePerson[] = [];
/** How the test's user answers the next elicitation. */
let answer: (params: ElicitParams) => ElicitResult | Promise<ElicitResult> = () => ({ action: 'decline' });

beforeAll(async () => {
  dataDir = tempDir();
  captcha = await startCaptcha({ personCanSolve: true });
  mfa = await startSite('mfa');
  fs.writeFileSync(path.join(dataDir, 'config.json'), JSON.stringify({ login: { timeoutMs: 30_000 } }));
  const core = createCore(parseConfig({ dataDir }));
  try {
    const org = core.orgs.create('agents');
    await saveLoginAs(core, org.id, captcha, 'Ticket site');
    await saveLoginAs(core, org.id, mfa, 'Vault site');
    key = core.keys.create(org.id).key;
  } finally {
    await core.dispose();
  }
  agent = await launchTestBrowser();
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [...ENTRY, '--data-dir', dataDir, '--files-dir', path.join(tempDir(), 'files')],
    cwd: REPO_ROOT,
    env: { ...(process.env as Record<string, string>), AGENT_STUDIO_API_KEY: key },
    stderr: 'pipe',
  });
  transport.stderr?.on('data', (d: Buffer) => stderr.push(d.toString()));
  client = new Client(
    { name: 'mcp-login-help-stdio', version: '1.0.0' },
    { capabilities: { elicitation: { url: {}, form: {} } } },
  );
  client.setRequestHandler(ElicitRequestSchema, async (req) => {
    elicited.push(req.params);
    return answer(req.params);
  });
  client.setNotificationHandler(ElicitationCompleteNotificationSchema, (n) => {
    completed.push(n.params.elicitationId);
  });
  await client.connect(transport);
});
afterAll(async () => {
  for (const p of people) await p.close();
  await client?.close();
  await agent?.close();
  await Promise.all([captcha?.close(), mfa?.close()]);
});

const login = (credential: string) =>
  client.callTool(
    { name: 'login', arguments: { credential, useCache: false } },
    undefined,
    CALL,
  ) as Promise<ToolResult>;

describe('MCP over stdio: the login tool asks its user', () => {
  it('a URL elicitation names the stdio process’s live page; Done there hands the session back', async () => {
    elicited.length = 0;
    let person: Promise<void> | undefined;
    answer = (params) => {
      if (params.mode === 'url')
        person = (async () => {
          const p = await LivePerson.open(agent, params.url, () => undefined);
          people.push(p);
          await p.done();
        })();
      return { action: 'accept' };
    };
    const result = await login('Ticket site');
    await person;
    // Done hands the page back as it is: the challenge cookie the site set, not yet signed in.
    const state = dataOf<{ cookies: { name: string }[] }>(result);
    expect(state.cookies.map((c) => c.name)).toContain('th_challenge');
    const asked = elicited[0] as Extract<ElicitParams, { mode: 'url' }>;
    expect(elicited.map((e) => e.mode)).toEqual(['url']);
    expect(asked.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/live\/[\w.-]+#[A-Za-z0-9_-]{20,}$/);
    await vi.waitFor(() => expect(completed).toEqual([asked.elicitationId]));
    expect(stderr.join('')).not.toContain(asked.url.split('#')[1]);
  });

  it('a form elicitation’s code signs in', async () => {
    elicited.length = 0;
    answer = (params) =>
      params.mode === 'form' ? { action: 'accept', content: { code: MFA_CODE } } : { action: 'decline' };
    const result = await login('Vault site');
    expect(textOf(result)).toMatch(/^Logged in/);
    expect(await opensProtectedPage(agent, mfa, dataOf(result))).toBe(true);
    expect(elicited.map((e) => e.mode)).toEqual(['form']);
  });
});
