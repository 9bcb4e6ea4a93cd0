// The renderer in real Chromium over the desktop app's own path: a preload-like shim with one named
// function per contract channel, dispatched in Node exactly as the Electron IPC layer does
// (contract zod parse -> DesktopClient -> app.inject into the real Fastify app, with the desktop key).
import fs from 'node:fs';
import path from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createUploadsHandlers,
  DesktopClient,
  dispatchIpc,
  resolveDesktopKey,
  DESKTOP_KEY_ACCOUNT,
} from '../../src/main/core/desktop/desktop-client.js';
import { resolveBrowserExecutable } from '../../src/main/core/login/browser-resolver.js';
import type { IpcResult } from '../../src/shared/errors.js';
import { IPC_CHANNELS } from '../../src/shared/ipc-channels.js';
import type { IpcHandlers, UploadProgress } from '../../src/shared/ipc-contract.js';
import { testAppInfo } from './support/app-info.js';
import { TEST_BROWSER_ARGS } from '../helpers/browser.js';
import { media } from '../helpers/media-fixtures.js';
import { startTestServer, tempDir, type TestServer } from '../helpers/test-server.js';
import { buildRenderer } from './support/build-renderer.js';
import { startRendererServer, type RendererServer } from './support/renderer-server.js';

let t: TestServer;
let web: RendererServer;
let browser: Browser;
let client: DesktopClient;
const outDir = tempDir('agent-studio-renderer-ipc-');
const filesDir = tempDir('agent-studio-picked-');
/** What the "OS file dialog" answers next. */
let nextPick: string | null = null;

/** Stand-in for src/preload/index.ts: named functions from IPC_CHANNELS over one test binding. */
function installPreloadShim(channels: Record<string, readonly string[]>): void {
  const invoke = (window as unknown as { __ipc: (channel: string, args: unknown) => Promise<unknown> }).__ipc;
  const listeners = new Set<(p: unknown) => void>();
  (window as unknown as { __uploadProgress: (p: unknown) => void }).__uploadProgress = (p) =>
    listeners.forEach((l) => l(p));
  const api: Record<string, unknown> = {};
  for (const [domain, methods] of Object.entries(channels)) {
    const fns: Record<string, (args?: unknown) => Promise<unknown>> = {};
    for (const method of methods) fns[method] = (args?: unknown) => invoke(`${domain}:${method}`, args);
    api[domain] = Object.freeze(fns);
  }
  api.events = Object.freeze({
    onUploadProgress(listener: (p: unknown) => void) {
      listeners.add(listener);
      return () => void listeners.delete(listener);
    },
  });
  Object.defineProperty(window, 'agentStudio', { value: Object.freeze(api) });
}

async function openApp(): Promise<{
  page: Page;
  close: () => Promise<void>;
  progress: UploadProgress[];
  problems: string[];
}> {
  const context = await browser.newContext({ viewport: { width: 1360, height: 860 } });
  const page = await context.newPage();
  const problems: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'error') problems.push(m.text());
  });
  page.on('pageerror', (e) => problems.push(e.message));
  const progress: UploadProgress[] = [];
  const info = testAppInfo(t);
  const app: IpcHandlers<'app'> = {
    getInfo: async () => ({ ok: true, value: info }),
    openExternal: async () => ({ ok: true, value: { opened: false } }),
  };
  const uploads = createUploadsHandlers({
    client,
    chooseFile: async () => {
      const file = nextPick;
      nextPick = null;
      return file;
    },
    sendProgress: (p) => {
      progress.push(p);
      void page
        .evaluate((x) => (window as unknown as { __uploadProgress: (p: unknown) => void }).__uploadProgress(x), p)
        .catch(() => undefined);
    },
  });
  const handlers = {
    app,
    uploads,
    sessions: client.sessions,
    templates: client.templates,
    characters: client.characters,
    generate: client.generate,
    generations: client.generations,
    credits: client.credits,
  };
  await page.exposeBinding('__ipc', (_source, channel: string, args: unknown) =>
    dispatchIpc(handlers as never, channel, args),
  );
  await page.addInitScript(installPreloadShim, IPC_CHANNELS as unknown as Record<string, readonly string[]>);
  await page.goto(`${web.url}/index.html`);
  await page.getByRole('navigation', { name: 'Main' }).waitFor();
  return { page, close: () => context.close(), progress, problems };
}

const nav = (page: Page, name: string) => page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name });
const ipc = <T>(page: Page, domain: string, method: string, args?: unknown) =>
  page.evaluate(
    ([d, m, a]) =>
      (
        window as unknown as { agentStudio: Record<string, Record<string, (x?: unknown) => Promise<unknown>>> }
      ).agentStudio[d as string][m as string](a),
    [domain, method, args] as const,
  ) as Promise<IpcResult<T>>;

beforeAll(async () => {
  await buildRenderer(outDir);
  t = await startTestServer({}, { credits: 1000 });
  web = await startRendererServer({ dir: outDir, apiUrl: t.url });
  const desktop = await resolveDesktopKey(t.core);
  client = new DesktopClient({ app: t.server.app, key: desktop.key, host: new URL(t.url).host });
  browser = await chromium.launch({ executablePath: resolveBrowserExecutable({}).path, args: TEST_BROWSER_ARGS });
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await web?.close();
  await t?.close();
  fs.rmSync(outDir, { recursive: true, force: true });
  fs.rmSync(filesDir, { recursive: true, force: true });
});

describe('renderer over the IPC path (contract + DesktopClient + app.inject)', () => {
  it('keeps one desktop key in the secret store and reuses it', async () => {
    const first = await resolveDesktopKey(t.core);
    const again = await resolveDesktopKey(t.core);
    expect(first.persisted).toBe(true);
    expect(again.key).toBe(first.key);
    expect(await t.core.secrets.get(DESKTOP_KEY_ACCOUNT)).toBe(first.key);
    expect(t.core.keys.authenticate(first.key)?.scopes).toEqual(['*']);
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
    fs.writeFileSync(file, media.png(1024 * 1024));
    const { page, close, progress } = await openApp();
    try {
      await nav(page, 'Characters').click();
      await page.getByRole('button', { name: 'New character' }).click();
      const form = page.getByRole('form', { name: 'New character' });
      await form.getByLabel('Name').fill('Ipc Person');
      nextPick = file;
      await form.getByRole('button', { name: '+ Add image…' }).click();
      await form.locator('.chip', { hasText: 'portrait.png' }).waitFor();
      expect(progress.map((p) => p.phase)).toContain('uploading');
      expect(progress.at(-1)).toMatchObject({ phase: 'done', loaded: 1024 * 1024, total: 1024 * 1024 });
      await form.getByRole('button', { name: 'Create character' }).click();
      await page.getByTestId('character-list').getByText('Ipc Person').waitFor();
      const res = (await (await t.request('/api/characters?q=ipc')).json()) as {
        data: { name: string; reference_image_keys: string[] }[];
      };
      // With no "default" org, the desktop key belongs to the first org: the test key's org.
      expect(res.data).toMatchObject([{ name: 'Ipc Person', visibility: 'private' }]);
      expect(res.data[0].reference_image_keys[0]).toMatch(/\/portrait\.png$/);
    } finally {
      await close();
    }
  });

  it('starts a generation and lists it', async () => {
    const { page, close } = await openApp();
    try {
      await nav(page, 'Generate').click();
      await page.getByLabel('Template', { exact: true }).selectOption('text-to-video-cinematic');
      const form = page.getByRole('form', { name: 'Generate a video' });
      await form.getByLabel('Scene').fill('A red kite over green hills in the wind');
      await form.getByRole('button', { name: 'Generate' }).click();
      await page.getByTestId('generate-result').getByRole('button', { name: 'View progress' }).click();
      await page.getByTestId('generation-row').first().waitFor();
      expect(await page.getByTestId('generation-row').first().innerText()).toContain('Cinematic scene from text');
    } finally {
      await close();
    }
  });

  it('parses every argument with the contract and maps API errors to { ok: false, error }', async () => {
    const { page, close } = await openApp();
    try {
      const short = await ipc(page, 'characters', 'list', { q: 'a' });
      expect(short).toMatchObject({ ok: false, error: { code: 'validation_error' } });
      const noId = await ipc(page, 'templates', 'get', {});
      expect(noId).toMatchObject({ ok: false, error: { code: 'validation_error' } });
      const extra = await ipc(page, 'generate', 'fromTemplate', {
        templateId: 'text-to-video-cinematic',
        variables: {},
        rm: '-rf',
      });
      expect(extra).toMatchObject({ ok: false, error: { code: 'validation_error' } });
      const missing = await ipc(page, 'templates', 'get', { id: 'no-such-template' });
      expect(missing).toMatchObject({ ok: false, error: { code: 'not_found', details: { status: 404 } } });
      const builtin = await ipc(page, 'templates', 'delete', { id: 'text-to-video-cinematic' });
      expect(builtin.ok).toBe(false);
      const unpicked = await ipc(page, 'uploads', 'upload', { token: 'never-picked' });
      expect(unpicked).toMatchObject({ ok: false, error: { code: 'not_found' } });
      const sessions = await ipc<{ data: unknown[] }>(page, 'sessions', 'list');
      expect(sessions).toEqual({ ok: true, value: { data: [], pagination: { offset: 0, limit: 0, has_more: false } } });
    } finally {
      await close();
    }
  });
});
