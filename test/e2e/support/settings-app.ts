// The set-up shared by settings*.test.ts: the desktop app's real core (desktop-app.ts), the built renderer
// served to Chromium, and, for the mailbox tests, a real Dovecot; with the helpers that open the Settings screen.
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll } from 'vitest';
import { launchTestBrowser } from '../../helpers/browser.js';
import { startDovecot, type Dovecot } from '../../helpers/dovecot.js';
import { tempDir } from '../../helpers/temp-dir.js';
import { buildRenderer } from './build-renderer.js';
import { openWindow, SHOTS_DIR, startDesktopApp, type DesktopApp } from './desktop-app.js';
import { startRendererServer, type RendererServer } from './renderer-server.js';

/** The desktop app (set in useSettingsApp's beforeAll). */
export let app: DesktopApp;
let web: RendererServer;
let browser: Browser;
/** The IMAP server, started only when useSettingsApp is asked for it. */
export let dovecot: Dovecot;
const outDir = tempDir('agent-studio-settings-ui-');
export const IMAP_USER = { user: 'ada@example.test', password: 'imap-pass-1' };

export const nav = (page: Page, name: string) =>
  page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name });
export const section = (page: Page, title: string) => page.getByRole('region', { name: title, exact: true });
export const shot = (page: Page, name: string) => page.screenshot({ path: path.join(SHOTS_DIR, `${name}.png`) });
export const core = () => app.current().core;
export const desktopOrg = () => app.current().desktop.orgId;

export async function openSettings() {
  const win = await openWindow(browser, app, web.url);
  await nav(win.page, 'Settings').click();
  await win.page.getByRole('heading', { level: 1, name: 'Settings' }).waitFor();
  return win;
}

/** A port that was free a moment ago (the OS picked it). */
export async function freePort(): Promise<number> {
  const probe = net.createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as net.AddressInfo;
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

/** Starts the app, the renderer and Chromium (and Dovecot if asked) before the file's tests; stops them after. */
/** `config`: the core's config.json, read when the app starts (after the file's earlier beforeAll hooks ran). */
export function useSettingsApp(opts: { dovecot?: boolean; config?: () => Record<string, unknown> } = {}): void {
  beforeAll(async () => {
    fs.mkdirSync(SHOTS_DIR, { recursive: true });
    await buildRenderer(outDir);
    [app, web] = await Promise.all([
      startDesktopApp(opts.config?.()),
      startRendererServer({ dir: outDir }),
      opts.dovecot ? startDovecot({ users: [IMAP_USER] }).then((d) => (dovecot = d)) : undefined,
    ]);
    browser = await launchTestBrowser();
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await web?.close();
    await dovecot?.close();
    await app?.close();
    fs.rmSync(outDir, { recursive: true, force: true });
  });
}
