// The update service (core/desktop/update-service.ts) against a stand-in feed on 127.0.0.1 in electron-updater's
// format (latest.yml / beta.yml and the installers they name), with a real core for what a restart would cut off:
// a real interactive login waiting for a person (the captcha fixture site), a generation whose render began. The
// one stand-in is the platform's install step (electron-updater in the app), which records what it was given.
import crypto from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { restartBlocker } from '../../../src/main/core/desktop/restart-blockers.js';
import { serveStagedUpdate } from '../../../src/main/core/desktop/update-local-feed.js';
import { UpdateService, type UpdateInstaller } from '../../../src/main/core/desktop/update-service.js';
import { createLogger } from '../../../src/main/core/logger.js';
import type { UpdateSettings, UpdateView } from '../../../src/shared/updates.schema.js';
import { startCaptcha } from '../../fixtures/sites/captcha.site.js';
import type { FixtureSite } from '../../fixtures/sites/index.js';
import { tempDir } from '../../helpers/temp-dir.js';
import { startTestServer, type TestServer } from '../../helpers/test-server.js';

const INSTALLER = Buffer.from('MZ stand-in installer of Agent Studio 1.2.0 '.repeat(2000));
const BETA_INSTALLER = Buffer.from('MZ stand-in installer of Agent Studio 1.3.0-beta.1 '.repeat(2000));
const sha512 = (bytes: Buffer) => crypto.createHash('sha512').update(bytes).digest('base64');

/** A feed folder: its files by name, and every path asked, in order. */
interface StandInFeed {
  url: string;
  files: Map<string, Buffer | string>;
  asked: string[];
  close(): Promise<void>;
}

async function startFeed(): Promise<StandInFeed> {
  const files = new Map<string, Buffer | string>();
  const asked: string[] = [];
  const server = http.createServer((req, res) => {
    const name = decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname.replace(/^\/feed\//, ''));
    asked.push(name);
    const body = files.get(name);
    if (body === undefined) res.writeHead(404).end('not found');
    else res.writeHead(200).end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/feed/`,
    files,
    asked,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A feed file as electron-builder writes it. */
const feedFile = (version: string, file: string, bytes: Buffer, over: { sha512?: string } = {}) =>
  stringify({
    version,
    files: [{ url: file, sha512: over.sha512 ?? sha512(bytes), size: bytes.length }],
    path: file,
    sha512: over.sha512 ?? sha512(bytes),
    releaseDate: '2026-12-01T10:00:00.000Z',
  });

/** The platform's install step as a recorder; `installed` resolves when install() is called. */
function recordingInstaller() {
  let resolveInstalled!: () => void;
  const installer = {
    staged: [] as { file: string; version: string; bytes: Buffer }[],
    installs: 0,
    installed: new Promise<void>((resolve) => (resolveInstalled = resolve)),
    async stage(update: Parameters<UpdateInstaller['stage']>[0]) {
      installer.staged.push({ file: update.file, version: update.info.version, bytes: fs.readFileSync(update.file) });
    },
    install() {
      installer.installs += 1;
      resolveInstalled();
    },
  };
  return installer;
}

let feed: StandInFeed;
const dirs: string[] = [];
const services: UpdateService[] = [];
const logDir = tempDir('agent-studio-update-logs-');
const log = createLogger(logDir, 'silent').log;

function makeService(
  settings: Partial<UpdateSettings>,
  opts: { blockedBy?: () => string | null; installer?: ReturnType<typeof recordingInstaller> } = {},
) {
  const dir = tempDir('agent-studio-updates-');
  dirs.push(dir);
  const installer = opts.installer ?? recordingInstaller();
  const service = new UpdateService({
    currentVersion: '1.1.0',
    dir,
    installation: { platform: 'win32', arch: 'x64' },
    settings: { policy: 'ask', channel: 'stable', feedUrl: feed.url, ...settings },
    checkEveryMs: 6 * 3_600_000,
    restartBlockedBy: opts.blockedBy ?? (() => null),
    recheckMs: 20,
    installer,
    log,
  });
  services.push(service);
  return { service, dir, installer };
}

/** Resolves with the first view the service reports that passes `test`. */
const reaches = (service: UpdateService, test: (view: UpdateView) => boolean) =>
  new Promise<UpdateView>((resolve) => {
    const stop = service.onChange((view) => {
      if (test(view)) {
        stop();
        resolve(view);
      }
    });
  });

beforeAll(async () => {
  feed = await startFeed();
});
afterAll(async () => {
  for (const service of services) service.dispose();
  await feed?.close();
  for (const dir of [...dirs, logDir]) fs.rmSync(dir, { recursive: true, force: true });
});

function publish(stable: boolean, beta: boolean, opts: { wrongSha?: boolean } = {}) {
  feed.files.clear();
  if (stable) {
    feed.files.set('agent-studio-setup-1.2.0.exe', INSTALLER);
    feed.files.set(
      'latest.yml',
      feedFile(
        '1.2.0',
        'agent-studio-setup-1.2.0.exe',
        INSTALLER,
        opts.wrongSha ? { sha512: sha512(BETA_INSTALLER) } : {},
      ),
    );
  }
  if (beta) {
    feed.files.set('agent-studio-setup-1.3.0-beta.1.exe', BETA_INSTALLER);
    feed.files.set('beta.yml', feedFile('1.3.0-beta.1', 'agent-studio-setup-1.3.0-beta.1.exe', BETA_INSTALLER));
  }
}

describe('the update service against a stand-in feed', () => {
  it('tell me: a check says a newer version is out; the download is checked, kept and handed to the installer', async () => {
    publish(true, false);
    const { service, dir, installer } = makeService({ policy: 'ask' });
    const checked = await service.check();
    expect(checked.status).toMatchObject({ kind: 'available', version: '1.2.0' });
    // told, not downloaded: nothing fetched but the feed file
    expect(feed.asked.at(-1)).toBe('latest.yml');
    expect(fs.readdirSync(dir)).toEqual([]);

    const ready = await service.download();
    expect(ready.status).toMatchObject({ kind: 'ready', version: '1.2.0' });
    expect(fs.readdirSync(dir)).toEqual(['agent-studio-setup-1.2.0.exe']);
    expect(installer.staged).toEqual([
      { file: path.join(dir, 'agent-studio-setup-1.2.0.exe'), version: '1.2.0', bytes: INSTALLER },
    ]);
    expect(ready.restartBlockedBy).toBeNull();
  });

  it('a download whose SHA-512 differs from the feed is refused and removed, and never offered', async () => {
    publish(true, false, { wrongSha: true });
    const { service, dir, installer } = makeService({ policy: 'ask' });
    await service.check();
    const refused = await service.download();
    expect(refused.status).toMatchObject({ kind: 'failed', step: 'download' });
    expect(refused.status.kind === 'failed' && refused.status.reason).toBe(
      'agent-studio-setup-1.2.0.exe does not match the SHA-512 checksum the feed announced: refused and removed',
    );
    expect(fs.readdirSync(dir)).toEqual([]);
    expect(installer.staged).toEqual([]);
    expect(() => service.install()).toThrow(/No update is ready/);
  });

  it('a newer version in beta.yml is seen on the beta channel only', async () => {
    publish(true, true);
    const stable = makeService({ channel: 'stable' }).service;
    expect((await stable.check()).status).toMatchObject({ kind: 'available', version: '1.2.0' });
    const beta = makeService({ channel: 'beta' }).service;
    expect((await beta.check()).status).toMatchObject({ kind: 'available', version: '1.3.0-beta.1' });
    // a stable release newer than the beta wins on the beta channel too
    feed.files.set('latest.yml', feedFile('1.3.0', 'agent-studio-setup-1.2.0.exe', INSTALLER));
    expect((await beta.check()).status).toMatchObject({ kind: 'available', version: '1.3.0' });
  });

  it('up to date when the feed names this version; a feed that fails says why', async () => {
    feed.files.clear();
    feed.files.set('latest.yml', feedFile('1.1.0', 'agent-studio-setup-1.1.0.exe', INSTALLER));
    const { service } = makeService({});
    expect((await service.check()).status).toMatchObject({ kind: 'up-to-date', latest: '1.1.0' });
    feed.files.clear();
    const failed = (await service.check()).status;
    expect(failed).toMatchObject({ kind: 'failed', step: 'check' });
    expect(failed.kind === 'failed' && failed.reason).toBe(`${feed.url}latest.yml answered 404 Not Found`);
  });

  it('off: no request at all, not at start and not when asked', async () => {
    publish(true, true);
    const before = feed.asked.length;
    const { service } = makeService({ policy: 'off' });
    service.start();
    expect(service.view().status).toEqual({ kind: 'off' });
    await expect(service.check()).rejects.toMatchObject({ code: 'updates_off' });
    await expect(service.download()).rejects.toMatchObject({ code: 'updates_off' });
    expect(feed.asked.length).toBe(before);
  });

  it('automatic: the start checks and downloads by itself', async () => {
    publish(true, false);
    const { service, installer } = makeService({ policy: 'automatic' });
    const ready = reaches(service, (v) => v.status.kind === 'ready' || v.status.kind === 'failed');
    service.start();
    expect((await ready).status).toMatchObject({ kind: 'ready', version: '1.2.0' });
    expect(installer.staged.map((s) => s.version)).toEqual(['1.2.0']);
  });

  it('the install step gets the very file checked, from a loopback feed in the same format', async () => {
    publish(true, false);
    const { service, installer } = makeService({});
    await service.check();
    await service.download();
    const staged = installer.staged[0];
    const local = await serveStagedUpdate({
      file: staged.file,
      info: { version: '1.2.0', files: [{ url: 'x', sha512: sha512(INSTALLER), size: INSTALLER.length }] },
      picked: { url: 'agent-studio-setup-1.2.0.exe', sha512: sha512(INSTALLER), size: INSTALLER.length },
    });
    try {
      const yml = await (await fetch(`${local.url}latest.yml`)).text();
      expect(yml).toContain('version: 1.2.0');
      expect(yml).toContain(`sha512: ${sha512(INSTALLER)}`);
      const bytes = Buffer.from(await (await fetch(`${local.url}agent-studio-setup-1.2.0.exe`)).arrayBuffer());
      expect(sha512(bytes)).toBe(sha512(INSTALLER));
      expect((await fetch(`${local.url}agent-studio-setup-1.2.0.exe.blockmap`)).status).toBe(404);
    } finally {
      await local.close();
    }
  });
});

describe('a restart never cuts off a login or a render (the real core)', () => {
  let t: TestServer;
  let captcha: FixtureSite;
  beforeAll(async () => {
    [t, captcha] = await Promise.all([
      startTestServer({}, { credits: 10_000 }),
      startCaptcha({ personCanSolve: true }),
    ]);
  }, 60_000);
  afterAll(async () => {
    await t?.close();
    await captcha?.close();
  });

  it('asked while a login waits for a person, the restart waits and happens once the login ends', async () => {
    publish(true, false);
    const blockedBy = () => restartBlocker(t.core);
    const { service, installer } = makeService({}, { blockedBy });
    await service.check();
    await service.download();
    expect(service.view().restartBlockedBy).toBeNull();

    const waiting = new Promise<void>((resolve) => {
      const stop = t.core.events.on('login.needs_person', () => {
        stop();
        resolve();
      });
    });
    const login = await t.request('/api/login', {
      method: 'POST',
      headers: { 'x-login-id': 'update-wait' },
      json: {
        cred: { username: captcha.credentials.username, password: captcha.credentials.password },
        domain: captcha.loginUrl,
        useCache: false,
        interactive: true,
        async: true,
      },
    });
    expect(login.status).toBe(202);
    await waiting;

    expect(service.view().restartBlockedBy).toBe('Waiting for 1 login running: the restart happens once it ends.');
    const asked = service.install();
    expect(asked.restartPending).toBe(true);
    expect(installer.installs).toBe(0);

    const cancelled = await t.request('/api/login/update-wait/cancel', { method: 'POST' });
    expect(cancelled.status).toBeLessThan(300);
    await installer.installed;
    expect(installer.installs).toBe(1);
    expect(service.view().restartPending).toBe(false);
  }, 60_000);

  it('a video being made holds the restart until it is cancelled; a queued one does not', async () => {
    publish(true, false);
    const { service, installer } = makeService({}, { blockedBy: () => restartBlocker(t.core) });
    await service.check();
    await service.download();
    const res = await t.request('/api/templates/text-to-video-cinematic/generate', {
      method: 'POST',
      json: { variables: { scene: 'A lighthouse on a cliff at dusk' } },
    });
    expect(res.status).toBe(200);
    const id = ((await res.json()) as { generations: { generation_id: string }[] }).generations[0].generation_id;
    // queued (rendering is paused in the test server): it waits in the job queue and survives a restart
    expect(restartBlocker(t.core)).toBeNull();
    // the render job picks it up
    t.core.video.generations.forPipeline(id);
    expect(restartBlocker(t.core)).toBe('Waiting for 1 video being made: the restart happens once it ends.');
    expect(service.install().restartPending).toBe(true);
    expect(installer.installs).toBe(0);
    expect((await t.request(`/api/generations/${id}/cancel`, { method: 'POST' })).status).toBe(200);
    await installer.installed;
    expect(installer.installs).toBe(1);
  });
});
