// The Settings screen's browser and video providers over the IPC contract and a real core
// (support/settings-app.ts): the browser found automatically, and a provider token stored and never shown again.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolveBrowserExecutable } from '../../src/main/core/login/browser/browser-resolver.js';
import { PROVIDER_KEYS } from '../../src/shared/provider.schema.js';
import { ReplicateStandin } from '../fixtures/providers/replicate-standin.js';
import { core, openSettings, section, shot, useSettingsApp } from './support/settings-app.js';

const TOKEN = 'r8_settings-token-5e2a';
let replicate: ReplicateStandin;
beforeAll(async () => {
  replicate = await new ReplicateStandin(TOKEN).start();
});
afterAll(() => replicate?.stop());
// The core's Replicate is the stand-in: a token typed in the window is checked there.
useSettingsApp({ config: () => ({ providers: { replicate: { baseUrl: replicate.apiUrl } } }) });

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

  it('connects a video provider: a made-up token is refused, the right one Connected; the token never shown again', async () => {
    const { page, context } = await openSettings();
    try {
      const providers = section(page, 'Video providers');
      const form = providers.getByRole('form', { name: 'Connect Replicate' });
      // Stored is not connected: Replicate is asked, and says no.
      await form.getByLabel('Replicate key').fill('r8_made-up-token');
      await form.getByRole('button', { name: 'Save Replicate key' }).click();
      const state = form.getByRole('status');
      await state.getByText('Key refused', { exact: true }).waitFor();
      expect(await state.innerText()).toContain('Replicate refused the key (HTTP 401).');
      expect(await form.getByText('Connected', { exact: true }).count()).toBe(0);
      await form.scrollIntoViewIfNeeded();
      await shot(page, 'settings-video-providers-refused');

      await form.getByLabel('Replicate key').fill(TOKEN);
      await form.getByRole('button', { name: 'Save Replicate key' }).click();
      await state.getByText('Connected', { exact: true }).waitFor();
      expect(await core().secrets.get(PROVIDER_KEYS.replicate.account)).toBe(TOKEN);
      expect(await form.getByLabel('Replicate key').inputValue()).toBe('');
      expect(await page.content()).not.toContain(TOKEN);
      expect(replicate.requests.filter((r) => r.path === '/v1/account').length).toBe(2);
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
