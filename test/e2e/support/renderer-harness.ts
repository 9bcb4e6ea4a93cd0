// One renderer e2e set-up for a test file: the renderer built as the app builds it, a real API server,
// Chromium, and pages whose window.agentStudio is answered by the app's IPC dispatcher over real HTTP
// (ipc-bridge.ts). The OS parts are stand-ins the test drives: the file picker, the save dialog, the
// clipboard and the file manager. Screenshots at 1280x800 in light and dark go to test-results/.
import fs from 'node:fs';
import path from 'node:path';
import { type Browser, type BrowserContext, type Locator, type Page } from 'playwright-core';
import type { AppConfigInput } from '../../../src/main/core/config/config.schema.js';
import { launchTestBrowser } from '../../helpers/browser.js';
import { startTestServer, tempDir, type TestServer } from '../../helpers/test-server.js';
import { testAppInfo } from './app-info.js';
import { buildRenderer } from './build-renderer.js';
import { createHttpApi } from './http-api.js';
import { installIpcBridge, type IpcBridge } from './ipc-bridge.js';
import { startRendererServer, type RendererServer } from './renderer-server.js';

/** Where the screenshots go (looked at by people, not compared). */
export const SHOTS_DIR = path.resolve('test-results', 'desktop-app');

export interface OpenApp {
  page: Page;
  context: BrowserContext;
  bridge: IpcBridge;
  /** Console errors, page errors and CSP violations seen so far. */
  problems: string[];
}

export interface RendererHarness {
  t: TestServer;
  /** A folder for files the test hands to the "OS" (picked, dropped, saved). */
  filesDir: string;
  openApp(): Promise<OpenApp>;
  /** The next answer of the "file picker": a file with these bytes. */
  pickNext(name: string, bytes: Buffer): string;
  /** The next answer of the "save dialog": this path, or null (cancelled). */
  saveNext(file: string | null): void;
  close(): Promise<void>;
}

export async function startRendererHarness(
  config: Partial<AppConfigInput> = {},
  opts: { credits?: number } = {},
): Promise<RendererHarness> {
  const outDir = tempDir('agent-studio-renderer-');
  const filesDir = tempDir('agent-studio-renderer-files-');
  await buildRenderer(outDir);
  const web: RendererServer = await startRendererServer({ dir: outDir });
  // As the desktop app does (startCore's windowOrigin): the window may show the live takeover page in a frame.
  const login = { ...config.login, livePageEmbedders: [...(config.login?.livePageEmbedders ?? []), web.url] };
  const t = await startTestServer({ ...config, login }, { credits: opts.credits ?? 5000 });
  const browser: Browser = await launchTestBrowser();
  let nextPick: string | null = null;
  let nextSave: string | null = null;

  return {
    t,
    filesDir,
    async openApp() {
      const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
      const page = await context.newPage();
      const problems: string[] = [];
      page.on('console', (m) => {
        if (m.type() === 'error') problems.push(`console: ${m.text()}`);
      });
      page.on('pageerror', (e) => problems.push(`pageerror: ${e.message}`));
      await page.addInitScript(() => {
        document.addEventListener('securitypolicyviolation', (e) =>
          console.error(`CSP violation: ${e.violatedDirective} ${e.blockedURI}`),
        );
      });
      const bridge = await installIpcBridge(page, {
        api: createHttpApi({ url: t.url, key: t.key }),
        core: t.core,
        orgId: t.orgId,
        info: testAppInfo(t),
        chooseFile: () => {
          const file = nextPick;
          nextPick = null;
          return file;
        },
        chooseSavePath: () => {
          const file = nextSave;
          nextSave = null;
          return file;
        },
      });
      await page.goto(`${web.url}/index.html`);
      await page.getByRole('navigation', { name: 'Main' }).waitFor();
      return { page, context, bridge, problems };
    },
    pickNext(name, bytes) {
      nextPick = path.join(filesDir, name);
      fs.writeFileSync(nextPick, bytes);
      return nextPick;
    },
    saveNext(file) {
      nextSave = file;
    },
    async close() {
      await browser.close();
      await web.close();
      await t.close();
      fs.rmSync(outDir, { recursive: true, force: true });
      fs.rmSync(filesDir, { recursive: true, force: true });
    },
  };
}

export const nav = (page: Page, name: string) =>
  page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name, exact: true });

/**
 * The page at 1280x800 in the light and the dark colour scheme, as `<name>-light.png` and
 * `<name>-dark.png`, scrolled so that `show` (the part the picture is about) is in view.
 */
export async function screenshots(page: Page, name: string, show?: Locator): Promise<void> {
  fs.mkdirSync(SHOTS_DIR, { recursive: true });
  await page.setViewportSize({ width: 1280, height: 800 });
  await show?.scrollIntoViewIfNeeded();
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    // The theme follows the OS setting through a media-query listener: wait for it to apply.
    await page.waitForFunction(
      (s) => !document.documentElement.dataset.theme || document.documentElement.dataset.theme === s,
      scheme,
    );
    // Transitions finished at once: a colour fading to the new scheme is not what the screen shows.
    await page.screenshot({ path: path.join(SHOTS_DIR, `${name}-${scheme}.png`), animations: 'disabled' });
  }
  await page.emulateMedia({ colorScheme: 'light' });
}

/**
 * Puts files on a drop zone as the OS does when they are dragged from a folder: the Files stand for
 * files on disk (the preload would find their paths), so they go through uploads:pickDropped.
 */
export async function dropFiles(
  page: Page,
  target: Locator,
  files: { name: string; type: string; bytes: Buffer }[],
  opts: { fromDisk?: boolean } = {},
): Promise<void> {
  const dataTransfer = await page.evaluateHandle(
    ({ list, fromDisk }) => {
      const dt = new DataTransfer();
      const w = window as unknown as { __diskFiles?: WeakSet<File> };
      w.__diskFiles ??= new WeakSet();
      for (const f of list) {
        const bytes = Uint8Array.from(atob(f.base64), (c) => c.charCodeAt(0));
        const file = new File([bytes], f.name, { type: f.type });
        if (fromDisk) w.__diskFiles.add(file);
        dt.items.add(file);
      }
      return dt;
    },
    {
      list: files.map((f) => ({ name: f.name, type: f.type, base64: f.bytes.toString('base64') })),
      fromDisk: opts.fromDisk ?? true,
    },
  );
  await target.dispatchEvent('dragenter', { dataTransfer });
  await target.dispatchEvent('dragover', { dataTransfer });
  await target.dispatchEvent('drop', { dataTransfer });
}

/** Pastes files into the focused part of `target` (a screenshot or a copied picture: no file on disk). */
export async function pasteFiles(
  target: Locator,
  files: { name: string; type: string; bytes: Buffer }[],
): Promise<void> {
  await target.focus();
  await target.evaluate(
    (el, list) => {
      const dt = new DataTransfer();
      for (const f of list) {
        const bytes = Uint8Array.from(atob(f.base64), (c) => c.charCodeAt(0));
        dt.items.add(new File([bytes], f.name, { type: f.type }));
      }
      el.dispatchEvent(new ClipboardEvent('paste', { clipboardData: dt, bubbles: true, cancelable: true }));
    },
    files.map((f) => ({ name: f.name, type: f.type, base64: f.bytes.toString('base64') })),
  );
}
