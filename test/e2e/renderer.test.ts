// The React renderer, built by vite exactly as electron-vite builds it, running in real Chromium with
// the CSP of index.html. Its window.agentStudio bridge is answered by the app's own IPC dispatcher, which
// here calls a real headless API server over HTTP (renderer-ipc.test.ts: in process, as the app does).
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testAppInfo } from './support/app-info.js';
import { startSite, type FixtureSite } from '../fixtures/sites/index.js';
import { TEST_BROWSER_ARGS } from '../helpers/browser.js';
import { media } from '../helpers/media-fixtures.js';
import { startTestServer, tempDir, type TestServer } from '../helpers/test-server.js';
import { resolveBrowserExecutable } from '../../src/main/core/login/browser-resolver.js';
import { buildRenderer } from './support/build-renderer.js';
import { createHttpApi } from './support/http-api.js';
import { installIpcBridge } from './support/ipc-bridge.js';
import { startRendererServer, type RendererServer } from './support/renderer-server.js';

let t: TestServer;
let web: RendererServer;
let browser: Browser;
const outDir = tempDir('agent-studio-renderer-');
const filesDir = tempDir('agent-studio-renderer-files-');
/** What the "OS file dialog" answers next. */
let nextPick: string | null = null;

/** Writes a file for the "OS file dialog" to answer with on its next opening. */
function pickNext(name: string, bytes: Buffer): void {
  nextPick = path.join(filesDir, name);
  fs.writeFileSync(nextPick, bytes);
}
const shotsDir = process.env.RENDERER_SCREENSHOTS_DIR ?? tempDir('agent-studio-shots-');

interface OpenApp {
  page: Page;
  context: BrowserContext;
  /** Console errors, page errors and CSP violations seen so far. */
  problems: string[];
}

async function openApp(): Promise<OpenApp> {
  const context = await browser.newContext({ viewport: { width: 1360, height: 860 } });
  const page = await context.newPage();
  const problems: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'error') problems.push(`console: ${m.text()}`);
  });
  page.on('pageerror', (e) => problems.push(`pageerror: ${e.message}`));
  await page.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (e) =>
      console.error(`CSP violation: ${e.violatedDirective} ${e.blockedURI}`),
    );
  });
  await installIpcBridge(page, {
    api: createHttpApi({ url: t.url, key: t.key }),
    core: t.core,
    orgId: t.orgId,
    info: testAppInfo(t),
    chooseFile: () => {
      const file = nextPick;
      nextPick = null;
      return file;
    },
  });
  await page.goto(`${web.url}/index.html`);
  await page.getByRole('navigation', { name: 'Main' }).waitFor();
  return { page, context, problems };
}

/** A real 1-second H.264 MP4 (ffmpeg test pattern), made once. */
let testVideo: string | null = null;
function makeTestVideo(): string {
  if (testVideo) return testVideo;
  const file = path.join(outDir, '..', `${path.basename(outDir)}-test.mp4`);
  execFileSync('ffmpeg', [
    '-v',
    'error',
    '-y',
    '-f',
    'lavfi',
    '-i',
    'testsrc=duration=1:size=320x180:rate=10',
    '-pix_fmt',
    'yuv420p',
    '-c:v',
    'libx264',
    '-movflags',
    '+faststart',
    file,
  ]);
  testVideo = file;
  return file;
}

const nav = (page: Page, name: string) => page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name });
const shot = (page: Page, name: string) =>
  page.screenshot({ path: path.join(shotsDir, `${name}.png`), fullPage: true });

beforeAll(async () => {
  await buildRenderer(outDir);
  t = await startTestServer({ login: { timeoutMs: 30_000 } }, { credits: 5000 });
  web = await startRendererServer({ dir: outDir });
  browser = await chromium.launch({ executablePath: resolveBrowserExecutable({}).path, args: TEST_BROWSER_ARGS });
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await web?.close();
  await t?.close();
  fs.rmSync(outDir, { recursive: true, force: true });
  fs.rmSync(filesDir, { recursive: true, force: true });
  if (testVideo) fs.rmSync(testVideo, { force: true });
});

describe('renderer over the real HTTP API', () => {
  it('starts on Sessions with the empty state and the server status, without CSP violations or errors', async () => {
    const { page, context, problems } = await openApp();
    try {
      await expect(page.getByRole('heading', { level: 1, name: 'Sessions' }).isVisible()).resolves.toBe(true);
      await page.getByTestId('sessions-empty').waitFor();
      expect(await page.getByTestId('sessions-empty').innerText()).toContain('No cached sessions yet');
      expect(await page.getByTestId('server-status').innerText()).toContain(t.url);
      await shot(page, 'sessions-empty');
      expect(problems).toEqual([]);
    } finally {
      await context.close();
    }
  });

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

  it('tests a login against a real site: metadata shown, values masked until revealed, the session cached and deletable', async () => {
    const site: FixtureSite = await startSite('classic-csrf');
    const { page, context } = await openApp();
    try {
      const form = page.getByRole('form', { name: 'Test a login' });
      await form.getByLabel('Login page URL').fill(site.loginUrl);
      await form.getByLabel('Username').fill(site.credentials.username);
      await form.getByLabel('Password').fill(site.credentials.password);
      await form.getByRole('button', { name: 'Run login' }).click();
      const result = page.getByTestId('login-result');
      await result.waitFor({ timeout: 60_000 });
      expect(await result.innerText()).toContain('Fresh browser login');
      const values = result.getByTestId('cookie-value');
      expect(await values.count()).toBeGreaterThan(0);
      for (const v of await values.allInnerTexts()) expect(v).toBe('••••••••');
      await shot(page, 'sessions-login-result');
      await result.getByRole('button', { name: 'Reveal values' }).click();
      expect((await values.allInnerTexts()).some((v) => v !== '••••••••' && v.length > 0)).toBe(true);

      const row = page.getByTestId('session-row');
      await row.first().waitFor();
      expect(await row.count()).toBe(1);
      expect(await row.first().innerText()).toContain(site.credentials.username);
      await shot(page, 'sessions-cached');
      await row
        .first()
        .getByRole('button', { name: /^Delete session/ })
        .click();
      await row
        .first()
        .getByRole('button', { name: /^Confirm/ })
        .click();
      await page.getByTestId('sessions-empty').waitFor();
      const left = (await (await t.request('/api/sessions')).json()) as { data: unknown[] };
      expect(left.data).toEqual([]);
    } finally {
      await context.close();
      await site.close();
    }
  }, 120_000);

  it('shows the service’s error for a failed login', async () => {
    const site: FixtureSite = await startSite('classic-csrf');
    const { page, context } = await openApp();
    try {
      const form = page.getByRole('form', { name: 'Test a login' });
      await form.getByLabel('Login page URL').fill('not a url');
      await form.getByRole('button', { name: 'Run login' }).click();
      await form.getByText('Enter the full login page URL').waitFor();
      await form.getByLabel('Login page URL').fill(site.loginUrl);
      await form.getByLabel('Username').fill(site.credentials.username);
      await form.getByLabel('Password').fill('definitely wrong');
      await form.getByLabel('Use a cached session if there is one').uncheck();
      await form.getByRole('button', { name: 'Run login' }).click();
      const alert = page.getByRole('alert').filter({ hasText: 'Login failed' });
      await alert.waitFor({ timeout: 60_000 });
      expect(await alert.innerText()).toContain('AUTHENTICATION_FAILED');
      await shot(page, 'sessions-login-error');
    } finally {
      await context.close();
      await site.close();
    }
  }, 120_000);
});

// Keep the screenshot folder visible in the run log (useful when a test fails).
afterAll(() => {
  if (!process.env.RENDERER_SCREENSHOTS_DIR && fs.existsSync(shotsDir) && fs.readdirSync(shotsDir).length === 0)
    fs.rmSync(shotsDir, { recursive: true, force: true });
  else process.stdout.write(`renderer screenshots: ${shotsDir}\n`);
});
