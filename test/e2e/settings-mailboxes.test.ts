// The Settings screen's mailboxes over the IPC contract, a real core and a real Dovecot (support/settings-app.ts):
// invalid fields marked and focused, a mailbox checked before it is saved, tested and removed.
import { describe, expect, it } from 'vitest';
import { passwordAccount } from '../../src/main/core/login/mailboxes/mailboxes.service.js';
import {
  core,
  desktopOrg,
  dovecot,
  freePort,
  IMAP_USER,
  openSettings,
  section,
  shot,
  useSettingsApp,
} from './support/settings-app.js';

useSettingsApp({ dovecot: true });

describe('Settings over the IPC contract and a real core', () => {
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
});
