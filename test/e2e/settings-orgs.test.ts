// The Settings screen's organizations over the IPC contract and a real core (support/settings-app.ts): credits
// added, organizations created (a taken name refused), and the window switching to a new one and back.
import { describe, expect, it } from 'vitest';
import { STARTER_CREDITS } from '../../src/main/core/create-core.js';
import { ProfileAccess } from '../../src/main/core/tenancy/profile-readers.js';
import { axeViolations, setScheme } from './support/layout-audit.js';
import { core, desktopOrg, nav, openSettings, section, shot, useSettingsApp } from './support/settings-app.js';

useSettingsApp();

describe('Settings over the IPC contract and a real core', () => {
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

  it('browser profiles: the first organization may read them, another only while the person ticks it', async () => {
    const access = () => new ProfileAccess(core().db, core().orgs);
    const gamma = core().orgs.create('Gamma Team');
    const { page, context } = await openSettings();
    try {
      const orgs = section(page, 'Organizations and credits');
      const box = (name: string) =>
        orgs.getByRole('checkbox', { name: `Keys may read your browser profiles: ${name}` });
      await box('Gamma Team').waitFor();
      expect(await box(access().readers().orgs[0]!.name).isChecked()).toBe(true);
      expect(await box('Gamma Team').isChecked()).toBe(false);
      // Clicked, not check(): the box follows the core's answer, not the click.
      await box('Gamma Team').click();
      await expect.poll(() => box('Gamma Team').isChecked()).toBe(true);
      expect(access().allows(gamma.id)).toBe(true);
      for (const scheme of ['light', 'dark'] as const) {
        await setScheme(page, scheme);
        expect(await axeViolations(page), `axe: browser profiles in ${scheme}`).toEqual([]);
      }
      await box('Gamma Team').click();
      await expect.poll(() => box('Gamma Team').isChecked()).toBe(false);
      expect(access().allows(gamma.id)).toBe(false);
    } finally {
      await context.close();
    }
  });
});
