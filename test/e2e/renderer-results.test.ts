// The desktop window's results and live progress, in real Chromium over the app's IPC path against a
// real API server: a login's steps as they happen and its cancel; handing a session to an agent (the
// storageState copied and saved, Playwright and curl snippets that really work, the server URL); the
// session detail with its step history and a re-test; generations moving on pushed events (no polling),
// their video saved, shown in its folder and made again.
import { execFile, execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { StorageStateSchema } from '../../src/shared/login.schema.js';
import { startSite } from '../fixtures/sites/index.js';
import { finishGeneration } from './support/finish-generation.js';
import { axeViolations, overflowsRight, setScheme } from './support/layout-audit.js';
import {
  nav,
  screenshots,
  startRendererHarness,
  type OpenApp,
  type RendererHarness,
} from './support/renderer-harness.js';

let h: RendererHarness;
beforeAll(async () => {
  h = await startRendererHarness({ login: { timeoutMs: 30_000, codeTimeoutMs: 60_000 } });
}, 120_000);
afterAll(() => h?.close());

const bridgeCalls = (page: OpenApp['page']) =>
  page.evaluate(() =>
    (window as unknown as { __bridgeCalls: { channel: string }[] }).__bridgeCalls.map((c) => c.channel),
  );

async function fillLogin(page: OpenApp['page'], url: string, method: string, username: string, password: string) {
  const form = page.getByRole('form', { name: 'Test a login' });
  await form.getByLabel('Login method').selectOption(method);
  await form.getByLabel('Login page URL').fill(url);
  await form.getByLabel(/^(Username|Email address)/).fill(username);
  const passwordField = form.getByLabel(/^Password/);
  // A method that only may use a password keeps it under "Optional for this method".
  if (!(await passwordField.isVisible())) await form.locator('summary', { hasText: /^Optional/ }).click();
  await passwordField.fill(password);
  return form;
}

describe('login: live steps, cancel, exports, session detail', () => {
  it('shows a login’s steps as they happen with the elapsed time, and cancels it', async () => {
    const site = await startSite('email-code', { sendMail: async () => {} });
    const { page, context, bridge } = await h.openApp();
    try {
      const form = await fillLogin(
        page,
        site.loginUrl,
        'otp_email',
        site.credentials.username,
        site.credentials.password,
      );
      await form.getByLabel('Use a cached session if there is one').uncheck();
      await form.getByRole('button', { name: 'Run login' }).click();
      const progress = page.getByTestId('login-progress');
      // The site sent no code: the login waits for it, and says so while it runs.
      await progress
        .getByTestId('login-step')
        .filter({ hasText: /waiting for the email/ })
        .waitFor({ timeout: 30_000 });
      const loginId = await progress.getAttribute('data-login-id');
      const heard = bridge.sent.filter((e) => e.event === 'login:step').map((e) => e.payload as { loginId: string });
      expect(heard.length).toBeGreaterThan(1);
      expect(heard.every((e) => e.loginId === loginId)).toBe(true);
      const steps = await progress.getByTestId('login-step').allInnerTexts();
      expect(steps.length).toBe(heard.length);
      for (const s of steps) expect(s).toMatch(/^\d+\.\d s\s/);
      expect(steps.join('\n')).not.toContain(site.credentials.password);
      await screenshots(page, 'sessions-login-running', progress);

      await progress.getByRole('button', { name: 'Cancel login' }).click();
      await progress.getByText('Login cancelled').waitFor({ timeout: 15_000 });
      // A cancel is not a failure: no failure banner under the progress.
      expect(await page.getByTestId('login-outcome').locator('.login-failure').count()).toBe(0);
      expect(await progress.getByRole('button', { name: 'Cancel login' }).count()).toBe(0);
      // The login really stopped: nothing runs under this id any more.
      const again = await h.t.request(`/api/login/${loginId}/cancel`, { method: 'POST' });
      expect(again.status).toBe(404);
    } finally {
      await context.close();
      await site.close();
    }
  }, 90_000);

  it('hands a fresh session to an agent and shows it in the session detail with its steps and a re-test', async () => {
    const site = await startSite('classic-csrf');
    const { page, context, bridge, problems } = await h.openApp();
    const work = fs.mkdtempSync(path.join(h.filesDir, 'exports-'));
    try {
      const form = await fillLogin(
        page,
        site.loginUrl,
        'password',
        site.credentials.username,
        site.credentials.password,
      );
      await form.getByRole('button', { name: 'Run login' }).click();
      const result = page.getByTestId('login-result');
      await result.waitFor({ timeout: 60_000 });
      const exports = result.getByTestId('session-exports');

      await exports.getByRole('button', { name: 'Copy JSON (storageState)' }).click();
      await expect.poll(() => bridge.copied.length).toBe(1);
      const state = StorageStateSchema.parse(JSON.parse(bridge.copied[0]));
      expect(state.cookies.length).toBeGreaterThan(0);

      const saved = path.join(work, 'state.json');
      h.saveNext(saved);
      await exports.getByRole('button', { name: 'Save as file…' }).click();
      await exports.getByText('Saved as state.json').waitFor();
      expect(JSON.parse(fs.readFileSync(saved, 'utf8'))).toEqual(state);
      expect(fs.statSync(saved).mode & 0o777).toBe(0o600);
      h.saveNext(null);
      await exports.getByRole('button', { name: 'Save as file…' }).click();
      await expect.poll(async () => (await bridgeCalls(page)).filter((c) => c === 'exports:saveText').length).toBe(2);
      expect(fs.readdirSync(work)).toEqual(['state.json']);

      await exports.getByRole('button', { name: 'Copy Playwright snippet' }).click();
      await exports.getByRole('button', { name: 'Copy curl command' }).click();
      await exports.getByRole('button', { name: 'Copy server URL' }).click();
      await expect.poll(() => bridge.copied.length).toBe(4);
      const [, playwright, curl, serverUrl] = bridge.copied;
      expect(serverUrl).toBe(h.t.url);
      expect(playwright).toContain('browser.newContext({ storageState })');
      expect(playwright).toContain('process.env.KEY');
      for (const snippet of [playwright, curl]) {
        expect(snippet).not.toContain(site.credentials.password);
        expect(snippet).not.toContain(h.t.key);
      }
      // The curl command works as copied: with $KEY and $PASSWORD set it writes the cached session.
      // Asynchronously: the API answering it runs in this process.
      await promisify(execFile)('bash', ['-c', curl], {
        cwd: work,
        env: { PATH: process.env.PATH, KEY: h.t.key, PASSWORD: site.credentials.password },
      });
      const fetched = StorageStateSchema.parse(JSON.parse(fs.readFileSync(path.join(work, 'state.json'), 'utf8')));
      expect(fetched.cookies.map((c) => c.name).sort()).toEqual(state.cookies.map((c) => c.name).sort());

      // The session's detail: the steps of this login, and a re-test on the site.
      const row = page.getByTestId('session-row').first();
      await row.getByRole('button', { name: /^Open session/ }).click();
      const detail = page.getByTestId('session-detail');
      await expect.poll(() => detail.getByTestId('login-step').count()).toBeGreaterThan(2);
      expect(await detail.getByTestId('login-step').first().innerText()).toMatch(/opened login page/);
      await detail.getByRole('button', { name: 'Re-test session' }).click();
      const validation = detail.getByTestId('session-validation');
      await validation.waitFor({ timeout: 30_000 });
      expect(await validation.innerText()).toContain('Still logged in');
      await expect.poll(() => detail.getByTestId('session-status').innerText()).toBe('valid');
      await screenshots(page, 'sessions-detail');

      // Gone on the server meanwhile (an agent deleted it): the re-test says so.
      const id = ((await (await h.t.request('/api/sessions')).json()) as { data: { id: string }[] }).data[0].id;
      expect((await h.t.request(`/api/sessions/${id}`, { method: 'DELETE' })).status).toBe(204);
      await detail.getByRole('button', { name: 'Re-test session' }).click();
      const failed = detail.getByRole('alert').filter({ hasText: 'The re-test did not run' });
      await failed.waitFor();
      expect(await failed.innerText()).toContain('NOT_FOUND');
      expect(problems.filter((p) => !p.includes('status of 4'))).toEqual([]);
    } finally {
      await context.close();
      await site.close();
    }
  }, 120_000);
});

describe('generations: live progress, results, retry', () => {
  const emitProgress = (id: string, progress: number, queuePosition: number | null) => {
    h.t.core.video.generations.progress(id, progress);
    h.t.core.events.emit('generation.progress', { orgId: h.t.orgId, generationId: id, progress, queuePosition });
  };

  it('moves the Generate result and the Generations row on pushed events, then saves, shows and remakes the video', async () => {
    const { page, context, bridge, problems } = await h.openApp();
    try {
      await nav(page, 'Generate').click();
      await page.getByLabel('Template', { exact: true }).selectOption('text-to-video-cinematic');
      const form = page.getByRole('form', { name: 'Generate a video' });
      await form.getByLabel('Scene').fill('A paper boat on a rainy street, neon reflections');
      await form.getByRole('button', { name: 'Generate' }).click();
      const live = page.getByTestId('generate-result').getByTestId('live-generation');
      await live.getByTestId('status-badge').filter({ hasText: 'generating' }).waitFor();
      const id = (await live.locator('.mono').innerText()).trim();
      // Rendering is paused in this server: the job waits first in the queue.
      await expect.poll(() => live.locator('.progress-text').innerText()).toBe('Queued · #1');

      // Progress arrives as an event: the screen moves without asking the API again.
      const before = (await bridgeCalls(page)).length;
      emitProgress(id, 0, 2);
      await expect.poll(() => live.locator('.progress-text').innerText()).toBe('Queued · #2');
      emitProgress(id, 40, null);
      await expect.poll(() => live.locator('.progress-text').innerText()).toBe('40%');
      const asked = (await bridgeCalls(page)).slice(before).filter((c) => c.startsWith('generations:'));
      expect(asked).toEqual([]);
      await screenshots(page, 'generate-live-progress', page.getByTestId('generate-result'));

      // Finished as the render job finishes: files stored, the generation completed, the event sent.
      expect(await finishGeneration(h.t, id, testVideo())).toBe(true);
      await live.getByRole('button', { name: 'Play' }).click();

      const row = page.getByTestId('generation-row').filter({ hasText: id });
      const thumb = row.locator('img.thumb');
      await expect.poll(() => thumb.evaluate((i: HTMLImageElement) => i.complete && i.naturalWidth)).toBeGreaterThan(0);
      const player = page.getByTestId('video-player');
      await player.locator('video').waitFor();

      const target = path.join(h.filesDir, 'my-video.mp4');
      h.saveNext(target);
      await player.getByRole('button', { name: 'Save video…' }).click();
      await player.getByText('Saved as my-video.mp4.').waitFor();
      expect(fs.readFileSync(target)).toEqual(testVideo());
      await player.getByRole('button', { name: 'Show in folder' }).click();
      await expect.poll(() => bridge.shownInFolder).toEqual([target]);
      await player.getByRole('button', { name: 'Copy link to the video' }).click();
      await expect.poll(() => bridge.copied.length).toBe(1);
      // The link is signed for a short time, and the player says until when (to the second).
      const expiry = await player.getByTestId('link-expiry').innerText();
      expect(expiry).toMatch(
        /^The video link expires at .*\d{1,2}:\d{2}:\d{2}.* \(in \d+ min\): copy it again after that/,
      );
      const link = await fetch(bridge.copied[0]);
      expect(link.status).toBe(200);
      expect(link.headers.get('content-type')).toBe('video/mp4');
      await screenshots(page, 'generations-player');

      // Made again with the same inputs: a new generation, selected, with the same prompt.
      await player.getByRole('button', { name: `Regenerate ${id}` }).click();
      await expect.poll(() => page.getByTestId('generation-row').count()).toBe(2);
      const newest = (await page.getByTestId('generation-row').first().locator('.cell-sub.mono').innerText()).trim();
      expect(newest).not.toBe(id);
      const [a, b] = await Promise.all(
        [id, newest].map(
          async (g) => ((await (await h.t.request(`/api/generations/${g}`)).json()) as { prompt: string }).prompt,
        ),
      );
      expect(b).toBe(a);
      expect(problems).toEqual([]);
    } finally {
      await context.close();
    }
  }, 120_000);

  it('tells generations of one template apart (prompt, inputs, time to the second) and deletes one', async () => {
    const created = await h.t.request('/api/templates', {
      method: 'POST',
      json: {
        title: 'Twins',
        category: 'text-to-video',
        duration_sec: 4,
        input_variables: [
          { key: 'topic', label: 'Topic', type: 'text', required: true },
          { key: 'mood', label: 'Mood', type: 'text', default_value: 'calm' },
        ],
        prompt_template: 'A short film about {{topic}} in a {{mood}} mood',
      },
    });
    const templateId = ((await created.json()) as { id: string }).id;
    const ids: Record<string, string> = {};
    for (const topic of ['owls', 'harbour cranes']) {
      const gen = await h.t.request(`/api/templates/${templateId}/generate`, {
        method: 'POST',
        json: { variables: { topic } },
      });
      ids[topic] = ((await gen.json()) as { generations: { generation_id: string }[] }).generations[0].generation_id;
      await h.t.request(`/api/generations/${ids[topic]}/cancel`, { method: 'POST' });
    }
    const { page, context, problems } = await h.openApp();
    try {
      await nav(page, 'Generations').click();
      const row = (topic: string) => page.getByTestId('generation-row').filter({ hasText: ids[topic] });
      await row('owls').waitFor();
      expect(await row('owls').getByTestId('generation-prompt').innerText()).toBe(
        'A short film about owls in a calm mood',
      );
      expect(await row('harbour cranes').getByTestId('generation-prompt').innerText()).toBe(
        'A short film about harbour cranes in a calm mood',
      );
      // Only what the request gave: the default mood is the same for both, so it is left out.
      expect(await row('owls').getByTestId('generation-inputs').innerText()).toBe('topic: “owls”');
      expect(await row('owls').getByTestId('generation-created').innerText()).toMatch(/\d{1,2}:\d{2}:\d{2}/);
      await screenshots(page, 'generations-told-apart');
      for (const scheme of ['light', 'dark'] as const) {
        await setScheme(page, scheme);
        expect(await axeViolations(page), `axe: generations in ${scheme}`).toEqual([]);
        expect(await overflowsRight(page), `overflow in ${scheme}`).toEqual({ by: 0, out: [] });
      }

      // Deleted from the window, over the same route as the API (two clicks: a double-click cannot do it).
      const owls = row('owls');
      await owls.getByRole('button', { name: `Delete ${ids.owls}` }).click();
      await owls.getByRole('button', { name: `Delete now: Delete ${ids.owls}` }).click();
      await owls.waitFor({ state: 'detached' });
      expect((await h.t.request(`/api/generations/${ids.owls}`)).status).toBe(404);
      expect(await row('harbour cranes').count()).toBe(1);
      expect(problems).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it('says why a video cannot be saved, and shows the service’s error when a retry is refused', async () => {
    const created = await h.t.request('/api/templates', {
      method: 'POST',
      json: {
        title: 'Soon gone',
        category: 'text-to-video',
        duration_sec: 4,
        input_variables: [{ key: 'topic', label: 'Topic', type: 'text', required: true }],
        prompt_template: 'About {{topic}}',
      },
    });
    const templateId = ((await created.json()) as { id: string }).id;
    const gen = await h.t.request(`/api/templates/${templateId}/generate`, {
      method: 'POST',
      json: { variables: { topic: 'owls' } },
    });
    const id = ((await gen.json()) as { generations: { generation_id: string }[] }).generations[0].generation_id;
    await h.t.request(`/api/generations/${id}/cancel`, { method: 'POST' });
    expect((await h.t.request(`/api/templates/${templateId}`, { method: 'DELETE' })).status).toBe(200);

    const { page, context } = await h.openApp();
    try {
      const notSaved = await page.evaluate(
        (g) =>
          (
            window as unknown as { agentStudio: { channels: Record<string, (a?: unknown) => Promise<unknown>> } }
          ).agentStudio.channels['generations:saveVideo']({ id: g }),
        id,
      );
      expect(notSaved).toMatchObject({ ok: false, error: { code: 'not_available', message: /it is canceled/ } });
      await nav(page, 'Generations').click();
      const row = page.getByTestId('generation-row').filter({ hasText: id });
      await row.getByRole('button', { name: `Retry ${id}` }).click();
      const alert = page.getByRole('alert').filter({ hasText: 'The generation was not started' });
      await alert.waitFor();
      expect(await alert.innerText()).toContain('not_found');
    } finally {
      await context.close();
    }
  });
});

/** A real 1-second H.264 MP4 (ffmpeg test pattern), made once. */
let video: Buffer | null = null;
function testVideo(): Buffer {
  if (video) return video;
  const file = path.join(h.filesDir, 'pattern.mp4');
  execFileSync('ffmpeg', [
    ...['-v', 'error', '-y', '-f', 'lavfi', '-i', 'testsrc=duration=1:size=320x180:rate=10'],
    ...['-pix_fmt', 'yuv420p', '-c:v', 'libx264', '-movflags', '+faststart', file],
  ]);
  video = fs.readFileSync(file);
  return video;
}
