// The desktop app end to end: the real Electron binary runs the electron-vite build (out/), with its own
// data folder and a free API port, through Playwright's Electron driver. Skipped, saying why, where no
// Electron binary is installed (it is downloaded by electron's install script, which may be impossible).
// Where there is none, the same built main bundle still runs in plain Node over a stand-in `electron` module
// (support/electron-stand-in.mjs): start, one tray across core restarts, a start at login (--background: the API and
// the tray, no window), the Linux autostart entry, permissions, the app protocol, quit.
import { fork, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { _electron, type ElectronApplication, type Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { findOnPath } from '../../src/main/electron/system-tools.js';
import { reportSkipped, titleWithSkip } from '../helpers/requires.js';
import { tempDir } from '../helpers/temp-dir.js';
import { startXvfb, type VirtualDisplay } from './support/xvfb.js';

const ROOT = path.resolve(import.meta.dirname, '..', '..');

/** The Electron binary, found without require('electron'), which tries to download a missing one. */
function electronBinary(): { path: string } | { reason: string } {
  const dir = path.join(ROOT, 'node_modules', 'electron');
  const pathFile = path.join(dir, 'path.txt');
  const rel = fs.existsSync(pathFile) ? fs.readFileSync(pathFile, 'utf8').trim() : '';
  const bin = rel && path.join(process.env.ELECTRON_OVERRIDE_DIST_PATH ?? path.join(dir, 'dist'), rel);
  if (bin && fs.existsSync(bin)) return { path: bin };
  return { reason: `no Electron binary in ${path.relative(ROOT, dir)} (its download did not happen)` };
}

const found = electronBinary();
const needsDisplay = process.platform === 'linux' && !process.env.DISPLAY && !process.env.WAYLAND_DISPLAY;
const skipReason =
  'reason' in found
    ? found.reason
    : needsDisplay && !findOnPath('Xvfb', process.env, process.platform)
      ? 'no display and no Xvfb to make one'
      : null;
// The one system part a CI run may lack (its download can be impossible): skipped there too, saying why.
const runs = reportSkipped('test/e2e/electron-app.test.ts', skipReason);

describe.skipIf(!runs)(titleWithSkip('Electron app', runs, skipReason ?? ''), () => {
  let dataDir: string;
  let xvfb: VirtualDisplay | null = null;
  let app: ElectronApplication;
  let page: Page;

  beforeAll(async () => {
    const main = path.join(ROOT, 'out', 'main', 'index.js');
    if (!fs.existsSync(main)) throw new Error(`${main} is missing: run npx electron-vite build first (npm test does)`);
    dataDir = tempDir('agent-studio-electron-');
    if (needsDisplay) xvfb = await startXvfb();
    const env: Record<string, string> = {};
    for (const [k, v] of Object.entries(process.env)) if (v !== undefined) env[k] = v;
    delete env.ELECTRON_RUN_AS_NODE;
    delete env.ELECTRON_RENDERER_URL;
    Object.assign(env, {
      AGENT_STUDIO_DATA_DIR: dataDir,
      AGENT_STUDIO_PORT: '0',
      // No keychain question: the encrypted-file secret store, with its key generated in the data dir.
      AGENT_STUDIO_SECRETS_BACKEND: 'file',
      ...(xvfb ? { DISPLAY: xvfb.display } : {}),
    });
    app = await _electron.launch({
      executablePath: (found as { path: string }).path,
      // Chromium refuses to start as root with its OS sandbox (CI containers); the renderer's own
      // sandbox (webPreferences.sandbox) is what this test checks and stays on.
      args: [...(process.getuid?.() === 0 ? ['--no-sandbox'] : []), ROOT],
      env,
      timeout: 60_000,
    });
    page = await app.firstWindow();
    await page.waitForFunction(() => document.documentElement.dataset.appReady === 'true', undefined, {
      timeout: 60_000,
    });
  });

  afterAll(async () => {
    await app?.close().catch(() => undefined);
    await xvfb?.stop();
    if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('opens the window on the app:// page with its title and sidebar', async () => {
    expect(page.url()).toBe('app://renderer/index.html');
    expect(await page.title()).toBe('Agent Studio');
    const nav = page.getByRole('navigation', { name: 'Main' });
    await nav.waitFor();
    for (const label of ['Sessions', 'Templates', 'Generate', 'Generations', 'Characters', 'Uploads', 'Settings'])
      expect(await nav.getByRole('button', { name: label }).count(), label).toBe(1);
  });

  it('gives the page the named-function bridge, no Node, and no new windows', async () => {
    const globals = await page.evaluate(() => ({
      bridge: typeof (globalThis as Record<string, unknown>).agentStudio,
      frozen: Object.isFrozen((globalThis as Record<string, unknown>).agentStudio),
      require: typeof (globalThis as Record<string, unknown>).require,
      process: typeof (globalThis as Record<string, unknown>).process,
    }));
    expect(globals).toEqual({ bridge: 'object', frozen: true, require: 'undefined', process: 'undefined' });
    // The window-open handler denies every window (and hands only https links to the OS browser).
    expect(await page.evaluate(() => window.open('app://renderer/index.html') === null)).toBe(true);
    expect(await app.evaluate(({ BrowserWindow }) => BrowserWindow.getAllWindows().length)).toBe(1);
  });

  it('quits cleanly and remembers the window size for the next start', async () => {
    const bounds = await app.evaluate(({ BrowserWindow }) => BrowserWindow.getAllWindows()[0]!.getNormalBounds());
    await app.close();
    const settings = JSON.parse(fs.readFileSync(path.join(dataDir, 'settings.json'), 'utf8')) as {
      window?: { width: number; height: number };
    };
    expect(settings.window).toMatchObject({ width: bounds.width, height: bounds.height });
  });
});

/** What the stand-in recorded of the shell (support/electron-stand-in.mjs `record`). */
interface StandInRecord {
  appUserModelId: string | null;
  traysMade: number;
  traysDestroyed: number;
  tooltip: string | null;
  menu: string[];
  clipboard: string | null;
  schemes: string[];
  errorBoxes: string[];
  /** Main windows open now. */
  windows: number;
}

interface StandInApp {
  dataDir: string;
  child: ChildProcess;
  /** Sends an order to the stand-in (its `orders`) and resolves with the answer. */
  ask<T = unknown>(type: string, extra?: Record<string, unknown>): Promise<T>;
  /** Resolves with the first message of this type (already received or still to come). */
  next(type: string): Promise<Record<string, unknown>>;
  /** Resolves with the exit code and the stand-in's last record. */
  exited: Promise<{ code: number | null; record: StandInRecord | null }>;
  output(): string;
}

const APP_PAGE = 'app://renderer/index.html';
const STAND_IN = path.join(import.meta.dirname, 'support', 'electron-stand-in.mjs');

/**
 * The built main bundle in plain Node over the stand-in, in a new data folder on a free port; `args` are the command
 * line's (after the program), `env` more environment.
 */
function launchOverStandIn(opts: { args?: string[]; env?: Record<string, string> } = {}): StandInApp {
  const main = path.join(ROOT, 'out', 'main', 'index.js');
  if (!fs.existsSync(main)) throw new Error(`${main} is missing: run npx electron-vite build first (npm test does)`);
  const dataDir = tempDir('agent-studio-stand-in-');
  fs.writeFileSync(
    path.join(dataDir, 'config.json'),
    JSON.stringify({ server: { port: 0 }, jobs: { renderConcurrency: 0 } }),
  );
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) if (v !== undefined && !k.startsWith('AGENT_STUDIO_')) env[k] = v;
  delete env.ELECTRON_RENDERER_URL;
  Object.assign(env, { AGENT_STUDIO_DATA_DIR: dataDir, AGENT_STUDIO_SECRETS_BACKEND: 'file' }, opts.env);
  const child = fork(main, opts.args ?? [], {
    execArgv: ['--import', STAND_IN],
    env,
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
  });
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const replies = new Map<number, { resolve(value: unknown): void; reject(err: Error): void }>();
  const messages: Record<string, unknown>[] = [];
  const waiters: { type: string; resolve(message: Record<string, unknown>): void }[] = [];
  let lastRecord: StandInRecord | null = null;
  child.on('message', (raw) => {
    const message = raw as Record<string, unknown>;
    if (message.type === 'reply') {
      const pending = replies.get(message.id as number);
      replies.delete(message.id as number);
      if (message.error) pending?.reject(new Error(String(message.error)));
      else pending?.resolve(message.value);
      return;
    }
    if (message.type === 'exit') lastRecord = message.record as StandInRecord;
    messages.push(message);
    for (const waiter of waiters.filter((w) => w.type === message.type)) {
      waiters.splice(waiters.indexOf(waiter), 1);
      waiter.resolve(message);
    }
  });
  const exited = new Promise<{ code: number | null; record: StandInRecord | null }>((resolve) =>
    child.once('exit', (code) => {
      for (const pending of replies.values()) pending.reject(new Error(`the app exited (${code}): ${output}`));
      resolve({ code, record: lastRecord });
    }),
  );
  let nextId = 0;
  return {
    dataDir,
    child,
    exited,
    output: () => output,
    ask: <T>(type: string, extra: Record<string, unknown> = {}) =>
      new Promise<T>((resolve, reject) => {
        const id = ++nextId;
        replies.set(id, { resolve: resolve as (value: unknown) => void, reject });
        child.send({ type, id, ...extra });
      }),
    next: (type) => {
      const seen = messages.find((m) => m.type === type);
      if (seen) return Promise.resolve(seen);
      return Promise.race([
        new Promise<Record<string, unknown>>((resolve) => waiters.push({ type, resolve })),
        exited.then(({ code }) => {
          throw new Error(`the app exited (${code}) before "${type}": ${output}`);
        }),
      ]);
    },
  };
}

/** The WAL file of the app's database: a core that was closed (not killed) leaves none, or an empty one. */
function walBytes(dataDir: string): number {
  const wal = fs.readdirSync(dataDir).find((f) => f.endsWith('.db-wal'));
  return wal ? fs.statSync(path.join(dataDir, wal)).size : 0;
}

describe('the built main bundle over a stand-in electron module (no Electron binary needed)', () => {
  let launched: StandInApp | null = null;

  afterEach(() => {
    if (launched && launched.child.exitCode === null) launched.child.kill('SIGKILL');
    if (launched) fs.rmSync(launched.dataDir, { recursive: true, force: true });
    launched = null;
  });

  it('starts, keeps one tray across two core restarts from Settings, and quits with the core closed', async () => {
    const app = (launched = launchOverStandIn());
    // Crash reports stay on this computer: the reporter starts with uploads off, its dumps in the data folder.
    const crashes = await app.next('crash-reporter-started');
    expect(crashes.options).toMatchObject({ uploadToServer: false });
    expect(crashes.dumps).toBe(path.join(fs.realpathSync(app.dataDir), 'crashes'));
    await app.next('tray-made');
    const ask = app.ask;
    const info = await ask<{ ok: boolean; value: { serverUrl: string } }>('invoke', {
      channel: 'app:getInfo',
      senderUrl: APP_PAGE,
    });
    expect(info.ok).toBe(true);
    let state = await ask<StandInRecord>('state');
    expect(state).toMatchObject({ traysMade: 1, traysDestroyed: 0, schemes: ['app'], errorBoxes: [], windows: 1 });
    expect(state.tooltip).toBe(`Agent Studio — API on ${info.value.serverUrl}`);

    const seen = [info.value.serverUrl];
    for (const maxContexts of [2, 3]) {
      const updated = await ask<{ ok: boolean; value: { restarted: boolean; serverUrl: string } }>('invoke', {
        channel: 'settings:update',
        args: { browser: { maxContexts } },
        senderUrl: APP_PAGE,
      });
      expect(updated).toMatchObject({ ok: true, value: { restarted: true } });
      seen.push(updated.value.serverUrl);
      state = await ask<StandInRecord>('state');
      // The same icon, now showing (and copying) the restarted core's address.
      expect(state).toMatchObject({ traysMade: 1, traysDestroyed: 0 });
      expect(state.tooltip).toBe(`Agent Studio — API on ${updated.value.serverUrl}`);
      expect(state.menu).toContain(`Copy API address (${updated.value.serverUrl})`);
    }
    // Port 0: each core listened on a port of its own, so the tray really followed the restarts.
    expect(new Set(seen).size).toBe(3);
    await ask('clickTray', { label: 'Copy API address' });
    expect((await ask<StandInRecord>('state')).clipboard).toBe(seen[2]);

    await ask('clickTray', { label: 'Quit Agent Studio' });
    const { code, record } = await app.exited;
    expect(code, app.output()).toBe(0);
    expect(record).toMatchObject({ traysMade: 1, traysDestroyed: 1 });
    expect(app.output()).not.toMatch(/did not close|closing the core failed/);
    expect(walBytes(app.dataDir)).toBe(0);
    // The window closed through the quit and saved its size.
    const settings = JSON.parse(fs.readFileSync(path.join(app.dataDir, 'settings.json'), 'utf8')) as {
      window?: { width: number };
    };
    expect(settings.window?.width).toBeGreaterThan(0);
  });

  it('a start at login (--background): the API answers and the tray is there, but no window until the tray opens it', async () => {
    const app = (launched = launchOverStandIn({ args: ['--background'] }));
    await app.next('tray-made');
    const info = await app.ask<{ ok: boolean; value: { serverUrl: string } }>('invoke', {
      channel: 'app:getInfo',
      senderUrl: APP_PAGE,
    });
    // the agents' API listens on its own, over HTTP
    expect((await fetch(`${info.value.serverUrl}/healthz`)).status).toBe(200);
    expect(await app.ask<StandInRecord>('state')).toMatchObject({ windows: 0, errorBoxes: [] });
    // the session starting the app again (its login entry) changes nothing; a launch by the person opens the window
    await app.ask('appEvent', { event: 'second-instance', args: [['/opt/Agent Studio/agent-studio', '--background']] });
    expect((await app.ask<StandInRecord>('state')).windows).toBe(0);
    await app.ask('clickTray', { label: 'Open Agent Studio' });
    expect((await app.ask<StandInRecord>('state')).windows).toBe(1);
    await app.ask('clickTray', { label: 'Quit Agent Studio' });
    expect((await app.exited).code, app.output()).toBe(0);
  });

  it('a second launch opens the window of an app started at login', async () => {
    const app = (launched = launchOverStandIn({ args: ['--background'] }));
    await app.next('tray-made');
    await app.ask('appEvent', { event: 'second-instance', args: [['/opt/Agent Studio/agent-studio']] });
    expect((await app.ask<StandInRecord>('state')).windows).toBe(1);
    await app.ask('clickTray', { label: 'Quit Agent Studio' });
    expect((await app.exited).code, app.output()).toBe(0);
  });

  it('Settings → Start-up on Linux writes the autostart entry for the executable the installed app runs as', async () => {
    const config = tempDir('agent-studio-stand-in-xdg-');
    try {
      const app = (launched = launchOverStandIn({ env: { STAND_IN_PACKAGED: '1', XDG_CONFIG_HOME: config } }));
      await app.next('tray-made');
      const invoke = (channel: string, args?: unknown) =>
        app.ask<{ ok: boolean; value: { on: boolean; where: string } }>('invoke', {
          channel,
          args,
          senderUrl: APP_PAGE,
        });
      const file = path.join(config, 'autostart', 'agent-studio.desktop');
      expect(await invoke('autostart:get')).toMatchObject({ ok: true, value: { on: false, where: file } });
      expect(await invoke('autostart:set', { on: true })).toMatchObject({ ok: true, value: { on: true } });
      // the stand-in's executable is this Node binary: the one the entry must start, quoted, with --background
      const exec = /^Exec=(.*)$/m.exec(fs.readFileSync(file, 'utf8'))?.[1];
      expect(exec).toBe(`"${process.execPath}" --background`);
      expect(await invoke('autostart:set', { on: false })).toMatchObject({ ok: true, value: { on: false } });
      expect(fs.existsSync(file)).toBe(false);
      // Linux has no login items: Electron's were never asked to change
      expect((await app.ask<{ loginItemSettings: unknown[] }>('state')).loginItemSettings).toEqual([]);
      await app.ask('clickTray', { label: 'Quit Agent Studio' });
      expect((await app.exited).code, app.output()).toBe(0);
    } finally {
      fs.rmSync(config, { recursive: true, force: true });
    }
  });

  it("allows full screen to the app's own page only; serves the page, and a 404 for a missing file", async () => {
    const app = (launched = launchOverStandIn());
    await app.next('tray-made');
    const permission = (permission: string, url: string) => app.ask('permission', { permission, url });
    expect(await permission('fullscreen', APP_PAGE)).toEqual({ granted: true, checked: true });
    for (const [name, url] of [
      ['fullscreen', 'https://example.com/'],
      ['media', APP_PAGE],
      ['notifications', APP_PAGE],
      ['clipboard-read', APP_PAGE],
    ])
      expect(await permission(name, url), `${name} from ${url}`).toEqual({ granted: false, checked: false });

    const page = await app.ask<{ status: number; csp: string | null }>('appProtocol', { url: APP_PAGE });
    expect(page.status).toBe(200);
    expect(page.csp).toContain("default-src 'self'");
    for (const url of ['app://renderer/missing.png', 'app://renderer/assets/', 'app://renderer/..%2F..%2Fpackage.json'])
      expect((await app.ask<{ status: number }>('appProtocol', { url })).status, url).toBe(404);
    await app.ask('clickTray', { label: 'Quit Agent Studio' });
    expect((await app.exited).code).toBe(0);
  });

  it('holds a system shutdown back until the core is closed (powerMonitor shutdown), then quits', async () => {
    const app = (launched = launchOverStandIn());
    await app.next('tray-made');
    expect(await app.ask('powerShutdown')).toEqual({ prevented: true });
    const { code, record } = await app.exited;
    expect(code, app.output()).toBe(0);
    expect(record?.traysDestroyed).toBe(1);
    expect(walBytes(app.dataDir)).toBe(0);
  });

  it("gives Windows the installer's app id (electron-builder.yml appId, put into the bundle at build time)", () => {
    const appId = /^appId:\s*(\S+)\s*$/m.exec(fs.readFileSync(path.join(ROOT, 'electron-builder.yml'), 'utf8'))?.[1];
    expect(appId).toBe('dev.agentstudio.app');
    const bundle = fs.readFileSync(path.join(ROOT, 'out', 'main', 'index.js'), 'utf8');
    expect(bundle).not.toContain('__AGENT_STUDIO_APP_ID__');
    expect(bundle).toContain(`.install(${JSON.stringify(appId)})`);
  });
});
