// Who may move a secret, in the window (docs/saved-logins.md#who-may-move-a-secret): an edit that lets a saved login's secrets be
// typed somewhere new (its login page on another origin, an origin added) asks the person first, and once they
// confirm it is saved as the person — without typing the secrets again, which an API key could not do (409
// SECRETS_REQUIRED). Going back changes nothing; a path on the same origin is saved without asking.
import { beforeAll, describe, expect, it } from 'vitest';
import {
  field,
  h,
  inspect,
  LABEL,
  openDetail,
  openSavedLogins,
  seedSavedLogin,
  site,
  useSavedLogins,
} from './support/saved-logins-ui.js';

useSavedLogins();
beforeAll(seedSavedLogin, 90_000);

const SSO = 'https://sso.ledger.test';
const current = async () =>
  (await (await h.t.request(`/api/credentials/${encodeURIComponent(LABEL)}`)).json()) as Record<string, unknown>;

describe('moving where a saved login’s secrets are typed', () => {
  it('asks the person to confirm, goes back without saving, then saves as the person without the secrets', async () => {
    const { page, context, problems } = await openSavedLogins();
    try {
      await openDetail(page, LABEL);
      await page.getByRole('button', { name: 'Edit', exact: true }).click();
      const form = page.getByRole('form', { name: `Edit “${LABEL}”` });

      // Another path on the same origin: the secrets go nowhere new, so it is saved without asking.
      await field(form, 'Login page URL').fill(`${site.origin}/login?redirect_to=%2Faccount`);
      await form.getByRole('button', { name: 'Save changes' }).click();
      await page.getByTestId('saved-login-detail').waitFor();
      expect(await current()).toMatchObject({
        loginUrl: `${site.origin}/login?redirect_to=***`,
        origins: [site.origin],
      });

      // Another origin: the confirmation names it, and the focus waits on "Back to the form".
      await page.getByRole('button', { name: 'Edit', exact: true }).click();
      await field(form, 'Login page URL').fill(`${SSO}/signin`);
      await form.getByRole('textbox', { name: 'Origin 1' }).fill(SSO);
      await form.getByRole('button', { name: 'Save changes' }).click();
      const confirm = form.getByTestId('move-confirm');
      expect(await confirm.innerText()).toContain(SSO);
      await expect.poll(() => page.evaluate(() => document.activeElement?.textContent)).toBe('Back to the form');
      expect(await form.getByRole('button', { name: 'Save changes' }).count()).toBe(0);
      await inspect(page, 'form-move-confirm', confirm);

      // Back (here with Escape): nothing saved, the form as the person left it, the focus on Save.
      await confirm.getByRole('button', { name: 'Back to the form' }).focus();
      await page.keyboard.press('Escape');
      await expect.poll(() => page.evaluate(() => document.activeElement?.textContent)).toBe('Save changes');
      expect(await field(form, 'Login page URL').inputValue()).toBe(`${SSO}/signin`);
      expect(await current()).toMatchObject({ origins: [site.origin] });

      // Confirmed: saved as the person, with no secret typed again.
      await form.getByRole('button', { name: 'Save changes' }).click();
      await form.getByTestId('move-confirm').getByRole('button', { name: 'Allow and save' }).click();
      await page.getByTestId('saved-login-detail').waitFor();
      expect(await current()).toMatchObject({
        loginUrl: `${SSO}/signin`,
        origins: [SSO],
        secrets: ['password'],
      });
      expect(problems).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it('the same move by an API key without the secrets is refused: 409 SECRETS_REQUIRED', async () => {
    const writer = h.t.core.keys.create(h.t.orgId, { scopes: ['credentials:write'] }).key;
    const res = await h.t.request(`/api/credentials/${encodeURIComponent(LABEL)}`, {
      method: 'PATCH',
      json: { loginUrl: site.loginUrl },
      key: writer,
    });
    expect(res.status).toBe(409);
    expect(await res.json()).toMatchObject({ error: 'SECRETS_REQUIRED', details: { fields: ['password'] } });
  });
});
