// The renderer's generations over the real HTTP API (support/renderer-over-http.ts): the generate form built from
// a template, a generation followed to its video on pushed events, a cancel (credits refunded), character pickers.
import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { media } from '../helpers/media-fixtures.js';
import { makeTestVideo, nav, openApp, shot, t, useRendererOverHttp } from './support/renderer-over-http.js';

useRendererOverHttp();

describe('renderer over the real HTTP API', () => {
  it('builds the generate form from a template’s variables, starts a generation and follows it to the video', async () => {
    const { page, context, problems } = await openApp();
    try {
      await nav(page, 'Templates').click();
      await page
        .getByTestId('template-list')
        .getByRole('button', { name: /Cinematic scene from text/ })
        .click();
      await page.getByTestId('template-detail').getByRole('button', { name: 'Generate' }).click();
      const form = page.getByRole('form', { name: 'Generate a video' });
      await form.getByLabel('Scene').waitFor();
      expect(await form.getByLabel('Visual style').getAttribute('placeholder')).toContain('cinematic');

      // min_length 10 is checked before anything is sent.
      await form.getByLabel('Scene').fill('too short');
      await form.getByRole('button', { name: 'Generate' }).click();
      await form.getByText('At least 10 characters', { exact: true }).waitFor();
      await form.getByLabel('Scene').fill('A lighthouse on a cliff at dusk, waves crashing below');
      await shot(page, 'generate-form');
      await form.getByRole('button', { name: 'Generate' }).click();
      const result = page.getByTestId('generate-result');
      await result.waitFor();
      expect(await result.innerText()).toMatch(/1 generation · \d+ credits charged/);
      const { balance } = (await (await t.request('/api/credits')).json()) as { balance: number };
      await expect
        .poll(() => page.getByTestId('credit-balance').innerText())
        .toMatch(new RegExp(`Balance\\s+${balance}\\s+credits`));

      await result.getByRole('button', { name: 'View progress' }).click();
      const row = page.getByTestId('generation-row').first();
      await row.waitFor();
      expect(await row.innerText()).toContain('Cinematic scene from text');
      expect(await row.getByTestId('status-badge').innerText()).toBe('generating');
      const id = (await row.locator('.cell-sub.mono').innerText()).trim();

      // Rendering is paused in this server (jobs.renderConcurrency 0, so the screen's states can be seen
      // one by one): play the render job's part through the same service calls and events it makes, with
      // a real MP4 in the real blob store; the screen moves on the pushed events (it does not poll).
      expect(t.core.video.generations.progress(id, 40)).toBe(true);
      t.core.events.emit('generation.progress', {
        orgId: t.orgId,
        generationId: id,
        progress: 40,
        queuePosition: null,
      });
      await expect
        .poll(() => row.getByRole('progressbar').getAttribute('aria-valuenow'), { timeout: 10_000 })
        .toBe('40');
      await shot(page, 'generations-running');
      const videoKey = `generations/${id}.mp4`;
      const thumbnailKey = `generations/${id}.jpg`;
      await t.core.video.blobs.put(videoKey, fs.readFileSync(makeTestVideo()), 'video/mp4');
      await t.core.video.blobs.put(thumbnailKey, media.jpeg(), 'image/jpeg');
      expect(t.core.video.generations.complete(id, { videoKey, thumbnailKey })).toBe(true);
      t.core.events.emit('generation.status', { orgId: t.orgId, generationId: id, status: 'completed', error: null });
      await row
        .getByTestId('status-badge')
        .filter({ hasText: /completed|failed/ })
        .waitFor({ timeout: 150_000 });
      expect(await row.getByTestId('status-badge').innerText()).toBe('completed');
      await row.getByRole('button', { name: /^Play/ }).click();
      const video = page.getByTestId('video-player').locator('video');
      await video.waitFor();
      await expect
        .poll(() => video.evaluate((v: HTMLVideoElement) => v.readyState), { timeout: 20_000 })
        .toBeGreaterThanOrEqual(1);
      expect(await video.evaluate((v: HTMLVideoElement) => v.duration)).toBeGreaterThan(0);
      await shot(page, 'generations-completed');
      expect(problems).toEqual([]);
    } finally {
      await context.close();
    }
  }, 200_000);

  it('cancels a running generation from the list (credits refunded)', async () => {
    const res = await t.request('/api/templates/text-to-video-cinematic/generate', {
      method: 'POST',
      json: { variables: { scene: 'A quiet harbour at dawn, boats rocking' } },
    });
    expect(res.status).toBe(200);
    const id = ((await res.json()) as { generations: { generation_id: string }[] }).generations[0].generation_id;
    const { page, context } = await openApp();
    try {
      await nav(page, 'Generations').click();
      const row = page.getByTestId('generation-row').filter({ hasText: id });
      await row.getByRole('button', { name: `Cancel ${id}` }).click();
      await row.getByTestId('status-badge').filter({ hasText: 'canceled' }).waitFor();
      const after = (await (await t.request(`/api/generations/${id}`)).json()) as {
        status: string;
        credits_refunded: number;
        credits_charged: number;
      };
      expect(after.status).toBe('canceled');
      expect(after.credits_refunded).toBe(after.credits_charged);
      expect(await row.locator('td.num').innerText()).toBe('0');
      await shot(page, 'generations-canceled');
    } finally {
      await context.close();
    }
  });

  it('generates with an ingredients template: character pickers on image variables', async () => {
    const templates = (await (await t.request('/api/templates?category=ingredients-to-video')).json()) as {
      data: {
        id: string;
        title: string;
        input_variables: { key: string; label: string; type: string; required: boolean; default_value?: string }[];
      }[];
    };
    const tpl = templates.data[0];
    const { page, context } = await openApp();
    try {
      await nav(page, 'Generate').click();
      await page.getByLabel('Template', { exact: true }).selectOption(tpl.id);
      const form = page.getByRole('form', { name: 'Generate a video' });
      const images = tpl.input_variables.filter((v) => v.type === 'image');
      expect(images.length).toBeGreaterThan(0);
      const pickers = form.getByLabel('Or use a character');
      await pickers.first().waitFor();
      expect(await pickers.count()).toBe(images.length);
      // The public characters are offered.
      await expect.poll(() => pickers.first().locator('option').count()).toBeGreaterThan(1);
      await shot(page, 'generate-ingredients');
    } finally {
      await context.close();
    }
  });
});
