// The Settings screen's local API over the IPC contract and a real core (support/settings-app.ts): the API address
// and data folder, API keys created and revoked, the webhook signing secret, and changing the port.
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { localApiPageTarget } from '../../src/main/electron/external-links.js';
import { API_ROUTES } from '../../src/shared/api/index.js';
import {
  app,
  core,
  desktopOrg,
  freePort,
  nav,
  openSettings,
  section,
  shot,
  useSettingsApp,
} from './support/settings-app.js';

useSettingsApp();

describe('Settings over the IPC contract and a real core', () => {
  it('shows the API address (copied through the app) and the data folder', async () => {
    const { page, context, bridge, problems } = await openSettings();
    try {
      const url = app.current().info.serverUrl!;
      expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      const api = section(page, 'Local API');
      expect(await api.getByTestId('api-address').innerText()).toBe(url);
      await api.getByRole('button', { name: 'Copy the API address' }).click();
      await expect.poll(() => bridge.copied).toEqual([url]);
      expect(await api.getByTestId('data-dir').innerText()).toBe(app.dataDir);
      await expect.poll(() => page.getByTestId('server-status').getAttribute('data-state')).toBe('up');
      expect(problems).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it('links the API reference: main opens its own server’s GET /docs in the browser, which serves the page', async () => {
    const { page, context, bridge, problems } = await openSettings();
    try {
      const url = app.current().info.serverUrl!;
      const api = section(page, 'Local API');
      await api.getByRole('button', { name: 'Open API reference' }).scrollIntoViewIfNeeded();
      await shot(page, 'settings-api-reference');
      await api.getByRole('button', { name: 'Open API reference' }).click();
      await expect.poll(() => bridge.openedPages).toEqual([`${url}${API_ROUTES.apiReference.path}`]);
      // The address passes the Electron layer's own check before the OS browser gets it, and it is the page.
      expect(localApiPageTarget(bridge.openedPages[0]!)).toBe(bridge.openedPages[0]);
      const reference = await fetch(bridge.openedPages[0]!);
      expect(reference.status).toBe(200);
      expect(reference.headers.get('content-type')).toBe('text/html; charset=utf-8');
      expect(problems).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it('creates a key with scopes (its secret shown once), lists it and revokes it; a double-click cannot revoke', async () => {
    const { page, context, bridge } = await openSettings();
    try {
      const keys = section(page, 'API keys');
      const form = keys.getByRole('form', { name: 'Create an API key' });
      await form.getByRole('textbox', { name: 'Name', exact: true }).fill('ci agent');
      await form.getByRole('checkbox', { name: /sessions:read/ }).check();
      await form.getByRole('button', { name: 'Create key' }).click();
      const secret = await keys.getByTestId('created-key-value').innerText();
      expect(secret).toMatch(/^pk_[0-9A-Za-z]{40}$/);
      // What the core stored: that key, with exactly these scopes, in this window's organization.
      expect(core().keys.authenticate(secret)).toMatchObject({
        orgId: desktopOrg(),
        scopes: ['login:write', 'sessions:read'],
      });
      await keys.getByRole('button', { name: 'Copy the new API key' }).click();
      await expect.poll(() => bridge.copied).toEqual([secret]);
      const row = keys.getByTestId('key-row').filter({ hasText: 'ci agent' });
      expect(await row.innerText()).toContain(`${secret.slice(0, 7)}…`);
      await shot(page, 'settings-key-created');

      // Shown once: after Done (or leaving the screen) the plaintext is nowhere in the window.
      await keys.getByRole('button', { name: 'Done' }).click();
      await nav(page, 'Sessions').click();
      await nav(page, 'Settings').click();
      await row.waitFor();
      expect(await page.content()).not.toContain(secret);
      const listed = await page.evaluate(
        (orgId) =>
          (
            window as unknown as { agentStudio: { channels: Record<string, (a?: unknown) => Promise<unknown>> } }
          ).agentStudio.channels['keys:list']({ orgId }),
        desktopOrg(),
      );
      expect(listed).toMatchObject({ ok: true });
      expect(JSON.stringify(listed)).not.toContain(secret);

      // The window's own key is marked and cannot be revoked here.
      const own = keys.getByTestId('key-row').filter({ hasText: 'This window' });
      expect(await own.count()).toBe(1);
      expect(await own.getByRole('button', { name: /Revoke/ }).count()).toBe(0);

      // A double-click arms the confirmation but cannot pass it. The question stays until it is answered (a fake
      // clock runs a minute: an earlier version went back silently after 4 s), with the confirm button focused.
      await page.clock.install();
      const revoke = row.getByRole('button', { name: /^Revoke key/ });
      await revoke.dblclick();
      const confirm = row.getByRole('button', { name: /^Revoke now/ });
      await confirm.waitFor();
      await page.clock.runFor(60_000);
      const asking = row.getByRole('group', { name: /^Revoke key .*\?$/ });
      expect(await asking.isVisible()).toBe(true);
      expect(await confirm.evaluate((el) => el === document.activeElement)).toBe(true);
      expect(core().keys.authenticate(secret)).not.toBeNull();
      // Escape (or No) takes the question back, focus on the button that asked it.
      await page.keyboard.press('Escape');
      await asking.waitFor({ state: 'detached' });
      expect(await revoke.evaluate((el) => el === document.activeElement)).toBe(true);
      await revoke.click();
      await page.clock.runFor(1_000);
      expect(core().keys.authenticate(secret)).not.toBeNull();
      await confirm.click();
      await row.getByTestId('key-status').filter({ hasText: 'Revoked' }).waitFor();
      expect(core().keys.authenticate(secret)).toBeNull();
    } finally {
      await context.close();
    }
  });

  it('shows, copies and rotates the webhook signing secret', async () => {
    const { page, context, bridge } = await openSettings();
    try {
      const webhooks = section(page, 'Webhook signing secret');
      const before = (await core().video.webhooks.service.secret(desktopOrg())).secret;
      const shown = webhooks.getByTestId('webhook-secret');
      await shown.waitFor();
      expect(await shown.innerText()).not.toBe(before);
      await webhooks.getByRole('button', { name: 'Reveal' }).click();
      expect(await shown.innerText()).toBe(before);
      await webhooks.getByRole('button', { name: 'Copy the webhook secret' }).click();
      await expect.poll(() => bridge.copied).toEqual([before]);

      await webhooks.getByRole('button', { name: 'Rotate the webhook secret' }).click();
      await webhooks.getByRole('button', { name: /^Rotate now/ }).click();
      await expect.poll(() => shown.innerText()).not.toBe(before);
      const after = await core().video.webhooks.service.secret(desktopOrg());
      expect(await shown.innerText()).toBe(after.secret);
      expect(after.previous_secret_expires_at).toBeGreaterThan(Date.now());
      expect(await webhooks.innerText()).toContain('The previous secret also signs callbacks until');
    } finally {
      await context.close();
    }
  });

  it('changes the port: config.json written, the core restarted on it, the old port closed; a port in use is refused on the field', async () => {
    const { page, context } = await openSettings();
    const blocker = net.createServer();
    try {
      const oldUrl = app.current().info.serverUrl!;
      const port = await freePort();
      const api = section(page, 'Local API');
      await api.getByRole('spinbutton', { name: 'Port', exact: true }).fill(String(port));
      await api.getByRole('button', { name: 'Save and restart' }).click();
      await api.getByText(`listens on http://127.0.0.1:${port}`).waitFor({ timeout: 30_000 });
      expect(app.current().info.serverUrl).toBe(`http://127.0.0.1:${port}`);
      expect(JSON.parse(fs.readFileSync(path.join(app.dataDir, 'config.json'), 'utf8')).server.port).toBe(port);
      expect((await fetch(`http://127.0.0.1:${port}/healthz`)).status).toBe(200);
      await expect(fetch(`${oldUrl}/healthz`)).rejects.toThrow();
      expect(await api.getByTestId('api-address').innerText()).toBe(`http://127.0.0.1:${port}`);
      await expect.poll(() => page.getByTestId('server-status').innerText()).toContain(`127.0.0.1:${port}`);
      // The window keeps working on the new core (its calls go to whichever core runs).
      await nav(page, 'Sessions').click();
      await page.getByTestId('sessions-empty').waitFor();
      await nav(page, 'Settings').click();

      await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
      const taken = (blocker.address() as net.AddressInfo).port;
      await api.getByRole('spinbutton', { name: 'Port', exact: true }).fill(String(taken));
      await api.getByRole('button', { name: 'Save and restart' }).click();
      const field = api.getByRole('spinbutton', { name: 'Port', exact: true });
      await expect.poll(() => field.getAttribute('aria-invalid')).toBe('true');
      expect(await field.evaluate((el) => el === document.activeElement)).toBe(true);
      expect(await api.locator('.field-error').innerText()).toContain(`Port ${taken} is in use by another program`);
      expect(app.current().info.serverUrl).toBe(`http://127.0.0.1:${port}`);
      expect(JSON.parse(fs.readFileSync(path.join(app.dataDir, 'config.json'), 'utf8')).server.port).toBe(port);
    } finally {
      await new Promise((resolve) => blocker.close(resolve));
      await context.close();
    }
  }, 90_000);
});
