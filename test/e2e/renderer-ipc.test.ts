// The renderer in real Chromium over the desktop app's own path: the preload's window.agentStudio
// (invoke + on, from the shared contract) answered in Node by the app's IPC dispatcher, exactly as the
// Electron IPC layer does (contract zod parse -> in-process API with the desktop key -> answer parsed
// with the shared schemas), and the core's bus events forwarded to the page.
import fs from 'node:fs';
import path from 'node:path';
import { type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DESKTOP_KEY_ACCOUNT, resolveDesktopKey, type DesktopKey } from '../../src/main/core/desktop/desktop-key.js';
import { createInProcessApi, type CoreApi } from '../../src/main/core/http/in-process-api.js';
import type { IpcResult } from '../../src/shared/errors.js';
import type { UploadProgress } from '../../src/shared/ipc-contract.js';
import { testAppInfo } from './support/app-info.js';
import { launchTestBrowser } from '../helpers/browser.js';
import { media } from '../helpers/media-fixtures.js';
import { startTestServer, tempDir, type TestServer } from '../helpers/test-server.js';
import { buildRenderer } from './support/build-renderer.js';
import { installIpcBridge, type IpcBridge } from './support/ipc-bridge.js';
import { startRendererServer, type RendererServer } from './support/renderer-server.js';

let t: TestServer;
let web: RendererServer;
let browser: Browser;
let api: CoreApi;
let desktop: DesktopKey;
const outDir = tempDir('agent-studio-renderer-ipc-');
const filesDir = tempDir('agent-studio-picked-');
/** What the "OS file dialog" answers next. */
let nextPick: string | null = null;

async function openApp(): Promise<{ page: Page; close: () => Promise<void>; bridge: IpcBridge; problems: string[] }> {
  const context = await browser.newContext({ viewport: { width: 1360, height: 860 } });
  const page = await context.newPage();
  const problems: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'error') problems.push(m.text());
  });
  page.on('pageerror', (e) => problems.push(e.message));
  const bridge = await installIpcBridge(page, {
    api,
    core: t.core,
    orgId: desktop.orgId,
    info: testAppInfo(t),
    chooseFile: () => {
      const file = nextPick;
      nextPick = null;
      return file;
    },
  });
  await page.goto(`${web.url}/index.html`);
  await page.getByRole('navigation', { name: 'Main' }).waitFor();
  return { page, close: () => context.close(), bridge, problems };
}

const nav = (page: Page, name: string) => page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name });
/** window.agentStudio.channels[c] from the page, as the renderer calls it. */
const invoke = <T>(page: Page, channel: string, args?: unknown) =>
  page.evaluate(
    ([c, a]) =>
      (
        window as unknown as { agentStudio: { channels: Record<string, (a?: unknown) => Promise<unknown>> } }
      ).agentStudio.channels[c](a),
    [channel, args] as const,
  ) as Promise<IpcResult<T>>;

beforeAll(async () => {
  await buildRenderer(outDir);
  t = await startTestServer({}, { credits: 1000 });
  web = await startRendererServer({ dir: outDir });
  desktop = await resolveDesktopKey(t.core);
  api = createInProcessApi({ app: t.server.app, key: desktop.key, host: new URL(t.url).host });
  browser = await launchTestBrowser();
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await web?.close();
  await t?.close();
  fs.rmSync(outDir, { recursive: true, force: true });
  fs.rmSync(filesDir, { recursive: true, force: true });
});

describe('renderer over the IPC path (contract + IPC dispatcher + in-process API)', () => {
  it('keeps one desktop key in the secret store and reuses it', async () => {
    const first = await resolveDesktopKey(t.core);
    const again = await resolveDesktopKey(t.core);
    expect(first.persisted).toBe(true);
    expect(again.key).toBe(first.key);
    expect(await t.core.secrets.get(DESKTOP_KEY_ACCOUNT)).toBe(first.key);
    expect(t.core.keys.authenticate(first.key)?.scopes).toEqual(['*']);
    // With no "default" org, the desktop key belongs to the first org: the test key's org.
    expect(first.orgId).toBe(t.orgId);
  });

  it('shows the server’s templates and a template’s variables', async () => {
    const { page, close, problems } = await openApp();
    try {
      const fromServer = (await (await t.request('/api/templates?limit=100')).json()) as {
        data: { title: string; input_variables: unknown[] }[];
      };
      await nav(page, 'Templates').click();
      const list = page.getByTestId('template-list');
      await expect.poll(() => list.locator('.item-title').allInnerTexts()).toEqual(fromServer.data.map((x) => x.title));
      await list.getByRole('button').first().click();
      await expect.poll(() => page.getByTestId('variable-row').count()).toBe(fromServer.data[0].input_variables.length);
      expect(problems).toEqual([]);
    } finally {
      await close();
    }
  });

  it('uploads a picked file in process with progress events, then creates a character from it', async () => {
    const file = path.join(filesDir, 'portrait.png');
    const size = 1024 * 1024;
    fs.writeFileSync(file, media.png(size));
    const { page, close, bridge } = await openApp();
    try {
      await nav(page, 'Characters').click();
      await page.getByRole('button', { name: 'New character' }).click();
      const form = page.getByRole('form', { name: 'New character' });
      await form.getByLabel('Name').fill('Ipc Person');
      nextPick = file;
      await form.getByRole('button', { name: '+ Add image…' }).click();
      await form.locator('.chip', { hasText: 'portrait.png' }).waitFor();
      const progress = bridge.sent.filter((e) => e.event === 'upload:progress').map((e) => e.payload as UploadProgress);
      expect(progress[0]).toEqual({ id: expect.any(String), loaded: 0, total: size });
      expect(progress.at(-1)).toEqual({ id: progress[0].id, loaded: size, total: size });
      const loaded = progress.map((p) => p.loaded);
      expect(loaded).toEqual([...loaded].sort((a, b) => a - b));
      await form.getByRole('button', { name: 'Create character' }).click();
      await page.getByTestId('character-list').getByText('Ipc Person').waitFor();
      const res = (await (await t.request('/api/characters?q=ipc')).json()) as {
        data: { name: string; reference_image_keys: string[] }[];
      };
      expect(res.data).toMatchObject([{ name: 'Ipc Person', visibility: 'private' }]);
      expect(res.data[0].reference_image_keys[0]).toMatch(/\/portrait\.png$/);
      // A handle is single use.
      const again = await invoke(page, 'uploads:upload', { file: progress[0].id });
      expect(again).toMatchObject({ ok: false, error: { code: 'not_found' } });
    } finally {
      await close();
    }
  });

  it('starts a generation, lists it, and gets its cancel as a generation:finished event', async () => {
    const { page, close, bridge } = await openApp();
    try {
      await nav(page, 'Generate').click();
      await page.getByLabel('Template', { exact: true }).selectOption('text-to-video-cinematic');
      const form = page.getByRole('form', { name: 'Generate a video' });
      await form.getByLabel('Scene').fill('A red kite over green hills in the wind');
      await form.getByRole('button', { name: 'Generate' }).click();
      await page.getByTestId('generate-result').getByRole('button', { name: 'View progress' }).click();
      const row = page.getByTestId('generation-row').first();
      await row.waitFor();
      expect(await row.innerText()).toContain('Cinematic scene from text');
      const id = (await row.locator('.cell-sub.mono').innerText()).trim();

      // The page hears the core's events for its organization only.
      await page.evaluate(() => {
        const w = window as unknown as {
          agentStudio: { on: (e: string, l: (p: unknown) => void) => void };
          heard: Promise<unknown>;
        };
        w.heard = new Promise((resolve) => w.agentStudio.on('generation:progress', resolve));
      });
      const other = t.newOrg('other-org');
      t.core.events.emit('generation.progress', {
        orgId: other.orgId,
        generationId: 'x',
        progress: 5,
        queuePosition: 2,
      });
      t.core.events.emit('generation.progress', {
        orgId: t.orgId,
        generationId: id,
        progress: 40,
        queuePosition: null,
      });
      expect(await page.evaluate(() => (window as unknown as { heard: Promise<unknown> }).heard)).toEqual({
        id,
        status: 'generating',
        progress: 40,
      });

      await row.getByRole('button', { name: `Cancel ${id}` }).click();
      await row.getByTestId('status-badge').filter({ hasText: 'canceled' }).waitFor();
      await expect
        .poll(() => bridge.sent.filter((e) => e.event.startsWith('generation:')).map((e) => e.payload))
        .toEqual([
          { id, status: 'generating', progress: 40 },
          { id, status: 'canceled' },
        ]);
    } finally {
      await close();
    }
  });

  it('parses every argument with the contract and maps API errors to { ok: false, error }', async () => {
    const { page, close } = await openApp();
    try {
      const short = await invoke(page, 'characters:list', { query: { q: 'a' } });
      expect(short).toMatchObject({ ok: false, error: { code: 'validation_error' } });
      const noId = await invoke(page, 'templates:get', { params: {} });
      expect(noId).toMatchObject({ ok: false, error: { code: 'validation_error', message: /params\.id/ } });
      const extra = await invoke(page, 'generate:fromTemplate', {
        params: { id: 'text-to-video-cinematic' },
        body: { variables: {}, rm: '-rf' },
      });
      expect(extra).toMatchObject({ ok: false, error: { code: 'validation_error' } });
      const stray = await invoke(page, 'credits:get', { path: '/api/keys' });
      expect(stray).toMatchObject({ ok: false, error: { code: 'validation_error' } });
      const missing = await invoke(page, 'templates:get', { params: { id: 'no-such-template' } });
      expect(missing).toMatchObject({ ok: false, error: { code: 'not_found', details: { status: 404 } } });
      const builtin = await invoke(page, 'templates:delete', { params: { id: 'text-to-video-cinematic' } });
      expect(builtin).toMatchObject({ ok: false, error: { code: 'forbidden', details: { status: 403 } } });
      const unpicked = await invoke(page, 'uploads:upload', { file: 'never-picked' });
      expect(unpicked).toMatchObject({ ok: false, error: { code: 'not_found' } });
      // Named functions only: a name outside the contract has none, and the set cannot be extended.
      const shape = await page.evaluate(() => {
        const b = (window as unknown as { agentStudio: { channels: Record<string, unknown> } }).agentStudio;
        return {
          exportAll: typeof b.channels['keys:exportAll'],
          list: typeof b.channels['sessions:list'],
          invoke: typeof (b as unknown as { invoke?: unknown }).invoke,
          frozen: Object.isFrozen(b.channels),
        };
      });
      expect(shape).toEqual({ exportAll: 'undefined', list: 'function', invoke: 'undefined', frozen: true });
      expect(await invoke(page, 'sessions:list')).toEqual({ ok: true, value: { data: [] } });
    } finally {
      await close();
    }
  });
});
