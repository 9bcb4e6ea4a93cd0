// The video studio's template editor (issue 27), in real Chromium over the app's IPC path against a real API
// server: what renders what, a template built from nothing with its tokens checked, a draft preview that plays,
// the JSON tab round-tripping, save, duplicate, export/import, and the editor's layout (axe, reflow at 320 px).
import fs from 'node:fs';
import path from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PROVIDER_KEYS } from '../../src/shared/provider.schema.js';
import { draftOf, inputOf } from '../../src/renderer/features/templates/template-form-state.js';
import { validateDraft } from '../../src/renderer/features/templates/template-checks.js';
import type { Template } from '../../src/shared/ipc-contract.js';
import { FalStandin } from '../fixtures/providers/fal-standin.js';
import { media } from '../helpers/media-fixtures.js';
import { upload } from '../helpers/video-api.js';
import { axeViolations, overflowsRight, setScheme } from './support/layout-audit.js';
import { nav, startRendererHarness, SHOTS_DIR, type RendererHarness } from './support/renderer-harness.js';

let h: RendererHarness;
let fal: FalStandin;
beforeAll(async () => {
  fal = await new FalStandin('fal-test-key-123').start();
  // Renders run here (the test server pauses them by default): the preview must play. fal.ai is the stand-in: a key
  // typed in the window is checked there.
  h = await startRendererHarness({ jobs: { renderConcurrency: 1 }, providers: { fal: { baseUrl: fal.url } } });
}, 120_000);
afterAll(async () => {
  await h?.close();
  await fal?.stop();
});

type Body = Record<string, unknown> & { title: string; input_variables: Record<string, unknown>[] };
const templates = async () =>
  ((await (await h.t.request('/api/templates?limit=100')).json()) as { data: (Body & { id: string })[] }).data;

/** The editor at 1280 and 360 px wide, light and dark, as PNGs to look at. */
async function editorShots(page: Page, name: string, show?: Locator) {
  fs.mkdirSync(SHOTS_DIR, { recursive: true });
  for (const width of [1280, 360]) {
    await page.setViewportSize({ width, height: 900 });
    await show?.evaluate((el) => el.scrollIntoView({ block: 'start' }));
    for (const scheme of ['light', 'dark'] as const) {
      await setScheme(page, scheme);
      await page.screenshot({ path: path.join(SHOTS_DIR, `${name}-${width}-${scheme}.png`), animations: 'disabled' });
    }
  }
  await setScheme(page, 'light');
  await page.setViewportSize({ width: 1280, height: 900 });
}

/** axe in both schemes and nothing past the right edge at 320 px. */
async function audit(page: Page): Promise<string[]> {
  const findings: string[] = [];
  for (const scheme of ['light', 'dark'] as const) {
    await setScheme(page, scheme);
    for (const v of await axeViolations(page)) findings.push(`${scheme}: ${v.rule} ${v.nodes.join(' | ')}`);
  }
  await setScheme(page, 'light');
  await page.setViewportSize({ width: 320, height: 700 });
  const over = await overflowsRight(page);
  if (over.by > 0 || over.out.length) findings.push(`320 px: scrolls ${over.by} px sideways: ${over.out.join('; ')}`);
  await page.setViewportSize({ width: 1280, height: 900 });
  return findings;
}

describe('template editor', () => {
  it('every built-in template round-trips through the form (body -> form -> body) and passes its checks', async () => {
    const all = (await templates()) as unknown as Template[];
    expect(all.length).toBeGreaterThan(3);
    for (const t of all) {
      const body = inputOf(draftOf(t));
      expect(inputOf(draftOf(JSON.parse(JSON.stringify(body)))), t.id).toEqual(body);
      expect(validateDraft(draftOf(body)), t.id).toEqual({});
    }
  });

  it('says what renders a built-in template and offers to connect a provider', async () => {
    const { page, context, problems } = await h.openApp();
    try {
      await nav(page, 'Templates').click();
      const item = page.getByTestId('template-list').getByRole('button', { name: /Cinematic scene from text/ });
      expect(await item.getByTestId('renderer-label').innerText()).toBe('Local draft');
      await item.click();
      const detail = page.getByTestId('template-detail');
      expect(await detail.getByTestId('renderer-label').innerText()).toBe(
        'Local draft (offline motion graphics: title cards, pan and zoom, cards, waveforms)',
      );
      await detail.getByRole('button', { name: 'Connect an AI provider' }).click();
      const fal = detail.getByRole('form', { name: 'Connect fal.ai' });
      await fal.getByLabel('fal.ai key').fill('fal-test-key-123');
      await fal.getByRole('button', { name: 'Save fal.ai key' }).click();
      await fal.getByText('Connected', { exact: true }).waitFor();
      expect(await h.t.core.secrets.get(PROVIDER_KEYS.fal.account)).toBe('fal-test-key-123');
      // The key never comes back to the page.
      expect(await fal.getByLabel('fal.ai key').inputValue()).toBe('');
      // ComfyUI takes an address; a bad one is refused on its field.
      const comfy = detail.getByRole('form', { name: 'Connect ComfyUI' });
      expect(await comfy.getByLabel('ComfyUI address').inputValue()).toBe(h.t.core.config.providers.comfyui.baseUrl);
      await comfy.getByLabel('ComfyUI address').fill('ftp://comfy');
      await comfy.getByRole('button', { name: 'Save ComfyUI address' }).click();
      await comfy.getByText(/http:\/\/ or https:\/\/ URL/).waitFor();
      expect(problems).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it('builds a template from nothing: tokens checked, a draft preview plays, JSON round-trips, save', async () => {
    const { page, context, problems } = await h.openApp();
    try {
      await nav(page, 'Templates').click();
      await page.getByRole('button', { name: 'New template' }).click();
      const form = page.locator('form.template-form');
      // Issue 44, item 10: a fresh form highlights nothing, so the preview says what to fill in.
      const message = form.getByTestId('preview-message');
      await expect.poll(() => message.innerText()).toMatch(/^To see a preview, fill in .*\btitle\b/);
      expect(await form.locator('[aria-invalid="true"]').count()).toBe(0);
      await form.getByLabel('Title').fill('Studio made template');
      await form.getByLabel('Aspect ratio').selectOption('9:16');
      await form.getByLabel('Resolution').selectOption('480p');
      await form.getByLabel('Duration (seconds)').fill('2');
      await form.getByLabel('Prompt template').fill('A poster of {{subject}} in {{place}}');
      const v1 = form.getByRole('group', { name: 'Variable 1' });
      await v1.getByLabel('Key').fill('subject');
      await v1.getByLabel('Label').fill('Subject');
      await v1.getByLabel('Default value').fill('a red fox');
      // {{place}} names no variable: said on the prompt field before anything is saved.
      await expect
        .poll(() => form.getByTestId('prompt-token-report').innerText())
        .toContain('Unknown token: {{place}}');
      expect(await form.locator('.prompt-highlight mark.token-unknown').innerText()).toBe('{{place}}');
      await editorShots(page, 'studio-editor-tokens', form.getByRole('group', { name: 'Variable 1' }));
      await form.getByRole('button', { name: '+ Add variable' }).click();
      const v2 = form.getByRole('group', { name: 'Variable 2' });
      await v2.getByLabel('Key').fill('place');
      await v2.getByLabel('Label').fill('Place');
      await v2.getByLabel('Default value').fill('the snow');
      await expect.poll(() => form.getByTestId('prompt-token-report').innerText()).not.toContain('Unknown');
      // Reorder: "place" first.
      await form.getByRole('button', { name: 'Move up variable place' }).click();
      expect(await form.getByRole('group', { name: 'Variable 1' }).getByLabel('Key').inputValue()).toBe('place');

      // The draft preview: a playable <video> whose source loads, from a free local render.
      const video = form.getByTestId('draft-preview');
      await expect
        .poll(async () => ((await video.count()) > 0 ? 'video' : await form.locator('.preview-frame').innerText()), {
          timeout: 60_000,
        })
        .toBe('video');
      await expect
        .poll(() => video.evaluate((v: HTMLVideoElement) => v.readyState), { timeout: 30_000 })
        .toBeGreaterThanOrEqual(2);
      const size = await video.evaluate((v: HTMLVideoElement) => [v.videoWidth, v.videoHeight]);
      expect(size[1]).toBeGreaterThan(size[0]); // 9:16
      // Issue 44, item 10: no native controls over the draft's picture (they hid its title text at 320/640 px);
      // Pause and Play are a button below it.
      expect(await video.evaluate((v: HTMLVideoElement) => v.controls)).toBe(false);
      const toggle = form.getByRole('button', { name: /^(Pause|Play) preview$/ });
      for (let i = 0; i < 2; i++) {
        const paused = await video.evaluate((v: HTMLVideoElement) => v.paused);
        await expect.poll(() => toggle.innerText()).toBe(paused ? 'Play preview' : 'Pause preview');
        await toggle.click();
        await expect.poll(() => video.evaluate((v: HTMLVideoElement) => v.paused)).toBe(!paused);
      }
      // A change renders a new draft (the person's own sample value here), which replaces the one playing.
      const first = await video.getAttribute('src');
      await form.getByText('Sample values', { exact: true }).click();
      await form.locator('.sample-value').filter({ hasText: 'Subject' }).locator('input').fill('a grey owl');
      await expect.poll(() => video.getAttribute('src'), { timeout: 60_000 }).not.toBe(first);
      await expect
        .poll(() => video.evaluate((v: HTMLVideoElement) => v.readyState), { timeout: 30_000 })
        .toBeGreaterThanOrEqual(2);
      // The drafts come from a scratch copy that exists while the editor is open, readable by id, but listed
      // nowhere: not by GET /api/templates (what agents see), not on the Templates screen once its list reloads.
      const scratch = h.t.core.db
        .prepare('SELECT id FROM templates WHERE scratch = 1 AND title = ?')
        .get('Studio made template (preview)') as { id: string } | undefined;
      expect(scratch).toBeDefined();
      const copy = await h.t.request(`/api/templates/${scratch!.id}`);
      expect(await copy.json()).toMatchObject({ scratch: true, builtin: false });
      const listed = await templates();
      expect(listed.map((x) => x.id)).not.toContain(scratch!.id);
      expect(listed.filter((x) => x.title.endsWith('(preview)'))).toEqual([]);
      const categoryFilter = page.locator('#template-category');
      const screenList = page.getByTestId('template-list');
      await categoryFilter.selectOption('text-to-video');
      await categoryFilter.selectOption('');
      await expect.poll(() => screenList.locator('[data-template-id]').count()).toBe(listed.length);
      expect(await screenList.locator(`[data-template-id="${scratch!.id}"]`).count()).toBe(0);
      expect(await screenList.innerText()).not.toContain('(preview)');
      expect(await form.getByLabel('Title').inputValue()).toBe('Studio made template'); // the editor stayed open
      const credits = (await (await h.t.request('/api/credits')).json()) as { balance: number };
      await editorShots(page, 'studio-editor', form.getByRole('heading', { name: 'New template' }));

      // JSON tab: the body; an edit there comes back through the form unchanged.
      await form.getByRole('tab', { name: 'JSON' }).click();
      const json = form.getByLabel('Template JSON');
      const body = JSON.parse(await json.inputValue()) as Body;
      expect(body).toMatchObject({ title: 'Studio made template', aspect_ratio: '9:16', resolution: '480p' });
      const edited: Body = {
        ...body,
        description: 'Edited as JSON',
        latency_estimate_sec: { typical: 5, busy: 9 },
        input_variables: [
          ...body.input_variables,
          { key: 'mood', label: 'Mood', type: 'text', required: false, max_length: 40 },
        ],
      };
      await json.fill(JSON.stringify(edited, null, 2));
      await form.getByRole('tab', { name: 'Form' }).click();
      expect(await form.getByLabel('Description').inputValue()).toBe('Edited as JSON');
      await form.getByRole('tab', { name: 'JSON' }).click();
      expect(JSON.parse(await json.inputValue())).toEqual(edited);
      expect(await audit(page)).toEqual([]);
      // Not JSON: said on the field, the form keeps its state.
      await json.fill('{"title": ');
      await form.getByRole('tab', { name: 'Form' }).click();
      await form.getByText(/^Not a template:/).waitFor();
      await json.fill(JSON.stringify(edited, null, 2));
      await form.getByRole('tab', { name: 'Form' }).click();

      expect(await audit(page)).toEqual([]);
      await form.getByRole('button', { name: 'Create template' }).click();
      await page.getByTestId('template-detail').getByRole('heading', { name: 'Studio made template' }).waitFor();
      const saved = (await templates()).find((x) => x.title === 'Studio made template')!;
      expect(saved).toMatchObject({
        description: 'Edited as JSON',
        aspect_ratio: '9:16',
        // A local template shows the local renderer's estimate for this machine, whatever the body stored.
        latency_estimate_sec: { typical: expect.any(Number), busy: expect.any(Number) },
      });
      expect(saved.input_variables.map((v) => v.key)).toEqual(['place', 'subject', 'mood']);
      // Saving made the real template (not scratch), the editor's close deleted its scratch copy, previews were free.
      expect(saved.id).not.toBe(scratch!.id);
      expect(((await (await h.t.request(`/api/templates/${saved.id}`)).json()) as { scratch: boolean }).scratch).toBe(
        false,
      );
      await expect.poll(async () => (await h.t.request(`/api/templates/${scratch!.id}`)).status).toBe(404);
      expect(((await (await h.t.request('/api/credits')).json()) as { balance: number }).balance).toBe(credits.balance);
      // The drafts are the editor's previews, not the person's videos: they exist (GET /api/generations?draft=true)
      // but the Generations screen lists only the rest (it showed them as rows titled with the scratch copy's id).
      const drafts = (await (await h.t.request('/api/generations?draft=true')).json()) as { data: { id: string }[] };
      expect(drafts.data.length).toBeGreaterThanOrEqual(2);
      const kept = (await (await h.t.request('/api/generations?draft=false')).json()) as { data: { id: string }[] };
      await nav(page, 'Generations').click();
      await page.getByRole('heading', { name: 'Generations' }).first().waitFor();
      await expect.poll(() => page.getByTestId('generation-row').count()).toBe(kept.data.length);
      const rows = await page.getByTestId('generation-row').allInnerTexts();
      for (const d of drafts.data) expect(rows.join('\n')).not.toContain(d.id);
      expect(rows.join('\n')).not.toMatch(/\bdraft\b/);
      expect(problems.filter((p) => !p.includes('status of 4'))).toEqual([]);
    } finally {
      await context.close();
    }
  }, 180_000);

  it("lets the person set a variable's role; the next draft preview is rendered with it", async () => {
    const { page, context } = await h.openApp();
    /** The newest draft's recorded inputs: what the local renderer laid out (the role rides with each input). */
    const newestDraftInputs = async () => {
      const list = (await (await h.t.request('/api/generations?draft=true&limit=1')).json()) as {
        data: { inputs?: Record<string, { role?: string; value?: string }> }[];
      };
      return list.data[0]?.inputs ?? {};
    };
    try {
      await nav(page, 'Templates').click();
      await page.getByRole('button', { name: 'New template' }).click();
      const form = page.locator('form.template-form');
      await form.getByLabel('Title').fill('Role picked template');
      await form.getByLabel('Resolution').selectOption('480p');
      await form.getByLabel('Duration (seconds)').fill('2');
      await form.getByLabel('Prompt template').fill('An ad that reads {{line}}');
      const v1 = form.getByRole('group', { name: 'Variable 1' });
      await v1.getByLabel('Key').fill('line');
      await v1.getByLabel('Label').fill('Line');
      await v1.getByLabel('Default value').fill('Quiet morning tide');
      const role = v1.getByLabel('Role in the local preview');
      // Automatic shows its guess, so the person sees what the preview uses before choosing.
      expect(await role.locator('option').first().innerText()).toMatch(/^Automatic: /);
      const video = form.getByTestId('draft-preview');
      await expect.poll(() => video.count(), { timeout: 60_000 }).toBe(1);
      for (const [label, recorded] of [
        ['Subtitle (under the headline)', 'subtitle'],
        ['Headline (large type)', 'headline'],
      ] as const) {
        const before = await video.getAttribute('src');
        await role.selectOption({ label });
        await expect.poll(() => video.getAttribute('src'), { timeout: 60_000 }).not.toBe(before);
        expect((await newestDraftInputs()).line).toMatchObject({ role: recorded, value: 'Quiet morning tide' });
      }
      // Saved with the role, which the JSON tab shows as the template's own.
      await form.getByRole('tab', { name: 'JSON' }).click();
      const body = JSON.parse(await form.getByLabel('Template JSON').inputValue()) as Body;
      expect(body.input_variables[0]).toMatchObject({ key: 'line', role: 'headline' });
      await form.getByRole('tab', { name: 'Form' }).click();
      expect(await audit(page)).toEqual([]);
      await editorShots(page, 'studio-editor-role', v1);
    } finally {
      await context.close();
    }
  }, 180_000);

  it('keeps the preview in view while the variables are edited: pinned on a narrow window, beside them on a wide one', async () => {
    const { page, context } = await h.openApp();
    const box = async (l: Locator) => (await l.boundingBox())!;
    try {
      await page.setViewportSize({ width: 1280, height: 800 });
      await nav(page, 'Templates').click();
      await page.getByRole('button', { name: 'New template' }).click();
      const form = page.locator('form.template-form');
      await form.getByLabel('Title').fill('Long template');
      await form.getByLabel('Prompt template').fill('{{a}} {{b}} {{c}}');
      for (const [i, key] of ['a', 'b', 'c'].entries()) {
        if (i) await form.getByRole('button', { name: '+ Add variable' }).click();
        const v = form.getByRole('group', { name: `Variable ${i + 1}` });
        await v.getByLabel('Key').fill(key);
        await v.getByLabel('Label').fill(key.toUpperCase());
      }
      const preview = form.locator('section.template-preview');
      const last = form.getByRole('group', { name: 'Variable 3' }).getByLabel('Default value');
      // Narrow: the person pins it; the field typed in is scrolled to below it, and both are on screen.
      await preview.getByLabel('Keep the preview in view while editing').check();
      await last.click();
      await last.pressSequentially('the last line');
      const [p, f] = [await box(preview), await box(last)];
      expect(p.y, 'preview top on screen').toBeGreaterThanOrEqual(0);
      expect(f.y, 'the field starts below the pinned preview').toBeGreaterThanOrEqual(p.y + p.height - 1);
      expect(f.y + f.height, 'the field is on screen').toBeLessThanOrEqual(800);
      await editorShots(page, 'studio-editor-pinned');
      await page.setViewportSize({ width: 900, height: 700 });
      await last.click();
      await page.screenshot({ path: path.join(SHOTS_DIR, 'studio-editor-pinned-900x700.png') });
      // 200 % zoom (640x400): no room to pin; the preview scrolls with the fields, the choice is not offered, and the
      // field typed in is whole on screen.
      await page.setViewportSize({ width: 640, height: 400 });
      await last.click();
      expect(await preview.getByLabel('Keep the preview in view while editing').isVisible()).toBe(false);
      expect(await preview.evaluate((el) => getComputedStyle(el).position)).toBe('static');
      const z = await box(last);
      expect(z.y).toBeGreaterThanOrEqual(0);
      expect(z.y + z.height).toBeLessThanOrEqual(400);
      await page.screenshot({ path: path.join(SHOTS_DIR, 'studio-editor-pinned-640x400.png') });
      await page.setViewportSize({ width: 1280, height: 800 });
      expect(await audit(page)).toEqual([]);
      // Wide: beside the fields by itself, no toggle.
      await page.setViewportSize({ width: 1800, height: 900 });
      await expect.poll(() => preview.getByLabel('Keep the preview in view while editing').isVisible()).toBe(false);
      await last.click();
      await last.press('End');
      await last.pressSequentially(' again');
      const [pw, fw] = [await box(preview), await box(last)];
      expect(pw.x, 'the preview is beside the fields').toBeGreaterThan(fw.x + fw.width);
      expect(pw.y).toBeGreaterThanOrEqual(0);
      expect(pw.y + pw.height).toBeLessThanOrEqual(900);
      await page.screenshot({ path: path.join(SHOTS_DIR, 'studio-editor-wide-1800-light.png') });
    } finally {
      await context.close();
    }
  }, 180_000);

  it('prices a test render with the real provider before anything is charged', async () => {
    const { page, context } = await h.openApp();
    try {
      await nav(page, 'Templates').click();
      await page.getByRole('button', { name: 'New template' }).click();
      const form = page.locator('form.template-form');
      await form.getByLabel('Title').fill('Hosted test');
      await form.getByLabel('Prompt template').fill('{{subject}}');
      const v1 = form.getByRole('group', { name: 'Variable 1' });
      await v1.getByLabel('Key').fill('subject');
      await v1.getByLabel('Label').fill('Subject');
      await v1.getByLabel('Default value').fill('a red fox');
      await form.getByLabel('Provider', { exact: true }).selectOption('fal');
      // A model fal does not name: refused on the model's own field, in the schema's words.
      await form.getByLabel('Provider model').fill('not a model');
      await form.getByRole('button', { name: 'Create template' }).click();
      await expect
        .poll(() =>
          form
            .locator('.field', { has: page.getByLabel('Provider model') })
            .locator('.field-error')
            .innerText(),
        )
        .toMatch(/must be a fal endpoint id/);
      await form.getByLabel('Provider model').fill('fal-ai/kling-video/v2/master/text-to-video');
      await form.getByLabel('Model input (JSON)').fill('{"prompt": "{{prompt}}", "mood": "{{nope}}"}');
      // A placeholder that names nothing: on the field, as the service would refuse it.
      await form.getByRole('button', { name: 'Create template' }).click();
      await form.getByText(/\{\{nope\}\} is neither a variable/).waitFor();
      await form.getByLabel('Model input (JSON)').fill('{"prompt": "{{prompt}}"}');
      const before = ((await (await h.t.request('/api/credits')).json()) as { balance: number }).balance;
      await form.getByRole('button', { name: 'Test render with the provider…' }).click();
      const quote = form.getByTestId('test-render-quote');
      await quote.waitFor();
      expect(await quote.innerText()).toContain('fal.ai · ');
      const credits = await quote.getByTestId('quote-credits').innerText();
      await form.getByRole('button', { name: `Render for ${credits} credits` }).waitFor();
      await form.getByRole('button', { name: 'Cancel', exact: true }).first().click();
      expect(((await (await h.t.request('/api/credits')).json()) as { balance: number }).balance).toBe(before);
    } finally {
      await context.close();
    }
  }, 120_000);

  it('takes a captions variable with WebVTT as its default and previews it', async () => {
    const { page, context } = await h.openApp();
    try {
      await nav(page, 'Templates').click();
      await page.getByRole('button', { name: 'New template' }).click();
      const form = page.locator('form.template-form');
      await form.getByLabel('Title').fill('Captions in the editor');
      await form.getByLabel('Duration (seconds)').fill('2');
      const v1 = form.getByRole('group', { name: 'Variable 1' });
      await v1.getByLabel('Key').fill('subs');
      await v1.getByLabel('Label').fill('Subtitles');
      await v1.getByLabel('Type').selectOption('captions');
      expect(await v1.getByLabel('Min length').count()).toBe(0);
      await v1.getByLabel('Default captions').fill('WEBVTT\n\n00:00.000 --> 00:01.500\nHello from the editor\n');
      await form.getByRole('button', { name: '+ Add variable' }).click();
      const v2 = form.getByRole('group', { name: 'Variable 2' });
      await v2.getByLabel('Key').fill('more');
      await v2.getByLabel('Label').fill('More');
      await v2.getByLabel('Type').selectOption('captions');
      // One captions variable per template, as the service says.
      await form.getByRole('button', { name: 'Create template' }).click();
      await form.getByText(/2 captions variables; a template has at most one/).waitFor();
      await form.getByRole('button', { name: 'Remove variable more' }).click();
      const video = form.getByTestId('draft-preview');
      await expect
        .poll(async () => ((await video.count()) > 0 ? 'video' : await form.locator('.preview-frame').innerText()), {
          timeout: 60_000,
        })
        .toBe('video');
    } finally {
      await context.close();
    }
  }, 120_000);

  it('picks a media or captions variable’s default from the stored files', async () => {
    const key = await upload(h.t, media.png(4096), 'image/png');
    const captionsKey = await upload(h.t, Buffer.from('WEBVTT\n\n00:00.000 --> 00:01.000\nHi\n'), 'text/vtt');
    const { page, context } = await h.openApp();
    try {
      await nav(page, 'Templates').click();
      await page.getByRole('button', { name: 'New template' }).click();
      const form = page.locator('form.template-form');
      await form.getByLabel('Category').selectOption('image-to-video');
      const v1 = form.getByRole('group', { name: 'Variable 1' });
      await v1.getByLabel('Type').selectOption('image');
      await v1.getByLabel('Default file').selectOption(key);
      expect(await v1.getByLabel('Default (URL or storage key)').inputValue()).toBe(key);
      await form.getByRole('tab', { name: 'JSON' }).click();
      const body = JSON.parse(await form.getByLabel('Template JSON').inputValue()) as Body;
      expect(body.input_variables[0]).toMatchObject({ type: 'image', default_value: key });
      // A captions variable lists the stored captions files (not the image), and its key goes into the text field.
      await form.getByRole('tab', { name: 'Form' }).click();
      await form.getByRole('button', { name: '+ Add variable' }).click();
      const v2 = form.getByRole('group', { name: 'Variable 2' });
      await v2.getByLabel('Key').fill('subs');
      await v2.getByLabel('Type').selectOption('captions');
      const choices = await v2.getByLabel('Default file').locator('option').allInnerTexts();
      expect(choices).toHaveLength(2);
      expect(choices[0]).toBe('(none)');
      await v2.getByLabel('Default file').selectOption(captionsKey);
      expect(await v2.getByLabel('Default captions').inputValue()).toBe(captionsKey);
      expect(await audit(page)).toEqual([]);
      await form.getByRole('tab', { name: 'JSON' }).click();
      const withCaptions = JSON.parse(await form.getByLabel('Template JSON').inputValue()) as Body;
      expect(withCaptions.input_variables[1]).toMatchObject({ type: 'captions', default_value: captionsKey });
    } finally {
      await context.close();
    }
  }, 120_000);

  it('duplicates a built-in template, exports it as .json and imports it back', async () => {
    const { page, context } = await h.openApp();
    try {
      await nav(page, 'Templates').click();
      await page
        .getByTestId('template-list')
        .getByRole('button', { name: /Cinematic scene from text/ })
        .click();
      await page.getByTestId('template-detail').getByRole('button', { name: 'Duplicate' }).click();
      const form = page.locator('form.template-form');
      expect(await form.getByLabel('Title').inputValue()).toBe('Copy of Cinematic scene from text');
      const out = path.join(h.filesDir, 'copy.json');
      h.saveNext(out);
      await form.getByRole('button', { name: 'Export .json' }).click();
      await form.getByText(/^Saved /).waitFor();
      const exported = JSON.parse(fs.readFileSync(out, 'utf8')) as Body;
      expect(exported.title).toBe('Copy of Cinematic scene from text');
      await form.getByLabel('Title').fill('Changed');
      await form.getByTestId('template-import-file').setInputFiles(out);
      await expect.poll(() => form.getByLabel('Title').inputValue()).toBe('Copy of Cinematic scene from text');
      await form.getByRole('tab', { name: 'JSON' }).click();
      expect(JSON.parse(await form.getByLabel('Template JSON').inputValue())).toEqual(exported);
      await form.getByRole('button', { name: 'Create template' }).click();
      await page
        .getByTestId('template-detail')
        .getByRole('heading', { name: 'Copy of Cinematic scene from text' })
        .waitFor();
    } finally {
      await context.close();
    }
  }, 120_000);
});
