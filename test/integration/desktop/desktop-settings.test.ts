// The desktop app's settings and administration in main, without a window: the real startCore held by
// the real CoreHost (restart, calls waiting for the new core, rollback when a core cannot start),
// settings:update against config.json and the environment, the health check over real HTTP, and the
// key and organization channels on a real core.
import fs from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { STARTER_CREDITS } from '../../../src/main/core/create-core.js';
import { adminChannels } from '../../../src/main/core/desktop/admin-channels.js';
import { checkApiHealth } from '../../../src/main/core/desktop/api-health.js';
import { settingsChannels } from '../../../src/main/core/desktop/settings-channels.js';
import { studioChannels } from '../../../src/main/core/desktop/studio-channels.js';
import type { IpcResult } from '../../../src/shared/errors.js';
import { memoryThemeStore } from '../../e2e/support/desktop-host.js';
import { startDesktopApp, type DesktopApp } from '../../e2e/support/desktop-app.js';
import { PROVIDER_KEYS } from '../../../src/shared/provider.schema.js';
import { FalStandin } from '../../fixtures/providers/fal-standin.js';
import { makeContext, makeJob, registry } from '../../fixtures/providers/provider-test-kit.js';

let app: DesktopApp;
const configFile = () => path.join(app.dataDir, 'config.json');
const readConfig = () => JSON.parse(fs.readFileSync(configFile(), 'utf8')) as Record<string, unknown>;
const value = <T>(res: IpcResult<T>): T => {
  if (!res.ok) throw new Error(`${res.error.code}: ${res.error.message}`);
  return res.value;
};

async function listen(handler: http.RequestListener): Promise<{ url: string; close(): Promise<void> }> {
  const server = http.createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

const FAL_KEY = 'fal-typed-in-window-7d3e91c0';
let fal: FalStandin;

beforeAll(async () => {
  fal = await new FalStandin(FAL_KEY).start();
  // The core's fal.ai is the stand-in: a key typed in the window is checked there (never on the internet).
  app = await startDesktopApp({ providers: { fal: { baseUrl: fal.url } } });
});
afterAll(async () => {
  await app?.close();
  await fal?.stop();
});

describe('CoreHost over the desktop startCore', () => {
  it('restarts with the new config; a call made during the restart is answered by the new core', async () => {
    const oldUrl = app.current().info.serverUrl!;
    const restarting = app.host.restart({
      apply: () => fs.writeFileSync(configFile(), JSON.stringify({ ...readConfig(), log: { level: 'warn' } })),
    });
    // Sent while the old core closes: it waits, then goes to the new one.
    const during = app.host.api.request({ method: 'GET', url: '/api/credits' });
    const next = await restarting;
    expect(next.core.config.log.level).toBe('warn');
    expect((await during).status).toBe(200);
    expect(app.current()).toBe(next);
    await expect(fetch(`${oldUrl}/healthz`)).rejects.toThrow();
    expect((await fetch(`${next.info.serverUrl}/healthz`)).status).toBe(200);
  });

  it('puts the old config back and starts again when the new core cannot start', async () => {
    const before = fs.readFileSync(configFile(), 'utf8');
    const failing = app.host.restart({
      // Valid JSON that createCore refuses (S3 storage without its settings).
      apply: () => fs.writeFileSync(configFile(), JSON.stringify({ ...readConfig(), storage: { backend: 's3' } })),
      undo: () => fs.writeFileSync(configFile(), before),
    });
    await expect(failing).rejects.toThrow(/storage\.s3/);
    expect(fs.readFileSync(configFile(), 'utf8')).toBe(before);
    const running = app.current();
    expect(running.core.video.blobs.kind).toBe('local');
    expect((await fetch(`${running.info.serverUrl}/healthz`)).status).toBe(200);
  });
});

describe('settings channels', () => {
  const channels = (env: NodeJS.ProcessEnv = {}) =>
    settingsChannels({ host: app.host, theme: memoryThemeStore(), env });

  it('refuses what an environment variable fixes, a program that does not exist, and a bad endpoint, field by field', async () => {
    const before = fs.readFileSync(configFile(), 'utf8');
    const res = await channels({ AGENT_STUDIO_PORT: '4999' })['settings:update']({
      server: { port: 4801 },
      browser: { executablePath: '/nonexistent/chromium', connectEndpoint: null },
    });
    expect(res.ok).toBe(false);
    if (res.ok) return;
    expect(res.error.code).toBe('validation_error');
    expect(res.error.details?.issues).toEqual([
      { path: 'server.port', message: 'Set by the environment variable AGENT_STUDIO_PORT: change it there.' },
      { path: 'browser.executablePath', message: 'No program at this path.' },
    ]);
    expect(fs.readFileSync(configFile(), 'utf8')).toBe(before);
    expect(value(await channels({ AGENT_STUDIO_PORT: '4999' })['settings:get'](undefined)).lockedByEnv).toEqual({
      'server.port': 'AGENT_STUDIO_PORT',
    });
  });

  it('does not restart when nothing changes, and keeps S3 credentials out of config.json', async () => {
    const url = app.current().info.serverUrl;
    const same = value(await channels()['settings:update']({ jobs: { renderConcurrency: 0 } }));
    expect(same.restarted).toBe(false);
    expect(app.current().info.serverUrl).toBe(url);

    const changed = value(
      await channels()['settings:update']({ browser: { maxContexts: 3 }, jobs: { renderConcurrency: null } }),
    );
    expect(changed.restarted).toBe(true);
    expect(changed.settings.core.browser.maxContexts).toBe(3);
    expect(changed.settings.core.jobs.renderConcurrency).toBeNull();
    expect(readConfig()).toMatchObject({ browser: { maxContexts: 3 } });
    expect((readConfig().jobs as Record<string, unknown>).renderConcurrency).toBeUndefined();
    // Put back what the other tests expect: rendering paused.
    value(await channels()['settings:update']({ jobs: { renderConcurrency: 0 } }));
  });

  it('checks the API over HTTP: up, nothing listening, something else answering, no answer in time', async () => {
    const status = value(await channels()['app:apiStatus'](undefined));
    expect(status).toMatchObject({ state: 'up', url: app.current().info.serverUrl, message: null });

    const other = await listen((_req, res) => res.end(JSON.stringify({ hello: 'world' })));
    const silent = await listen(() => undefined);
    try {
      expect(await checkApiHealth(other.url)).toMatchObject({
        state: 'down',
        message: `${new URL(other.url).host} answers, but it is not Agent Studio's API.`,
      });
      expect(await checkApiHealth(silent.url, 200)).toMatchObject({
        state: 'down',
        message: `${new URL(silent.url).host} did not answer within 0.2 s.`,
      });
    } finally {
      await other.close();
      await silent.close();
    }
    expect((await checkApiHealth(other.url)).message).toMatch(/connection refused/);
  });
});

describe('admin channels (keys, organizations, credits)', () => {
  const admin = () => adminChannels(app.host);

  it('makes a key whose plaintext is answered once; lists never carry it; the window’s own key cannot be revoked', async () => {
    const orgId = app.current().desktop.orgId;
    const created = value(
      await admin()['keys:create']({ orgId, name: 'bot', scopes: ['credits:read'], expiresInDays: 7 }),
    );
    expect(created.key).toMatch(/^pk_/);
    expect(created.info.expires_at).toBeGreaterThan(Date.now() + 6 * 86_400_000);
    const listed = value(await admin()['keys:list']({ orgId }));
    expect(JSON.stringify(listed)).not.toContain(created.key);
    expect(listed.data.find((k) => k.desktop)?.id).toBe(app.current().desktop.keyId);

    const own = await admin()['keys:revoke']({ id: app.current().desktop.keyId! });
    expect(own).toMatchObject({ ok: false, error: { code: 'forbidden' } });
    expect(value(await admin()['keys:revoke']({ id: created.info.id })).revoked_at).not.toBeNull();
    expect(app.current().core.keys.authenticate(created.key)).toBeNull();
    expect(await admin()['keys:list']({ orgId: 'org_nope' })).toMatchObject({
      ok: false,
      error: { code: 'not_found' },
    });
  });

  it('creates organizations with starter credits (a taken name is a conflict on the name field) and grants credits', async () => {
    const org = value(await admin()['orgs:create']({ name: 'Second Org' }));
    // As the first organization at first run: a new one is usable at once.
    expect(org).toMatchObject({ name: 'Second Org', balance: STARTER_CREDITS, active_keys: 0, desktop: false });
    expect(await admin()['orgs:create']({ name: 'Second Org' })).toMatchObject({
      ok: false,
      error: { code: 'conflict', details: { status: 409, field: 'name' } },
    });
    const credits = value(await admin()['orgs:grantCredits']({ orgId: org.id, amount: 40 }));
    expect(credits).toMatchObject({
      org_id: org.id,
      balance: STARTER_CREDITS + 40,
      ledger: [
        { amount: 40, kind: 'grant' },
        { amount: STARTER_CREDITS, kind: 'grant' },
      ],
    });
    const orgs = value(await admin()['orgs:list'](undefined)).data;
    expect(orgs.find((o) => o.id === org.id)?.balance).toBe(STARTER_CREDITS + 40);
    expect(orgs.filter((o) => o.desktop)).toHaveLength(1);
  });
});

describe('studio channels', () => {
  it('a provider key typed in the window is the key a job sends to the provider; the status never carries it', async () => {
    const studio = studioChannels(app.host);
    expect(value(await studio['providers:status'](undefined)).fal).toEqual({ stored: false, check: null });
    // A made-up key is stored, and said to be refused: the provider was asked.
    const wrong = value(await studio['providers:setKey']({ name: 'fal', key: 'fal-made-up-key' })).fal;
    expect(wrong).toMatchObject({ stored: true, check: { outcome: 'refused', message: expect.stringMatching(/401/) } });
    const status = value(await studio['providers:setKey']({ name: 'fal', key: FAL_KEY }));
    expect(status.fal).toMatchObject({ stored: true, check: { outcome: 'connected' } });
    expect(JSON.stringify(status)).not.toContain(FAL_KEY);
    // A key stored since by someone else (the CLI) is not "connected" on the strength of the old check.
    await app.current().core.secrets.set(PROVIDER_KEYS.fal.account, 'fal-set-by-the-cli');
    expect(value(await studio['providers:status'](undefined)).fal).toEqual({ stored: true, check: null });
    await app.current().core.secrets.set(PROVIDER_KEYS.fal.account, FAL_KEY);
    expect(value(await studio['providers:check']({ name: 'fal' })).fal.check?.outcome).toBe('connected');

    // The pipeline's own registry over the running core's secret store, as a generation job builds it.
    const provider = registry({ fal: fal.url }, app.current().core.secrets).get('fal');
    const model = 'fal-ai/kling-video/v2/master/text-to-video';
    await provider.submit(makeJob({ name: 'fal', model, input: { prompt: '{{prompt}}' } }), makeContext().ctx);
    expect(fal.seen('POST', `/${model}`).at(-1)?.authorization).toBe(`Key ${FAL_KEY}`);
  });
});
