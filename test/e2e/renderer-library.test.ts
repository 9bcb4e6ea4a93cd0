// The renderer's libraries over the real HTTP API (support/renderer-over-http.ts): templates listed, filtered,
// created (client and server validation), edited and deleted; a file uploaded; characters searched and created.
import { describe, expect, it } from 'vitest';
import { media } from '../helpers/media-fixtures.js';
import { nav, openApp, pickNext, shot, t, useRendererOverHttp } from './support/renderer-over-http.js';

useRendererOverHttp();

describe('renderer over the real HTTP API', () => {
  it('lists the built-in templates from the server, filters by category and shows a template’s variables', async () => {
    const fromServer = (await (await t.request('/api/templates?limit=100')).json()) as {
      data: { id: string; title: string; category: string; input_variables: { key: string; label: string }[] }[];
    };
    expect(fromServer.data.length).toBeGreaterThan(0);
    const { page, context, problems } = await openApp();
    try {
      await nav(page, 'Templates').click();
      const list = page.getByTestId('template-list');
      await list.getByRole('button').first().waitFor();
      const titles = await list.locator('.item-title').allInnerTexts();
      expect(titles).toEqual(fromServer.data.map((x) => x.title));

      // A template's detail shows every one of its variables.
      const target = fromServer.data.find((x) => x.input_variables.length >= 2) ?? fromServer.data[0];
      await list.getByRole('button', { name: new RegExp(target.title.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')) }).click();
      const detail = page.getByTestId('template-detail');
      await detail.getByRole('heading', { name: target.title }).waitFor();
      const rows = detail.getByTestId('variable-row');
      expect(await rows.count()).toBe(target.input_variables.length);
      for (const v of target.input_variables) {
        expect(await detail.getByRole('cell', { name: v.key, exact: true }).count()).toBe(1);
      }
      await shot(page, 'templates-detail');

      // Category filter: only that category, as the server answers it.
      const category = 'ingredients-to-video';
      const expected = fromServer.data.filter((x) => x.category === category).map((x) => x.title);
      await page.getByLabel('Category', { exact: true }).selectOption(category);
      await expect.poll(() => list.locator('.item-title').allInnerTexts()).toEqual(expected);
      expect(problems).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it('creates a template (client and server validation shown), edits it and deletes it', async () => {
    const { page, context, problems } = await openApp();
    try {
      await nav(page, 'Templates').click();
      await page.getByRole('button', { name: 'New template' }).click();
      const form = page.locator('form.template-form');
      // Empty title and key: the form says what is wrong and sends nothing.
      await form.getByRole('button', { name: 'Create template' }).click();
      await form.getByRole('alert').first().waitFor();
      expect(await form.getByText('Required', { exact: true }).count()).toBeGreaterThan(0);
      await shot(page, 'templates-form-errors');
      expect(
        await page.evaluate(
          () =>
            (window as unknown as { __bridgeCalls: { channel: string }[] }).__bridgeCalls.filter(
              (c) => c.channel === 'templates:create',
            ).length,
        ),
      ).toBe(0);

      await form.getByLabel('Title').fill('UI made template');
      await form.getByLabel('Category').selectOption('text-to-video');
      await form.getByLabel('Prompt template').fill('A shot of {{subject}}');
      const variable = form.getByRole('group', { name: 'Variable 1' });
      await variable.getByLabel('Key').fill('subject');
      await variable.getByLabel('Label').fill('Subject');
      await variable.getByLabel('Max length').fill('80');
      // A rule only the server checks: a text default longer than max_length.
      await variable.getByLabel('Default value').fill('x'.repeat(5));
      await variable.getByLabel('Max length').fill('3');
      await variable.getByLabel('Min length').fill('');
      await form.getByRole('button', { name: 'Create template' }).click();
      const serverError = form.getByRole('alert').filter({ hasText: 'The template was not saved' });
      await serverError.waitFor();
      expect(await serverError.innerText()).toMatch(/max_length/);

      await variable.getByLabel('Max length').fill('80');
      await form.getByRole('button', { name: 'Create template' }).click();
      const detail = page.getByTestId('template-detail');
      await detail.getByRole('heading', { name: 'UI made template' }).waitFor();
      const created = (
        (await (await t.request('/api/templates?limit=100')).json()) as { data: { id: string; title: string }[] }
      ).data.find((x) => x.title === 'UI made template');
      expect(created).toBeTruthy();

      await detail.getByRole('button', { name: 'Edit' }).click();
      await form.getByLabel('Title').fill('UI made template v2');
      await form.getByRole('button', { name: 'Save changes' }).click();
      await detail.getByRole('heading', { name: 'UI made template v2' }).waitFor();
      const after = (await (await t.request(`/api/templates/${created!.id}`)).json()) as { title: string };
      expect(after.title).toBe('UI made template v2');

      await detail.getByRole('button', { name: 'Delete template UI made template v2' }).click();
      await detail.getByRole('button', { name: /^Confirm/ }).click();
      await page.getByTestId('template-list').getByText('UI made template v2').waitFor({ state: 'detached' });
      expect((await t.request(`/api/templates/${created!.id}`)).status).toBe(404);
      expect(problems.filter((p) => !p.includes('status of 4'))).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it('uploads a chosen file with progress and shows its storage key', async () => {
    const { page, context } = await openApp();
    try {
      await nav(page, 'Uploads').click();
      await page.getByLabel('File type').selectOption('image');
      pickNext('frame.png', media.png(300 * 1024));
      await page.getByRole('button', { name: 'Choose file…' }).click();
      // Once stored it is one of the organization's files, listed with its storage key.
      const card = page.getByTestId('stored-upload').filter({ hasText: 'frame.png' });
      await card.getByTestId('stored-key').waitFor();
      const key = await card.getByTestId('stored-key').innerText();
      expect(key).toMatch(/^uploads\/.+\.png$/);
      expect(await page.getByTestId('upload-row').count()).toBe(0);
      await shot(page, 'uploads');
    } finally {
      await context.close();
    }
  });

  it('searches characters (2+ characters) and creates one that then appears in the list', async () => {
    const { page, context, problems } = await openApp();
    try {
      await nav(page, 'Characters').click();
      const list = page.getByTestId('character-list');
      await list.getByTestId('character-card').first().waitFor();
      const search = page.getByLabel('Search characters');
      await search.fill('a');
      await page.getByText('Type at least 2 characters to search.').waitFor();
      await search.fill('zzz-nobody');
      await page.getByTestId('characters-empty').waitFor();
      await search.fill('');
      await list.getByTestId('character-card').first().waitFor();

      await page.getByRole('button', { name: 'New character' }).click();
      const form = page.getByRole('form', { name: 'New character' });
      await form.getByRole('button', { name: 'Create character' }).click();
      await form.getByText('Add at least one reference image').waitFor();
      await form.getByLabel('Name').fill('Robin Tester');
      await form.getByLabel('Description').fill('Made by the renderer test');
      pickNext('robin.png', media.png(2048));
      await form.getByRole('button', { name: '+ Add image…' }).click();
      await form.getByText('robin.png').waitFor();
      await shot(page, 'characters-form');
      await form.getByRole('button', { name: 'Create character' }).click();
      await list.getByText('Robin Tester').waitFor();
      // The form closes; a confirmation takes its place, with a way to open the new character.
      const confirmation = page.getByTestId('character-created');
      expect(await confirmation.getByRole('status').innerText()).toMatch(
        /^Created “Robin Tester”: it is in the library/,
      );
      // The focus went with the closed form's place to the confirmation, not to the page's body.
      expect(await confirmation.evaluate((el) => el.contains(document.activeElement))).toBe(true);
      await confirmation.getByRole('button', { name: 'Open it' }).click();
      await page.getByTestId('character-detail').getByRole('heading', { name: 'Robin Tester' }).waitFor();

      await search.fill('robin');
      await expect.poll(() => list.getByTestId('character-card').count()).toBe(1);
      const fromServer = (await (await t.request('/api/characters?q=robin')).json()) as {
        data: { name: string; visibility: string }[];
      };
      expect(fromServer.data).toMatchObject([{ name: 'Robin Tester', visibility: 'private' }]);
      await search.fill('');
      await list.getByText('Robin Tester').waitFor();
      await shot(page, 'characters');
      expect(problems).toEqual([]);
    } finally {
      await context.close();
    }
  });
});
