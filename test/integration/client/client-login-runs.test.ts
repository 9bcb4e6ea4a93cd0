// The typed client's background logins against a real server and Chromium: startLogin answers at once, waitForLogin
// reports the person-needed moment once, typeLoginCode finishes a second factor the agent's user read out, and the
// storageState comes back once.
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  AgentStudioError,
  createAgentStudioClient,
  type AgentStudioClient,
  type LoginRun,
} from '../../../src/client/index.js';
import { MFA_CODE, startSite, type FixtureSite } from '../../fixtures/sites/index.js';
import { launchTestBrowser, opensProtectedPage } from '../../helpers/browser.js';
import { startTestServer, type TestServer } from '../../helpers/test-server.js';

let s: TestServer;
let client: AgentStudioClient;
let mfa: FixtureSite;
let classic: FixtureSite;
let agent: Browser;

beforeAll(async () => {
  s = await startTestServer();
  client = createAgentStudioClient({ baseUrl: s.url, apiKey: s.key });
  mfa = await startSite('mfa');
  classic = await startSite('classic-csrf');
  agent = await launchTestBrowser();
});
afterAll(async () => {
  await agent?.close();
  await mfa?.close();
  await classic?.close();
  await s?.close();
});

describe('typed client: logins in the background', () => {
  it('startLogin → waitForLogin: needs a person once, typeLoginCode signs in, the state comes back once', async () => {
    const accepted = await client.startLogin(
      { cred: mfa.credentials, domain: mfa.loginUrl, useCache: false, interactive: true },
      { loginId: 'client-mfa-1' },
    );
    expect(accepted).toEqual({ login_id: 'client-mfa-1', status_url: '/api/login/client-mfa-1' });
    const asked: LoginRun[] = [];
    const { run, state } = await client.waitForLogin(accepted.login_id, {
      intervalMs: 200,
      timeoutMs: 120_000,
      onNeedsPerson: (r) => {
        asked.push(r);
        void client.typeLoginCode(r.login_id, MFA_CODE);
      },
    });
    expect(asked).toHaveLength(1);
    expect(asked[0]).toMatchObject({ status: 'needs_person', reason: 'mfa_required' });
    expect(asked[0]!.takeover_url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/live\/client-mfa-1#/);
    expect(run.status).toBe('succeeded');
    expect(state && (await opensProtectedPage(agent, mfa, state))).toBe(true);
    // Given once: a second wait sees the success but no state.
    expect((await client.waitForLogin('client-mfa-1')).state).toBeUndefined();
  });

  it('a plain background login succeeds without a person; a failed one ends with its error', async () => {
    // The client's requests, as sent (the network is the real one): waitForLogin long-polls instead of polling.
    const sent: string[] = [];
    const watched = createAgentStudioClient({
      baseUrl: s.url,
      apiKey: s.key,
      fetch: (input, init) => {
        sent.push(`${init?.method ?? 'GET'} ${new URL(String(input)).pathname}${new URL(String(input)).search}`);
        return fetch(input, init);
      },
    });
    const ok = await watched.startLogin({ cred: classic.credentials, domain: classic.loginUrl, useCache: false });
    const done = await watched.waitForLogin(ok.login_id, { intervalMs: 200 });
    expect(done.run.status).toBe('succeeded');
    expect(done.state?.cookies.length).toBeGreaterThan(0);
    // Where it stands, then one long poll answered by the end (the login runs for seconds: polls every 200 ms would
    // be many), then the state.
    expect(sent).toEqual([
      'POST /api/login',
      `GET /api/login/${ok.login_id}`,
      `GET /api/login/${ok.login_id}?wait=60`,
      `GET /api/login/${ok.login_id}/state`,
    ]);

    const bad = await client.startLogin({
      cred: { username: classic.credentials.username, password: 'wrong' },
      domain: classic.loginUrl,
      useCache: false,
    });
    const failed = await client.waitForLogin(bad.login_id, { intervalMs: 200 });
    expect(failed.run).toMatchObject({ status: 'failed', error: { error: 'AUTHENTICATION_FAILED' } });
    expect(failed.state).toBeUndefined();
  });

  it('typeLoginCode for a login that waits for nobody is a 404 AgentStudioError', async () => {
    const err = await client.typeLoginCode('nobody-waits', '123456').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(AgentStudioError);
    expect(err).toMatchObject({ status: 404 });
  });
});
