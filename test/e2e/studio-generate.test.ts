// The video studio's Generate screen (issue 27), in real Chromium over the app's IPC path against a real API
// server: what renders the template, the price before paying (equal to what is then charged), the aspect ratio
// and output choosers, and a batch from a CSV with its media dropped along, charged once as one batch.
import fs from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseCsv } from '../../src/renderer/lib/csv.js';
import { media } from '../helpers/media-fixtures.js';
import { finishGeneration } from './support/finish-generation.js';
import { upload } from '../helpers/video-api.js';
import { axeViolations, overflowsRight, setScheme } from './support/layout-audit.js';
import { dropFiles, nav, startRendererHarness, SHOTS_DIR, type RendererHarness } from './support/renderer-harness.js';

let h: RendererHarness;
beforeAll(async () => {
  h = await startRendererHarness();
}, 120_000);
afterAll(() => h?.close());

const balance = async () => ((await (await h.t.request('/api/credits')).json()) as { balance: number }).balance;
interface Gen {
  id: string;
  batch_id: string;
  aspect_ratio: string;
  credits_charged: number;
  created_at: number;
  deadline_at: number | null;
  outputs: Record<string, unknown>;
  inputs: Record<string, { storage_key?: string; value?: string }>;
}
const generation = async (id: string) => (await (await h.t.request(`/api/generations/${id}`)).json()) as Gen;

async function audit(page: Page, name: string): Promise<string[]> {
  const findings: string[] = [];
  fs.mkdirSync(SHOTS_DIR, { recursive: true });
  for (const scheme of ['light', 'dark'] as const) {
    await setScheme(page, scheme);
    for (const v of await axeViolations(page)) findings.push(`${scheme}: ${v.rule} ${v.nodes.join(' | ')}`);
    await page.screenshot({ path: path.join(SHOTS_DIR, `${name}-1280-${scheme}.png`), animations: 'disabled' });
  }
  await setScheme(page, 'light');
  await page.setViewportSize({ width: 320, height: 700 });
  const over = await overflowsRight(page);
  if (over.by > 0 || over.out.length) findings.push(`320 px: scrolls ${over.by} px sideways: ${over.out.join('; ')}`);
  await page.setViewportSize({ width: 360, height: 800 });
  await page.screenshot({ path: path.join(SHOTS_DIR, `${name}-360-light.png`), animations: 'disabled' });
  await page.setViewportSize({ width: 1280, height: 800 });
  return findings;
}

/** A template with a headline and a required captions variable `subs` (labelled Subtitles). */
async function captionedTemplate(title: string, subsDefault?: string): Promise<{ id: string }> {
  const res = await h.t.request('/api/templates', {
    method: 'POST',
    json: {
      title,
      category: 'text-to-video',
      duration_sec: 2,
      prompt_template: '{{headline}}',
      input_variables: [
        { key: 'headline', label: 'Headline', type: 'text', required: true },
        { key: 'subs', label: 'Subtitles', type: 'captions', required: true, default_value: subsDefault },
      ],
    },
  });
  expect(res.status).toBe(200);
  return (await res.json()) as { id: string };
}

describe('Generate: quote before paying, formats, CSV batches', () => {
  it('shows the renderer and the price before Generate charges, and charges exactly that', async () => {
    const { page, context, problems } = await h.openApp();
    try {
      await nav(page, 'Generate').click();
      await page.getByLabel('Template', { exact: true }).selectOption('text-to-video-cinematic');
      const card = page.getByRole('region', { name: 'Cinematic scene from text' });
      expect(await card.getByTestId('renderer-label').innerText()).toMatch(/^Local draft \(offline motion graphics/);
      const form = page.getByRole('form', { name: 'Generate a video' });
      await form.getByLabel('Scene').fill('A lighthouse on a cliff at dusk, waves crashing below');
      await card.getByLabel('Aspect ratio').selectOption('9:16');
      await card.getByLabel('Animated GIF preview').check();
      await form.getByText('Delivery options', { exact: true }).click();
      await form.getByLabel('Number of videos').fill('2');
      // A deadline that is not a whole number of minutes in range is refused in the form, naming the range.
      const deadline = form.getByLabel('Deadline in minutes (optional)');
      await deadline.fill('0');
      await form.getByRole('button', { name: 'Generate' }).click();
      await form.getByText('Deadline must be a whole number of minutes from 1 to 10080 (7 days)').waitFor();
      expect(await deadline.getAttribute('aria-invalid')).toBe('true');
      await deadline.fill('30');
      const quote = form.getByTestId('quote');
      await expect.poll(() => quote.getByTestId('quote-credits').count()).toBe(1);
      const before = await balance();
      // The price of exactly this body (2 videos): the quote route's own answer.
      const asked = (await (
        await h.t.request('/api/templates/text-to-video-cinematic/quote', {
          method: 'POST',
          json: {
            variables: { scene: 'A lighthouse on a cliff at dusk, waves crashing below' },
            num_videos: 2,
            aspect_ratio: '9:16',
            outputs: ['mp4', 'gif'],
          },
        })
      ).json()) as { credits: number; balance_after: number };
      await expect.poll(() => quote.getByTestId('quote-credits').innerText()).toBe(String(asked.credits));
      expect(await quote.getByTestId('quote-balance-after').innerText()).toBe(String(before - asked.credits));
      expect(await balance()).toBe(before); // a quote charges nothing
      expect(await audit(page, 'studio-generate-quote')).toEqual([]);

      await form.getByRole('button', { name: 'Generate' }).click();
      const result = page.getByTestId('generate-result');
      await result.waitFor();
      expect(await result.innerText()).toContain(`2 generations · ${asked.credits} credits charged`);
      expect(await balance()).toBe(before - asked.credits);
      const ids = (await page.evaluate(() =>
        (window as unknown as { __bridgeCalls: { channel: string }[] }).__bridgeCalls
          .filter((c) => c.channel === 'generate:fromTemplate')
          .map((c) => c.channel),
      )) as string[];
      expect(ids).toHaveLength(1);
      const list = (await (await h.t.request('/api/generations?template_id=text-to-video-cinematic')).json()) as {
        data: Gen[];
      };
      const made = list.data.slice(0, 2);
      expect(made.map((g) => g.aspect_ratio)).toEqual(['9:16', '9:16']);
      // The deadline went along as deadline_sec: 30 minutes from when the generation was made.
      for (const g of made) expect(g.deadline_at! - g.created_at).toBeCloseTo(30 * 60_000, -4);
      expect(made.reduce((n, g) => n + g.credits_charged, 0)).toBe(asked.credits);
      expect(Object.keys(made[0].outputs).sort()).toEqual(['gif', 'mp4']);
      // Generations says what made each video.
      await nav(page, 'Generations').click();
      const row = page.getByTestId('generation-row').filter({ hasText: made[0].id });
      expect(await row.getByTestId('renderer-label').innerText()).toBe('Local draft');
      expect(problems).toEqual([]);
    } finally {
      await context.close();
    }
  }, 120_000);

  it('names the provider and model of a hosted template, and says when its key is missing', async () => {
    const res = await h.t.request('/api/templates', {
      method: 'POST',
      json: {
        title: 'Kling shot',
        category: 'text-to-video',
        prompt_template: '{{scene}}',
        input_variables: [{ key: 'scene', label: 'Scene', type: 'text', required: true }],
        provider: { name: 'fal', model: 'fal-ai/kling-video/v2/master/text-to-video', input: { prompt: '{{prompt}}' } },
      },
    });
    const tpl = (await res.json()) as { id: string };
    const { page, context } = await h.openApp();
    try {
      await nav(page, 'Generate').click();
      await page.getByLabel('Template', { exact: true }).selectOption(tpl.id);
      const card = page.getByRole('region', { name: 'Kling shot' });
      expect(await card.getByTestId('renderer-label').innerText()).toContain(
        'fal-ai/kling-video/v2/master/text-to-video',
      );
      await card.getByText(/^fal\.ai is not connected on this computer/).waitFor();
      await card.getByRole('button', { name: 'Connect an AI provider' }).click();
      await card.getByRole('form', { name: 'Connect fal.ai' }).waitFor();
    } finally {
      await context.close();
    }
  }, 60_000);

  it('takes captions as SRT text and asks for the .vtt sidecar', async () => {
    const tpl = await captionedTemplate('Captioned card');
    const { page, context, problems } = await h.openApp();
    try {
      await nav(page, 'Generate').click();
      await page.getByLabel('Template', { exact: true }).selectOption(tpl.id);
      const card = page.getByRole('region', { name: 'Captioned card' });
      const form = card.getByRole('form', { name: 'Generate a video' });
      await form.getByLabel('Headline').fill('Launch day');
      await form.getByLabel('Subtitles').fill('1\n00:00:00,000 --> 00:00:01,500\nHello there\n');
      await card.getByLabel('Captions as .vtt').check();
      await form.getByTestId('quote-credits').waitFor();
      const credits = Number(await form.getByTestId('quote-credits').innerText());
      await form.getByRole('button', { name: 'Generate' }).click();
      await page.getByTestId('generate-result').waitFor();
      const list = (await (await h.t.request(`/api/generations?template_id=${tpl.id}`)).json()) as { data: Gen[] };
      expect(list.data).toHaveLength(1);
      expect(list.data[0].credits_charged).toBe(credits);
      expect(Object.keys(list.data[0].outputs).sort()).toEqual(['mp4', 'vtt']);
      expect(problems).toEqual([]);
    } finally {
      await context.close();
    }
  }, 60_000);

  it('loads captions from a local .srt into the field, says why a bad file is not taken, and takes a stored key', async () => {
    const tpl = await captionedTemplate('Captions from files');
    const srt = '1\n00:00:00,000 --> 00:00:01,500\nFrom a file\n';
    // A captions upload of the organization (as the Uploads screen or an agent makes one).
    const presign = (await (
      await h.t.request('/api/s3/presign-upload', {
        method: 'POST',
        json: { kind: 'upload', contentType: 'text/vtt' },
      })
    ).json()) as { s3_key: string; upload_url: string };
    const put = await fetch(presign.upload_url, {
      method: 'PUT',
      body: 'WEBVTT\n\n00:00.000 --> 00:01.000\nStored\n',
      headers: { 'content-type': 'text/vtt' },
    });
    expect(put.status).toBe(200);
    const { page, context, problems } = await h.openApp();
    try {
      await nav(page, 'Generate').click();
      await page.getByLabel('Template', { exact: true }).selectOption(tpl.id);
      const card = page.getByRole('region', { name: 'Captions from files' });
      const form = card.getByRole('form', { name: 'Generate a video' });
      await form.getByLabel('Headline').fill('Launch day');
      const subtitles = form.getByLabel('Subtitles');
      await expect(form.getByRole('button', { name: 'Load from file…' }).isVisible()).resolves.toBe(true);
      const chooser = form.getByTestId('captions-file-subs');
      await chooser.setInputFiles({ name: 'bad.vtt', mimeType: 'text/vtt', buffer: Buffer.from('no cues here') });
      await form.getByText(/bad\.vtt is not valid SRT or WebVTT captions/).waitFor();
      expect(await subtitles.inputValue()).toBe('');
      await chooser.setInputFiles({ name: 'talk.srt', mimeType: 'application/x-subrip', buffer: Buffer.from(srt) });
      await expect.poll(() => subtitles.inputValue()).toBe(srt);
      await form.getByText('Loaded from talk.srt.').waitFor();
      expect(await audit(page, 'studio-generate-captions-file')).toEqual([]);
      await form.getByTestId('quote-credits').waitFor();
      await form.getByRole('button', { name: 'Generate' }).click();
      await page.getByTestId('generate-result').waitFor();

      await subtitles.fill(presign.s3_key);
      await form.getByRole('button', { name: 'Generate' }).click();
      const list = async () =>
        ((await (await h.t.request(`/api/generations?template_id=${tpl.id}`)).json()) as { data: Gen[] }).data;
      await expect.poll(async () => (await list()).length).toBe(2);
      const [stored, typed] = await list(); // newest first
      expect(typed.inputs.subs).toMatchObject({ value: srt });
      expect(stored.inputs.subs).toMatchObject({ storage_key: presign.s3_key });
      expect(problems).toEqual([]);
    } finally {
      await context.close();
    }
  }, 90_000);

  it('says what an empty captions field gives when the template has a default file, and uses it', async () => {
    const key = await upload(h.t, Buffer.from('WEBVTT\n\n00:00.000 --> 00:01.000\nBy default\n'), 'text/vtt');
    const tpl = await captionedTemplate('Captions by default', key);
    const { page, context, problems } = await h.openApp();
    try {
      await nav(page, 'Generate').click();
      await page.getByLabel('Template', { exact: true }).selectOption(tpl.id);
      const form = page
        .getByRole('region', { name: 'Captions by default' })
        .getByRole('form', { name: 'Generate a video' });
      await form.getByLabel('Headline').fill('Launch day');
      await form.getByText(`Left empty: the template's default file ${key}.`).waitFor();
      expect(await form.getByLabel('Subtitles').getAttribute('required')).toBeNull();
      await form.getByTestId('quote-credits').waitFor();
      await form.getByRole('button', { name: 'Generate' }).click();
      await page.getByTestId('generate-result').waitFor();
      const list = (await (await h.t.request(`/api/generations?template_id=${tpl.id}`)).json()) as { data: Gen[] };
      expect(list.data[0].inputs.subs).toMatchObject({ source: 'default', storage_key: key });
      expect(problems).toEqual([]);
    } finally {
      await context.close();
    }
  }, 60_000);

  it('takes a CSV batch with its images dropped along: preview table, quote, then one charged batch', async () => {
    const { page, context, problems } = await h.openApp();
    try {
      await nav(page, 'Generate').click();
      await page.getByLabel('Template', { exact: true }).selectOption('image-to-video-animate');
      const card = page.getByRole('region', { name: 'Animate a photo' });
      await card.getByText('Batch from CSV', { exact: true }).click();
      const csv = 'photo,motion\nfirst.png,slow zoom in\nsecond.png,"pan left, then hold"\n';
      await dropFiles(page, card.getByRole('group', { name: 'Drop a CSV and its media files' }), [
        { name: 'batch.csv', type: 'text/csv', bytes: Buffer.from(csv) },
        { name: 'first.png', type: 'image/png', bytes: media.png(2048) },
        { name: 'second.png', type: 'image/png', bytes: media.png(3072) },
      ]);
      const rows = card.getByTestId('batch-row');
      await expect.poll(() => rows.count()).toBe(2);
      expect(await rows.nth(1).innerText()).toContain('pan left, then hold');
      await card.getByText(/2 file\(s\) uploaded/).waitFor();
      const quote = card.getByTestId('quote');
      await quote.getByTestId('quote-credits').waitFor();
      // The batch's delivery options: a bad deadline shows at once and takes the quote away until it is fixed.
      await card.getByText('Delivery options', { exact: true }).click();
      const deadline = card.getByLabel('Deadline in minutes (optional)');
      await deadline.fill('90.5');
      await card.getByText('Deadline must be a whole number of minutes from 1 to 10080 (7 days)').waitFor();
      await expect.poll(() => quote.getByTestId('quote-credits').count()).toBe(0);
      expect(await card.getByRole('button', { name: 'Generate batch' }).isDisabled()).toBe(true);
      await deadline.fill('90');
      await quote.getByTestId('quote-credits').waitFor();
      const credits = Number(await quote.getByTestId('quote-credits').innerText());
      const before = await balance();
      expect(before).toBeGreaterThan(credits);
      expect(await audit(page, 'studio-generate-batch')).toEqual([]);

      await card.getByRole('button', { name: 'Generate 2 videos' }).click();
      const result = page.getByTestId('generate-result');
      await result.waitFor();
      expect(await result.innerText()).toContain(`2 generations · ${credits} credits charged`);
      expect(await balance()).toBe(before - credits);
      const list = (await (await h.t.request('/api/generations?template_id=image-to-video-animate')).json()) as {
        data: Gen[];
      };
      const made = await Promise.all(list.data.slice(0, 2).map((g) => generation(g.id)));
      expect(new Set(made.map((g) => g.batch_id)).size).toBe(1);
      expect(made.map((g) => g.inputs.motion.value).sort()).toEqual(['pan left, then hold', 'slow zoom in']);
      expect(made.every((g) => g.inputs.photo.storage_key)).toBe(true);
      for (const g of made) expect(g.deadline_at! - g.created_at).toBeCloseTo(90 * 60_000, -4);
      // The batch is cancelled as one: both videos (renders are paused here), refunded in full.
      await card.getByRole('button', { name: 'Cancel this batch' }).click();
      await expect
        .poll(() => card.getByTestId('batch-cancelled').innerText())
        .toBe(`Cancelled 2 videos; ${credits} credits refunded.`);
      expect(await balance()).toBe(before);
      expect(problems).toEqual([]);
    } finally {
      await context.close();
    }
  }, 120_000);
});

describe('after a batch (issue 44, item 7)', () => {
  it('quotes from the real balance, names each CSV row, and offers no cancel or progress once all are done', async () => {
    const { page, context, problems } = await h.openApp();
    try {
      await nav(page, 'Generate').click();
      await page.getByLabel('Template', { exact: true }).selectOption('text-to-video-cinematic');
      const card = page.getByRole('region', { name: 'Cinematic scene from text' });
      // A single video first: its result stays under Fill in, not under Batch from CSV.
      await card.getByLabel('Scene').fill('A lighthouse keeper feeding gulls at dawn');
      await card.getByRole('button', { name: 'Generate', exact: true }).click();
      await card.getByTestId('generate-outcome').waitFor();
      await card.getByText('Batch from CSV', { exact: true }).click();
      expect(await card.getByTestId('generate-outcome').count()).toBe(0);

      const csv = 'scene\nA red kite over wheat fields\nFog rolling into a harbour at night\n';
      await dropFiles(page, card.getByRole('group', { name: 'Drop a CSV and its media files' }), [
        { name: 'scenes.csv', type: 'text/csv', bytes: Buffer.from(csv) },
      ]);
      const quote = card.getByTestId('quote');
      const credits = Number(await quote.getByTestId('quote-credits').innerText());
      await card.getByRole('button', { name: 'Generate 2 videos' }).click();
      const outcome = card.getByTestId('generate-outcome');
      await outcome.getByTestId('generate-summary').waitFor();
      // The same body quoted again: "Balance after" is worked out from the balance after this batch's charge.
      const real = await balance();
      await expect.poll(() => quote.getByTestId('quote-balance-after').innerText()).toBe(String(real - credits));
      // Each result says which CSV row it is.
      const labels = outcome.getByTestId('live-generation-label');
      await expect
        .poll(() => labels.allInnerTexts())
        .toEqual(['Row 1 · A red kite over wheat fields', 'Row 2 · Fog rolling into a harbour at night']);
      expect(await card.getByRole('button', { name: 'Cancel this batch' }).isEnabled()).toBe(true);
      expect(await outcome.getByRole('button', { name: 'View progress' }).count()).toBe(1);

      const ids = await outcome.locator('.live-generation-id').allInnerTexts();
      for (const id of ids) {
        await finishGeneration(h.t, id);
      }
      await expect.poll(() => outcome.getByTestId('generate-summary').innerText()).toBe('Done');
      // Nothing left to cancel or to follow.
      expect(await card.getByRole('button', { name: 'Cancel this batch' }).count()).toBe(0);
      expect(await outcome.getByRole('button', { name: 'View progress' }).count()).toBe(0);
      expect(await audit(page, 'studio-generate-batch-done')).toEqual([]);
      // At 320 px an id takes at most two lines beside its thumbnail.
      await page.setViewportSize({ width: 320, height: 700 });
      for (const line of await outcome.locator('.live-generation-id').all()) {
        const lines = await line.evaluate(
          (el) => el.getBoundingClientRect().height / parseFloat(getComputedStyle(el).lineHeight),
        );
        expect(lines).toBeLessThanOrEqual(2);
      }
      await outcome.scrollIntoViewIfNeeded();
      await page.screenshot({ path: path.join(SHOTS_DIR, 'studio-generate-batch-done-320-light.png') });
      await page.setViewportSize({ width: 1280, height: 800 });
      expect(problems).toEqual([]);
    } finally {
      await context.close();
    }
  }, 120_000);
});

describe('CSV as spreadsheets export it', () => {
  it('reads quoted cells, doubled quotes, line breaks in a cell, CRLF, a BOM and semicolons', () => {
    const comma = parseCsv('\uFEFFphoto,motion\r\na.png,"pan, ""slow""\nthen hold"\r\n\r\nb.png,\r\n');
    expect(comma).toEqual({
      columns: ['photo', 'motion'],
      rows: [
        { photo: 'a.png', motion: 'pan, "slow"\nthen hold' },
        { photo: 'b.png', motion: '' },
      ],
    });
    expect(parseCsv('photo;motion\na.png;zoom, in\n').rows).toEqual([{ photo: 'a.png', motion: 'zoom, in' }]);
  });
});
