// The layout audit (support/layout-run.ts: axe with every rule in light and dark at 1280x800, 900x700, 640x480 and
// 640x400 — a 1280x800 window at 200 % zoom —, nothing past the right edge there and at 320 px, targets of 24x24,
// screenshots) of the states issue 44 names: a login waiting for the person, its live panel, a saved login's detail
// with passkeys, and a batch result. One window for all of them.
import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startCaptcha } from '../fixtures/sites/captcha.site.js';
import type { FixtureSite } from '../fixtures/sites/index.js';
import { finishGeneration } from './support/finish-generation.js';
import { LivePerson, PERSON_WAIT_MS, waitForEnd } from '../helpers/takeover-person.js';
import { inViewBelowBar } from './support/layout-audit.js';
import { audit, ensureShotsDir, open, report } from './support/layout-run.js';
import { dropFiles, startRendererHarness, type OpenApp, type RendererHarness } from './support/renderer-harness.js';

let h: RendererHarness;
let captcha: FixtureSite;
let app: OpenApp;

beforeAll(async () => {
  ensureShotsDir();
  [h, captcha] = await Promise.all([startRendererHarness(), startCaptcha({ personCanSolve: true })]);
  app = await h.openApp();
}, 120_000);
afterAll(async () => {
  await app?.context.close();
  await h?.close();
  await captcha?.close();
});

describe('the states of issue 44 fit the window and pass axe', () => {
  it('a login waiting for the person (in the form that started it), then its live panel', async () => {
    const { page } = app;
    const host = new URL(captcha.loginUrl).host;
    await open(page, 'Sessions');
    const form = page.getByRole('form', { name: 'Test a login' });
    await form.getByLabel('Login page URL').fill(captcha.loginUrl);
    await form.getByLabel('Username').fill('layout-person@example.com');
    await form.getByLabel('Password').fill(captcha.credentials.password);
    await form.getByRole('button', { name: 'Run login' }).click();
    const progress = page.getByTestId('login-progress');
    const show = progress.getByRole('button', { name: 'Show the page' });
    await show.waitFor({ timeout: PERSON_WAIT_MS });
    const loginId = (await progress.getAttribute('data-login-id'))!;
    try {
      expect(await inViewBelowBar(show)).toBe(true);
      // The form's own button does not claim the login is still at work.
      expect(await form.getByRole('button', { name: 'Waiting for you…' }).isDisabled()).toBe(true);
      await audit(page, 'sessions-login-needs-you', progress);

      await show.click();
      const panel = progress.getByRole('region', { name: `Finish signing in to ${host}` });
      await panel.waitFor();
      const frame = await (await panel.getByTitle(`Live page of ${host}`).elementHandle())!.contentFrame();
      await LivePerson.inFrame(page, frame!, () => h.t.core.login.takeover!.livePage(loginId));
      await audit(page, 'sessions-live-panel', panel);
    } finally {
      await h.t.request(`/api/login/${loginId}/cancel`, { method: 'POST' });
      await waitForEnd(h.t, loginId);
    }
    report();
  }, 300_000);

  it('a saved login’s detail with its passkeys', async () => {
    const { page } = app;
    const created = await h.t.request('/api/credentials', {
      method: 'POST',
      json: {
        label: 'Layout Keyhaven',
        loginUrl: 'https://keyhaven.example/login',
        loginMethod: 'passkey',
        username: 'ada',
      },
    });
    expect(created.status).toBe(201);
    const { id } = (await created.json()) as { id: string };
    const vault = h.t.core.login.vault.savedLogins;
    for (const rpId of ['keyhaven.example', 'accounts.keyhaven.example']) {
      const { privateKey } = crypto.generateKeyPairSync('ec', { namedCurve: 'P-256' });
      await vault.addPasskey(vault.get(h.t.orgId, id), {
        rpId,
        credentialId: crypto.randomBytes(16).toString('base64url'),
        privateKey: (privateKey.export({ format: 'der', type: 'pkcs8' }) as Buffer).toString('base64'),
        userHandle: crypto.randomBytes(8).toString('base64'),
        signCount: 1,
        createdAt: Date.now(),
      });
    }
    await open(page, 'Saved logins');
    await page.getByRole('button', { name: 'Open Layout Keyhaven' }).click();
    const passkeys = page.getByTestId('saved-login-passkeys');
    await expect.poll(() => passkeys.innerText()).toContain('accounts.keyhaven.example');
    await audit(page, 'saved-login-detail-passkeys', passkeys);
    report();
  }, 120_000);

  it('a batch result, every video done', async () => {
    const { page } = app;
    await open(page, 'Generate');
    await page.getByLabel('Template', { exact: true }).selectOption('text-to-video-cinematic');
    const card = page.getByRole('region', { name: 'Cinematic scene from text' });
    await card.getByText('Batch from CSV', { exact: true }).click();
    const csv = 'scene\nA red kite over wheat fields\nFog rolling into a harbour at night\nA tram in the rain\n';
    await dropFiles(page, card.getByRole('group', { name: 'Drop a CSV and its media files' }), [
      { name: 'scenes.csv', type: 'text/csv', bytes: Buffer.from(csv) },
    ]);
    await card.getByTestId('quote').getByTestId('quote-credits').waitFor();
    await card.getByRole('button', { name: 'Generate 3 videos' }).click();
    const outcome = card.getByTestId('generate-outcome');
    await outcome.getByTestId('generate-summary').waitFor();
    await expect.poll(() => outcome.locator('.live-generation-id').count()).toBe(3);
    for (const id of await outcome.locator('.live-generation-id').allInnerTexts()) {
      await finishGeneration(h.t, id);
    }
    await expect.poll(() => outcome.getByTestId('generate-summary').innerText()).toBe('Done');
    await audit(page, 'generate-batch-result', outcome);
    report();
  }, 120_000);
});
