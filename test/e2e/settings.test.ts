// The Settings screen end to end: the built renderer in Chromium, every call through the IPC contract
// to the desktop app's real core (startCore + CoreHost, as the Electron main process runs them), real
// HTTP on 127.0.0.1 and a real Dovecot for the mailboxes. Nothing of ours is stubbed; only what
// Electron itself would do (the clipboard, opening the folder) is a stand-in the test reads.
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolveBrowserExecutable } from '../../src/main/core/login/browser-resolver.js';
import { STARTER_CREDITS } from '../../src/main/core/create-core.js';
import { passwordAccount } from '../../src/main/core/login/mailboxes/mailboxes.service.js';
import { PROVIDER_KEYS } from '../../src/shared/provider.schema.js';
import { TEST_BROWSER_ARGS } from '../helpers/browser.js';
import { startDovecot, type Dovecot } from '../helpers/dovecot.js';
import { tempDir } from '../helpers/temp-dir.js';
import { buildRenderer } from './support/build-renderer.js';
import { axeViolations, setScheme } from './support/layout-audit.js';
import { openWindow, SHOTS_DIR, startDesktopApp, type DesktopApp } from './support/desktop-app.js';
import { startRendererServer, type RendererServer } from './support/renderer-server.js';

let app: DesktopApp;
let web: RendererServer;
let browser: Browser;
let dovecot: Dovecot;
const outDir = tempDir('agent-studio-settings-ui-');
const IMAP_USER = { user: 'ada@example.test', password: 'imap-pass-1' };

const nav = (page: Page, name: string) => page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name });
const section = (page: Page, title: string) => page.getByRole('region', { name: title, exact: true });
const shot = (page: Page, name: string) => page.screenshot({ path: path.join(SHOTS_DIR, `${name}.png`) });
const core = () => app.current().core;
const desktopOrg = () => app.current().desktop.orgId;

async function openSettings() {
  const win = await openWindow(browser, app, web.url);
  await nav(win.page, 'Settings').click();
  await win.page.getByRole('heading', { level: 1, name: 'Settings' }).waitFor();
  return win;
}

/** A port that was free a moment ago (the OS picked it). */
async function freePort(): Promise<number> {
  const probe = net.createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as net.AddressInfo;
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

beforeAll(async () => {
  fs.mkdirSync(SHOTS_DIR, { recursive: true });
  await buildRenderer(outDir);
  [app, web, dovecot] = await Promise.all([
    startDesktopApp(),
    startRendererServer({ dir: outDir }),
    startDovecot({ users: [IMAP_USER] }),
  ]);
  browser = await chromium.launch({ executablePath: resolveBrowserExecutable({}).path, args: TEST_BROWSER_ARGS });
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await web?.close();
  await dovecot?.close();
  await app?.close();
  fs.rmSync(outDir, { recursive: true, force: true });
});

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

      // A double-click arms the confirmation but cannot pass it.
      await row.getByRole('button', { name: /^Revoke key/ }).dblclick();
      const confirm = row.getByRole('button', { name: /^Revoke now/ });
      await confirm.waitFor();
      expect(core().keys.authenticate(secret)).not.toBeNull();
      await confirm.click();
      await row.getByTestId('key-status').filter({ hasText: 'Revoked' }).waitFor();
      expect(core().keys.authenticate(secret)).toBeNull();
    } finally {
      await context.close();
    }
  });

  it('“Find one automatically” says which browser it found', async () => {
    const { page, context } = await openSettings();
    try {
      const browser = page.getByRole('form', { name: 'Browser and concurrency' });
      const auto = browser.locator('label.choice').filter({ hasText: 'Find one automatically' });
      const { path: found } = resolveBrowserExecutable({});
      expect(await auto.locator('.choice-hint').innerText()).toMatch(
        new RegExp(
          `^Found: ${found.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')} \\(installed (by Playwright|on this computer)\\)`,
        ),
      );
    } finally {
      await context.close();
    }
  });

  it('lists organizations with their credits, adds credits and creates an organization', async () => {
    const { page, context } = await openSettings();
    try {
      const orgs = section(page, 'Organizations and credits');
      const mine = orgs.getByTestId('org-row').filter({ has: page.locator('.badge', { hasText: 'this window' }) });
      await mine.waitFor();
      const before = core().credits.balance(desktopOrg());
      expect(await mine.getByTestId('org-balance').innerText()).toBe(String(before));
      await orgs.getByLabel('Credits to add').fill('250');
      await orgs.getByRole('button', { name: 'Add credits' }).click();
      await expect.poll(() => mine.getByTestId('org-balance').innerText()).toBe(String(before + 250));
      expect(core().credits.balance(desktopOrg())).toBe(before + 250);
      const ledger = orgs.getByRole('table', { name: 'Credit ledger' });
      expect(await ledger.locator('tbody tr').first().innerText()).toContain('+250');

      await orgs.getByLabel('New organization').fill('Acme Robots');
      await orgs.getByRole('button', { name: 'Create organization' }).click();
      await orgs.getByTestId('org-row').filter({ hasText: 'Acme Robots' }).waitFor();
      expect(core().orgs.findByName('Acme Robots')).toBeTruthy();
      // The same name again: the service's 409 lands on the field, in words.
      await orgs.getByLabel('New organization').fill('Acme Robots');
      await orgs.getByRole('button', { name: 'Create organization' }).click();
      const field = orgs.getByLabel('New organization');
      await expect.poll(() => field.getAttribute('aria-invalid')).toBe('true');
      expect(await orgs.getByText('already exists').count()).toBe(1);
      // Keys and credits now show the new organization (it was selected).
      expect(await section(page, 'API keys').getByRole('combobox', { name: 'Organization' }).inputValue()).toBe(
        core().orgs.findByName('Acme Robots')!.id,
      );
      await shot(page, 'settings-orgs');
    } finally {
      await context.close();
    }
  });

  it('a new organization starts with starter credits, and the window switches to it and back (no dead end)', async () => {
    const { page, context } = await openSettings();
    const first = desktopOrg();
    try {
      const orgs = section(page, 'Organizations and credits');
      await orgs.getByLabel('New organization').fill('Beta Lab');
      await orgs.getByRole('button', { name: 'Create organization' }).click();
      const beta = orgs.getByTestId('org-row').filter({ hasText: 'Beta Lab' });
      await beta.waitFor();
      const betaId = core().orgs.findByName('Beta Lab')!.id;
      expect(core().credits.balance(betaId)).toBe(STARTER_CREDITS);
      expect(await beta.getByTestId('org-balance').innerText()).toBe(String(STARTER_CREDITS));
      expect(await orgs.getByRole('status').filter({ hasText: 'Created “Beta Lab”' }).innerText()).toMatch(
        new RegExp(`with ${STARTER_CREDITS} credits\\. Press Use in this window`),
      );
      for (const scheme of ['light', 'dark'] as const) {
        await setScheme(page, scheme);
        expect(await axeViolations(page), `axe: organizations in ${scheme}`).toEqual([]);
      }

      // The window works in Beta Lab after the core restarted with that organization's own key.
      const keysBefore = core().keys.list(first).length;
      // The page reloads once the core serves the other organization: every list was the old one's.
      await Promise.all([
        page.waitForEvent('load', { timeout: 30_000 }),
        beta.getByRole('button', { name: 'Use in this window: Beta Lab' }).click(),
      ]);
      expect(desktopOrg()).toBe(betaId);
      await nav(page, 'Settings').click();
      const mine = section(page, 'Organizations and credits')
        .getByTestId('org-row')
        .filter({ has: page.locator('.badge', { hasText: 'this window' }) });
      await expect.poll(() => mine.innerText(), { timeout: 20_000 }).toContain('Beta Lab');
      expect(await mine.getByTestId('org-balance').innerText()).toBe(String(STARTER_CREDITS));

      // And back: the first organization's key is reused, not a new one made.
      const back = section(page, 'Organizations and credits')
        .getByTestId('org-row')
        .filter({ hasText: core().orgs.get(first)!.name })
        .first();
      await Promise.all([
        page.waitForEvent('load', { timeout: 30_000 }),
        back.getByRole('button', { name: /^Use in this window: / }).click(),
      ]);
      expect(desktopOrg()).toBe(first);
      expect(core().keys.list(first).length).toBe(keysBefore);
    } finally {
      await context.close();
    }
  });

  it('marks an invalid field red and focuses it, with the service’s rule in plain words', async () => {
    const { page, context } = await openSettings();
    try {
      const form = page.getByRole('form', { name: 'Add a mailbox' });
      await form.getByRole('button', { name: 'Add mailbox' }).click();
      const addresses = form.getByLabel('Addresses');
      await expect.poll(() => addresses.evaluate((el) => el === document.activeElement)).toBe(true);
      expect(await addresses.getAttribute('aria-invalid')).toBe('true');
      const danger = await page.evaluate(() => getComputedStyle(document.documentElement).getPropertyValue('--danger'));
      const red = await page.evaluate((c) => {
        const probe = document.createElement('div');
        probe.style.color = c;
        document.body.append(probe);
        const rgb = getComputedStyle(probe).color;
        probe.remove();
        return rgb;
      }, danger.trim());
      expect(await addresses.evaluate((el) => getComputedStyle(el).borderTopColor)).toBe(red);
      // A field that is fine keeps the normal border.
      expect(
        await form
          .getByRole('textbox', { name: 'Name', exact: true })
          .evaluate((el) => getComputedStyle(el).borderTopColor),
      ).not.toBe(red);
      await shot(page, 'settings-invalid-field');

      // A rule only the contract's schema knows (an IMAP host is not a URL): mapped back onto its field.
      await addresses.fill('ada@example.test');
      await form.getByLabel('IMAP server').fill('imap://mail.example.test');
      await form.getByRole('textbox', { name: 'Username', exact: true }).fill('ada');
      await form.locator('input[type=password]').fill('secret');
      await form.getByRole('button', { name: 'Add mailbox' }).click();
      const host = form.getByLabel('IMAP server');
      await expect.poll(() => host.getAttribute('aria-invalid')).toBe('true');
      expect(await host.evaluate((el) => el === document.activeElement)).toBe(true);
      const message = await form.locator('.field-invalid .field-error').innerText();
      expect(message).toMatch(/^Must be a host name or IP address/);
      expect(message).not.toMatch(/imap\.host|body\./);
      expect(core().login.mailboxes.service.list(desktopOrg())).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it('checks a mailbox before saving it (a wrong password and a dead server are refused on their field), tests and removes it', async () => {
    const { page, context } = await openSettings();
    try {
      const mailboxes = section(page, 'Mailboxes');
      const form = mailboxes.getByRole('form', { name: 'Add a mailbox' });
      const fill = async (name: string, password: string, port = dovecot.port, withoutTls = false) => {
        await form.getByRole('textbox', { name: 'Name', exact: true }).fill(name);
        await form.getByLabel('Addresses').fill(IMAP_USER.user);
        await form.getByLabel('IMAP server').fill(dovecot.host);
        await form.getByRole('spinbutton', { name: 'Port', exact: true }).fill(String(port));
        await form.getByLabel('TLS from the first byte').uncheck();
        // Shown only without TLS from the first byte: whether a server without STARTTLS may get the password.
        if (withoutTls) await form.getByLabel('Log in without TLS when the server offers no STARTTLS').check();
        await form.getByRole('textbox', { name: 'Username', exact: true }).fill(IMAP_USER.user);
        await form.locator('input[type=password]').fill(password);
        await form.getByRole('button', { name: 'Add mailbox' }).click();
      };
      const refusedOn = async (field: ReturnType<typeof form.locator>) => {
        await expect.poll(() => field.getAttribute('aria-invalid'), { timeout: 20_000 }).toBe('true');
        return form.locator('.field-invalid .field-error').innerText();
      };

      // A wrong password: not saved, and the Password field says why.
      await fill('Wrong', 'not-the-password');
      const wrongPassword = await refusedOn(form.locator('input[type=password]'));
      expect(wrongPassword).toMatch(
        /mailbox not saved: login failed: the server at .* rejected the username or password/i,
      );
      expect(wrongPassword).not.toContain('not-the-password');
      // Nothing listens on the port: not saved, on the server field.
      await fill('Dead', IMAP_USER.password, await freePort());
      expect(await refusedOn(form.getByLabel('IMAP server'))).toMatch(
        /mailbox not saved: could not connect to an IMAP server at/i,
      );
      await shot(page, 'settings-mailbox-refused');
      expect(core().login.mailboxes.service.list(desktopOrg())).toEqual([]);

      await fill('Work', IMAP_USER.password);
      await mailboxes.getByTestId('mailbox-row').filter({ hasText: 'Work' }).waitFor();
      expect(await form.getByRole('status').innerText()).toMatch(/Added “Work”: connected and logged in/);
      await fill('Lenient', IMAP_USER.password, dovecot.port, true);
      await mailboxes.getByTestId('mailbox-row').filter({ hasText: 'Lenient' }).waitFor();
      expect(
        core()
          .login.mailboxes.service.list(desktopOrg())
          .map((m) => [m.name, m.imap.allowInsecureAuth]),
      ).toEqual([
        ['Work', false],
        ['Lenient', true],
      ]);
      expect(await mailboxes.getByTestId('mailbox-row').filter({ hasText: 'Work' }).innerText()).toMatch(
        /\(STARTTLS\)/,
      );
      expect(await mailboxes.getByTestId('mailbox-row').filter({ hasText: 'Lenient' }).innerText()).toMatch(
        /STARTTLS when offered, else no TLS/,
      );

      const work = mailboxes.getByTestId('mailbox-row').filter({ hasText: 'Work' });
      await work.getByRole('button', { name: 'Test mailbox Work' }).click();
      const ok = work.getByTestId('mailbox-check');
      await ok.waitFor({ timeout: 20_000 });
      expect(await ok.innerText()).toMatch(/^Works\s+connected/);

      // The password changed after saving (as when it is changed at the mail provider): Test says so.
      const lenientId = core()
        .login.mailboxes.service.list(desktopOrg())
        .find((m) => m.name === 'Lenient')!.id;
      await core().secrets.set(passwordAccount(lenientId), 'not-the-password');
      const lenient = mailboxes.getByTestId('mailbox-row').filter({ hasText: 'Lenient' });
      await lenient.getByRole('button', { name: 'Test mailbox Lenient' }).click();
      const bad = lenient.getByTestId('mailbox-check');
      await bad.waitFor({ timeout: 20_000 });
      expect(await bad.innerText()).toMatch(/Problem\s+login failed/);
      expect(await bad.innerText()).not.toContain('not-the-password');
      await shot(page, 'settings-mailboxes');

      await lenient.getByRole('button', { name: 'Remove mailbox Lenient' }).click();
      await lenient.getByRole('button', { name: /^Remove now/ }).click();
      await lenient.waitFor({ state: 'detached' });
      expect(
        core()
          .login.mailboxes.service.list(desktopOrg())
          .map((m) => m.name),
      ).toEqual(['Work']);
    } finally {
      await context.close();
    }
  });

  it('connects a video provider: the token stored in its account, never shown again; the status says Connected', async () => {
    const { page, context } = await openSettings();
    try {
      const providers = section(page, 'Video providers');
      const replicate = providers.getByRole('form', { name: 'Connect Replicate' });
      await replicate.getByLabel('Replicate key').fill('r8_settings-token-5e2a');
      await replicate.getByRole('button', { name: 'Save Replicate key' }).click();
      await replicate.getByText('Connected', { exact: true }).waitFor();
      expect(await core().secrets.get(PROVIDER_KEYS.replicate.account)).toBe('r8_settings-token-5e2a');
      expect(await replicate.getByLabel('Replicate key').inputValue()).toBe('');
      expect(await page.content()).not.toContain('r8_settings-token-5e2a');
      await providers.scrollIntoViewIfNeeded();
      await shot(page, 'settings-video-providers');
      // A window opened later reads the status, not the token.
      await context.close();
      const again = await openSettings();
      const status = section(again.page, 'Video providers').getByRole('form', { name: 'Connect Replicate' });
      await status.getByText('Connected', { exact: true }).waitFor();
      await again.context.close();
    } finally {
      await context.close().catch(() => {});
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
