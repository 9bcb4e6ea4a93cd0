// The Saved logins screen end to end (support/saved-logins-ui.ts), on the saved login the add test makes (seeded
// here through the API): editing it (origins, fields, Remove), importing a Chrome export, exporting passkeys, deleting.
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/temp-dir.js';
import {
  field,
  h,
  html,
  inspect,
  LABEL,
  openDetail,
  openSavedLogins,
  row,
  screen,
  seedSavedLogin,
  site,
  useSavedLogins,
} from './support/saved-logins-ui.js';

useSavedLogins();
beforeAll(seedSavedLogin, 90_000);

describe('Saved logins over the IPC contract and a real core', () => {
  it('edits without touching the password when it is left empty; Remove takes a secret away', async () => {
    const { page, context, problems } = await openSavedLogins();
    try {
      await openDetail(page, LABEL);
      await page.getByRole('button', { name: 'Edit', exact: true }).click();
      const form = page.getByRole('form', { name: `Edit “${LABEL}”` });
      const password = field(form, 'Password');
      expect(await password.inputValue()).toBe('');
      expect(await password.getAttribute('placeholder')).toBe('Saved — leave empty to keep');
      await field(form, 'Notes').fill('recovery: 1234-5678');
      await form.getByRole('radio', { name: /All keys of the organization/ }).check();
      // One more origin: the list starts from the default, which stays.
      await form.getByRole('button', { name: 'Add an origin' }).click();
      const second = form.getByRole('textbox', { name: 'Origin 2' });
      await expect.poll(() => second.evaluate((el) => el === document.activeElement)).toBe(true);
      expect(await form.getByRole('textbox', { name: 'Origin 1' }).inputValue()).toBe(site.origin);
      await second.fill('https://accounts.example.test/signin');
      // An additional field, its value masked and never in the markup.
      await form.getByRole('button', { name: 'Add a field' }).click();
      await form.getByRole('textbox', { name: 'Name of field 1' }).fill('pin');
      await form.getByLabel('Value of pin').fill('9931');
      await inspect(page, 'form-edit', password);
      await inspect(page, 'form-edit-origins-fields', form.getByRole('group', { name: 'Additional fields' }));
      expect(await html(page)).not.toContain('9931');
      await form.getByRole('button', { name: 'Save changes' }).click();
      // An origin added: the person confirms where the secrets may now be typed (saved-logins-move.test.ts).
      await form.getByTestId('move-confirm').getByRole('button', { name: 'Allow and save' }).click();
      const detail = page.getByTestId('saved-login-detail');
      await detail.getByTestId('secret-row').filter({ hasText: 'Notes' }).waitFor();
      expect(await detail.innerText()).toContain('All keys of the organization');
      expect(await detail.innerText()).toContain('https://accounts.example.test');
      const kept = await h.t.request(`/api/credentials/${encodeURIComponent(LABEL)}`);
      expect(await kept.json()).toMatchObject({
        secrets: ['password', 'additionalFields', 'notes'],
        additionalFieldNames: ['pin'],
        origins: [site.origin, 'https://accounts.example.test'],
        shareWith: 'all',
      });
      const secret = detail.getByTestId('secret-row').filter({ hasText: 'Password' });
      await secret.getByRole('button', { name: 'Reveal password' }).click();
      await expect.poll(() => secret.getByTestId('revealed-value').innerText()).toBe(site.credentials.password);

      // Again: the saved field is listed by name (its value left empty keeps it); Remove takes the notes away.
      await page.getByRole('button', { name: 'Edit', exact: true }).click();
      expect(await form.innerText()).toContain('Saved: pin — leave the values empty to keep them.');
      await form.getByRole('button', { name: 'Remove the saved notes' }).click();
      expect(await form.innerText()).toContain('Will be removed when you save.');
      await form.getByRole('button', { name: 'Save changes' }).click();
      await detail.waitFor();
      await expect.poll(() => detail.getByTestId('secret-row').allInnerTexts()).toHaveLength(2);
      const after = await h.t.request(`/api/credentials/${encodeURIComponent(LABEL)}`);
      expect(await after.json()).toMatchObject({ secrets: ['password', 'additionalFields'] });
      const pin = detail.getByTestId('secret-row').filter({ hasText: 'Field “pin”' });
      await pin.getByRole('button', { name: 'Reveal field “pin”' }).click();
      await expect.poll(() => pin.getByTestId('revealed-value').innerText()).toBe('9931');
      expect(problems).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it('imports a Chrome export: a preview with counts and reasons, then the import; a bad file names its line', async () => {
    const { page, context, problems } = await openSavedLogins();
    try {
      await page.getByRole('button', { name: 'Import', exact: true }).click();
      const form = page.getByRole('form', { name: 'Import saved logins' });
      const file = form.getByTestId('import-file');
      await file.setInputFiles({
        name: 'broken.csv',
        mimeType: 'text/csv',
        buffer: Buffer.from('name,url,username,password\n"Unclosed,https://x.example,u,p\n'),
      });
      await form.getByRole('button', { name: 'Preview' }).click();
      await page.getByRole('alert').filter({ hasText: 'not a valid chrome export' }).waitFor();
      expect(await page.getByTestId('import-where').innerText()).toMatch(/^Line 2/);

      const csv = [
        'name,url,username,password',
        `Classic,${site.origin}/,${site.credentials.username},${site.credentials.password}`,
        'Wiki,https://wiki.example.test/login,ada,wiki-pass-1',
        'Phone app,android://abc@com.example.app/,bob,app-pass-2',
      ].join('\n');
      await file.setInputFiles({ name: 'Chrome Passwords.csv', mimeType: 'text/csv', buffer: Buffer.from(csv) });
      await form.getByRole('button', { name: 'Preview' }).click();
      const preview = page.getByTestId('import-preview');
      await preview.waitFor();
      expect(await preview.getByTestId('import-counts').innerText()).toBe(
        '1 new · 1 merged into saved logins · 1 skipped',
      );
      const items = await preview.getByTestId('import-item').allInnerTexts();
      expect(items).toHaveLength(3);
      expect(items[0]).toMatch(/Merge/);
      expect(items[1]).toMatch(/New/);
      expect(items[2]).toMatch(/Skip/);
      // Nothing saved yet.
      expect(((await (await h.t.request('/api/credentials')).json()) as { data: unknown[] }).data).toHaveLength(1);
      await inspect(page, 'import-preview', preview);

      await form.getByRole('button', { name: 'Import 2' }).click();
      const done = page.getByTestId('import-done');
      await done.waitFor();
      expect(await done.getByTestId('import-counts').innerText()).toBe(
        '1 new · 1 merged into saved logins · 1 skipped',
      );
      for (const secret of ['wiki-pass-1', 'app-pass-2', site.credentials.password]) {
        expect(await html(page)).not.toContain(secret);
      }
      await form.getByRole('button', { name: 'Done' }).click();
      await row(page, 'Wiki').waitFor();
      expect(await page.getByTestId('saved-login-row').count()).toBe(2);
      expect(problems).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it('lists a saved login’s passkeys and exports them to a file the person picks; the page never holds a key', async () => {
    const created = await h.t.request('/api/credentials', {
      method: 'POST',
      json: { label: 'Keyhaven', loginUrl: 'https://keyhaven.example/login', loginMethod: 'passkey', username: 'ada' },
    });
    expect(created.status).toBe(201);
    const { id } = (await created.json()) as { id: string };
    const { privateKey } = crypto.generateKeyPairSync('ec', { namedCurve: 'P-256' });
    const key = (privateKey.export({ format: 'der', type: 'pkcs8' }) as Buffer).toString('base64');
    const vault = h.t.core.login.vault.savedLogins;
    const credentialId = crypto.randomBytes(16).toString('base64url');
    await vault.addPasskey(vault.get(h.t.orgId, id), {
      rpId: 'keyhaven.example',
      credentialId,
      privateKey: key,
      userHandle: crypto.randomBytes(8).toString('base64'),
      signCount: 3,
      createdAt: Date.now(),
    });
    const { page, context, problems } = await openSavedLogins();
    try {
      await openDetail(page, 'Keyhaven');
      await expect.poll(() => page.getByTestId('saved-login-passkeys').innerText()).toContain('keyhaven.example');
      await inspect(page, 'detail-passkeys', page.getByTestId('saved-login-passkeys'));
      const file = path.join(tempDir('agent-studio-passkeys-'), 'keyhaven-passkeys.json');
      h.saveNext(file);
      await page.getByRole('button', { name: 'Export passkeys…' }).click();
      await page.getByText('1 passkey saved to keyhaven-passkeys.json.').waitFor();
      expect(fs.statSync(file).mode & 0o777).toBe(0o600);
      const exported = JSON.parse(fs.readFileSync(file, 'utf8')) as Record<string, unknown>;
      expect(exported).toMatchObject({
        format: 'agent-studio-passkeys',
        version: 1,
        saved_login: { label: 'Keyhaven', username: 'ada' },
        passkeys: [{ rpId: 'keyhaven.example', credentialId, privateKey: key, signCount: 3, isResidentKey: true }],
      });
      // The key went from the vault to the file: never into the page.
      expect(await html(page)).not.toContain(key);
      // Cancelled in the dialog: nothing written, nothing said.
      h.saveNext(null);
      await page.getByRole('button', { name: 'Export passkeys…' }).click();
      await expect.poll(() => page.getByRole('button', { name: 'Export passkeys…' }).isEnabled()).toBe(true);
      expect(problems).toEqual([]);
    } finally {
      await context.close();
      await h.t.request(`/api/credentials/${id}`, { method: 'DELETE' });
    }
  });

  it('deletes after a confirmation that says the sessions stay but can no longer be renewed', async () => {
    const { page, context, problems } = await openSavedLogins();
    try {
      const sessionsBefore = ((await (await h.t.request('/api/sessions')).json()) as { data: unknown[] }).data.length;
      await openDetail(page, LABEL);
      await page.getByRole('button', { name: 'Delete…' }).click();
      const confirm = page.getByTestId('delete-confirm');
      expect(await confirm.innerText()).toMatch(/sessions? made from it stays? cached but can no longer be renewed/);
      // Cancel (here with Escape) changes nothing and gives the focus back.
      await page.keyboard.press('Escape');
      await expect.poll(() => page.evaluate(() => document.activeElement?.textContent)).toBe('Delete…');
      await page.getByRole('button', { name: 'Delete…' }).click();
      await inspect(page, 'detail-delete-confirm', confirm);
      await confirm.getByRole('button', { name: 'Delete saved login' }).click();
      await page.getByTestId('saved-login-row').first().waitFor();
      expect(await row(page, LABEL).count()).toBe(0);
      // The focus is not lost with the page it was on: it lands on the list.
      expect(await page.evaluate(() => document.activeElement?.id)).toBe('saved-logins-list-title');
      expect((await h.t.request(`/api/credentials/${encodeURIComponent(LABEL)}`)).status).toBe(404);
      const sessionsAfter = ((await (await h.t.request('/api/sessions')).json()) as { data: unknown[] }).data.length;
      expect(sessionsAfter).toBe(sessionsBefore);
      expect(await screen(page).count()).toBe(1);
      expect(problems).toEqual([]);
    } finally {
      await context.close();
    }
  });
});
