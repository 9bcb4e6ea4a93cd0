// The Settings screen's browser and video providers over the IPC contract and a real core
// (support/settings-app.ts): the browser found automatically, and a provider token stored and never shown again.
import { describe, expect, it } from 'vitest';
import { resolveBrowserExecutable } from '../../src/main/core/login/browser/browser-resolver.js';
import { PROVIDER_KEYS } from '../../src/shared/provider.schema.js';
import { core, openSettings, section, shot, useSettingsApp } from './support/settings-app.js';

useSettingsApp();

describe('Settings over the IPC contract and a real core', () => {
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
});
