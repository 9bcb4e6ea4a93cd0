// The app shell and its forms end to end (the built renderer in Chromium, the desktop core behind the
// IPC contract): the login form's method menu from GET /api/login/methods, form state that survives
// switching screens, keyboard shortcuts, the theme (setting and OS), the sidebar's API status when the
// API is down, S3 storage checked and applied by a restart, and screenshots of every screen at
// 1280x800 in light and dark mode (test-results/screens).
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
// @ts-expect-error s3rver ships no type declarations
import S3rver from 's3rver';
import { type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseConfig } from '../../src/main/core/config/load-config.js';
import { createCore } from '../../src/main/core/create-core.js';
import { settingsChannels } from '../../src/main/core/desktop/settings-channels.js';
import { launchTestBrowser } from '../helpers/browser.js';
import { tempDir } from '../helpers/temp-dir.js';
import { buildRenderer } from './support/build-renderer.js';
import { openWindow, SHOTS_DIR, startDesktopApp, type DesktopApp } from './support/desktop-app.js';
import { memoryThemeStore, staticHost } from './support/desktop-host.js';
import { startRendererServer, type RendererServer } from './support/renderer-server.js';

let app: DesktopApp;
let web: RendererServer;
let browser: Browser;
const outDir = tempDir('agent-studio-shell-ui-');

const nav = (page: Page, name: string) => page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name });
const themeOf = (page: Page) => page.evaluate(() => document.documentElement.dataset.theme);
const background = (page: Page) => page.evaluate(() => getComputedStyle(document.documentElement).backgroundColor);
const mod = process.platform === 'darwin' ? 'Meta' : 'Control';

/** Buttons and form controls with no name a screen reader could say (text, label, aria-label, title). */
const unlabelledControls = (page: Page) =>
  page.evaluate(() => {
    const named = (el: Element) => {
      const aria = el.getAttribute('aria-label') ?? '';
      const by = el.getAttribute('aria-labelledby');
      const byText = by
        ? by
            .split(' ')
            .map((id) => document.getElementById(id)?.textContent ?? '')
            .join('')
        : '';
      const forLabel = el.id ? (document.querySelector(`label[for="${el.id}"]`)?.textContent ?? '') : '';
      const wrapping = el.closest('label')?.textContent ?? '';
      const own = el.tagName === 'BUTTON' ? (el.textContent ?? '') : '';
      return [aria, byText, forLabel, wrapping, own, el.getAttribute('title') ?? ''].some((t) => t.trim() !== '');
    };
    return [...document.querySelectorAll('button, input, select, textarea')]
      .filter((el) => !named(el))
      .map((el) => el.outerHTML.slice(0, 120));
  });

beforeAll(async () => {
  fs.mkdirSync(SHOTS_DIR, { recursive: true });
  await buildRenderer(outDir);
  [app, web] = await Promise.all([startDesktopApp(), startRendererServer({ dir: outDir })]);
  browser = await launchTestBrowser();
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await web?.close();
  await app?.close();
  fs.rmSync(outDir, { recursive: true, force: true });
});

describe('app shell, forms and theme', () => {
  it('offers the login methods the server serves, with the fields each needs; the form survives switching screens', async () => {
    const res = await app.host.api.request({ method: 'GET', url: '/api/login/methods' });
    const served = (JSON.parse(res.body) as { data: { id: string; label: string }[] }).data;
    expect(served.length).toBeGreaterThan(3);
    const { page, context, problems } = await openWindow(browser, app, web.url);
    try {
      const form = page.getByRole('form', { name: 'Test a login' });
      const menu = form.getByLabel('Login method');
      await expect.poll(() => menu.locator('option').allInnerTexts()).toEqual(served.map((m) => m.label));

      await menu.selectOption('totp');
      await form.getByLabel('Authenticator secret').waitFor();
      expect(await form.getByRole('textbox', { name: 'Username', exact: true }).count()).toBe(1);
      await menu.selectOption('otp_sms');
      await form.getByLabel('Phone number').waitFor();
      expect(await form.getByLabel('Authenticator secret').count()).toBe(0);
      await menu.selectOption('otp_email');
      await form.getByLabel('Email address (username)').waitFor();

      // The phone is what otp_sms needs: left empty, it is the field marked and focused.
      await menu.selectOption('otp_sms');
      await form.getByLabel('Login page URL').fill('https://shop.example.test/login');
      await page.keyboard.press(`${mod}+Enter`);
      const phone = form.getByLabel('Phone number');
      await expect.poll(() => phone.getAttribute('aria-invalid')).toBe('true');
      expect(await phone.evaluate((el) => el === document.activeElement)).toBe(true);
      await page.screenshot({ path: path.join(SHOTS_DIR, 'sessions-login-form-invalid.png') });

      // Another screen and back (with the keyboard): the form is as it was left.
      await page.keyboard.press(`${mod}+2`);
      await page.getByRole('heading', { level: 1, name: 'Templates' }).waitFor();
      await page.keyboard.press(`${mod}+1`);
      await page.getByRole('heading', { level: 1, name: 'Sessions' }).waitFor();
      expect(await form.getByLabel('Login page URL').inputValue()).toBe('https://shop.example.test/login');
      expect(await menu.inputValue()).toBe('otp_sms');
      expect(problems).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it('lists the shortcuts in an overlay (?, Escape) and opens Settings with Mod+,', async () => {
    const { page, context } = await openWindow(browser, app, web.url);
    try {
      await page.keyboard.press('?');
      const overlay = page.getByRole('dialog', { name: 'Keyboard shortcuts' });
      await overlay.waitFor();
      expect(await overlay.innerText()).toContain('Open Settings');
      await page.screenshot({ path: path.join(SHOTS_DIR, 'shortcuts-light.png') });
      await page.keyboard.press('Escape');
      await overlay.waitFor({ state: 'detached' });
      await page.getByRole('button', { name: 'Keyboard shortcuts' }).click();
      await overlay.waitFor();
      await overlay.getByRole('button', { name: 'Close' }).click();
      await page.keyboard.press(`${mod}+,`);
      await page.getByRole('heading', { level: 1, name: 'Settings' }).waitFor();
    } finally {
      await context.close();
    }
  });

  it('switches the theme in Settings (kept by the app), and follows the OS when set to System', async () => {
    const { page, context } = await openWindow(browser, app, web.url);
    try {
      await page.emulateMedia({ colorScheme: 'light' });
      await nav(page, 'Settings').click();
      const appearance = page.getByRole('region', { name: 'Appearance' });
      const light = await background(page);
      await appearance.getByRole('radio', { name: /^Dark/ }).check();
      await expect.poll(() => themeOf(page)).toBe('dark');
      await expect.poll(() => app.theme.value).toBe('dark');
      expect(await background(page)).not.toBe(light);
      // Kept by the app: a new window starts dark.
      await page.reload();
      await page.getByRole('navigation', { name: 'Main' }).waitFor();
      expect(await themeOf(page)).toBe('dark');

      await nav(page, 'Settings').click();
      await page
        .getByRole('region', { name: 'Appearance' })
        .getByRole('radio', { name: /^System/ })
        .check();
      await expect.poll(() => themeOf(page)).toBe('light');
      await page.emulateMedia({ colorScheme: 'dark' });
      await expect.poll(() => themeOf(page)).toBe('dark');
      await page.emulateMedia({ colorScheme: 'light' });
      await expect.poll(() => themeOf(page)).toBe('light');
      expect(app.theme.value).toBe('system');
    } finally {
      await context.close();
    }
  });

  it('says "API down" with the reason when nothing answers at the API address', async () => {
    const closed = net.createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as net.AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    const running = app.current();
    const info = { ...running.info, serverUrl: `http://127.0.0.1:${port}` };
    const gone = staticHost({ core: running.core, api: app.host.api, orgId: running.desktop.orgId, keyId: null, info });
    const { page, context } = await openWindow(browser, app, web.url, {
      local: { 'app:apiStatus': settingsChannels({ host: gone, theme: memoryThemeStore() })['app:apiStatus'] },
    });
    try {
      const status = page.getByTestId('server-status');
      await expect.poll(() => status.getAttribute('data-state')).toBe('down');
      expect(await status.innerText()).toContain('API down');
      expect(await status.getByTestId('api-status-reason').innerText()).toBe(
        `Nothing is listening on 127.0.0.1:${port} (connection refused).`,
      );
      await page.screenshot({
        path: path.join(SHOTS_DIR, 'sidebar-api-down.png'),
        clip: { x: 0, y: 560, width: 240, height: 240 },
      });
    } finally {
      await context.close();
    }
  });

  it('says on every screen which stored secrets are missing (a data dir moved without them), with the way out', async () => {
    // A data dir that stored its webhook secret in the encrypted file, arrived without that file and its key.
    const moved = await startDesktopApp(
      {},
      {
        prepare: async (dir) => {
          const before = createCore(
            parseConfig({ dataDir: dir, log: { level: 'silent' }, secrets: { backend: 'file' } }),
          );
          await before.video.webhooks.service.secret(before.orgs.create('moved').id);
          await before.dispose();
          for (const f of ['secrets.enc.json', 'secrets.key']) fs.rmSync(path.join(dir, f));
        },
      },
    );
    const { page, context } = await openWindow(browser, moved, web.url);
    try {
      const notice = page.getByText(/A secret this data dir stored is missing from this computer's secret store/);
      await notice.waitFor();
      expect(await notice.innerText()).toMatch(
        /webhooks\.secret:org_\w+\)\. .*"npm run cli -- backup create".*"npm run cli -- secrets forget-missing"/s,
      );
      await nav(page, 'Settings').click();
      await notice.waitFor();
      await page.screenshot({ path: path.join(SHOTS_DIR, 'secrets-missing-1280.png') });
      await page.setViewportSize({ width: 320, height: 700 });
      await notice.scrollIntoViewIfNeeded();
      // reflows at 320 CSS px: the notice is no wider than the window
      expect(await notice.evaluate((el) => el.getBoundingClientRect().right)).toBeLessThanOrEqual(320);
      await page.screenshot({ path: path.join(SHOTS_DIR, 'secrets-missing-320.png') });
    } finally {
      await context.close();
      await moved.close();
    }
  });

  it('tests S3 storage settings, saves them with a restart (credentials in the secret store) and goes back to local', async () => {
    const s3 = new S3rver({
      port: 0,
      address: '127.0.0.1',
      silent: true,
      directory: tempDir('s3rver-settings-'),
      configureBuckets: [{ name: 'studio' }],
    }) as { run(): Promise<net.AddressInfo>; close(): Promise<void> };
    const { port } = await s3.run();
    const { page, context } = await openWindow(browser, app, web.url);
    try {
      await nav(page, 'Settings').click();
      const storage = page.getByRole('region', { name: 'Storage' });
      await storage.getByRole('radio', { name: /S3-compatible bucket/ }).check();
      await storage.getByRole('textbox', { name: 'Bucket', exact: true }).fill('missing-bucket');
      await storage.getByLabel('Endpoint').fill(`http://127.0.0.1:${port}`);
      await storage.getByLabel(/Path-style/).check();
      await storage.getByLabel('Access key ID').fill('S3RVER');
      await storage.getByLabel('Secret access key').fill('S3RVER');
      await storage.getByRole('button', { name: 'Test connection' }).click();
      const check = storage.getByTestId('storage-check');
      await expect.poll(() => check.innerText()).toContain('There is no bucket "missing-bucket"');
      await storage.getByRole('textbox', { name: 'Bucket', exact: true }).fill('studio');
      await storage.getByRole('button', { name: 'Test connection' }).click();
      await expect.poll(() => check.innerText()).toMatch(/^Works\s+Connected/);
      await page.screenshot({ path: path.join(SHOTS_DIR, 'settings-storage-s3.png'), fullPage: false });

      await storage.getByRole('button', { name: 'Save and restart' }).click();
      await storage.getByText(/Saved\. The API restarted/).waitFor({ timeout: 30_000 });
      expect(app.current().core.video.blobs.kind).toBe('s3');
      const configText = fs.readFileSync(path.join(app.dataDir, 'config.json'), 'utf8');
      expect(JSON.parse(configText).storage).toMatchObject({ backend: 's3', s3: { bucket: 'studio' } });
      expect(configText).not.toContain('S3RVER');
      expect(await app.current().core.secrets.get('s3.secretAccessKey')).toBe('S3RVER');
      // The stored credentials are used when the fields are left empty.
      await storage.getByRole('button', { name: 'Test connection' }).click();
      await expect.poll(() => check.innerText()).toMatch(/^Works/);

      await storage.getByRole('radio', { name: /This computer/ }).check();
      await storage.getByRole('button', { name: 'Save and restart' }).click();
      await expect.poll(() => app.current().core.video.blobs.kind, { timeout: 30_000 }).toBe('local');
    } finally {
      await context.close();
      await s3.close();
    }
  }, 90_000);

  it('takes screenshots of every screen at 1280x800, light and dark', async () => {
    app.theme.set('system');
    const { page, context, problems } = await openWindow(browser, app, web.url);
    try {
      const screens = ['Sessions', 'Templates', 'Generate', 'Generations', 'Characters', 'Uploads', 'Settings'];
      for (const theme of ['light', 'dark'] as const) {
        await page.emulateMedia({ colorScheme: theme });
        await expect.poll(() => themeOf(page)).toBe(theme);
        for (const name of screens) {
          await nav(page, name).click();
          await page.getByRole('heading', { level: 1, name }).waitFor();
          // Lists finish loading before the picture.
          await expect.poll(() => page.locator('.loading').count()).toBe(0);
          await page.screenshot({ path: path.join(SHOTS_DIR, `${name.toLowerCase()}-${theme}.png`) });
          if (theme === 'light') expect(await unlabelledControls(page), name).toEqual([]);
        }
        // Settings scrolls inside the window: each section on its own.
        const sections = page.locator('section.settings-section');
        for (let i = 0; i < (await sections.count()); i++) {
          const id = (await sections.nth(i).getAttribute('id'))!.replace(/^settings-/, '');
          await sections.nth(i).screenshot({ path: path.join(SHOTS_DIR, `settings-${id}-${theme}.png`) });
        }
      }
      expect(problems).toEqual([]);
    } finally {
      await context.close();
    }
  }, 90_000);
});
