// The typed client (src/client) against a real server: log in to a local site and browse it logged in,
// upload a PNG, generate a video from it, wait with progress, download it; errors as AgentStudioError.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import type { Browser, BrowserContext } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AgentStudioError, createAgentStudioClient, type AgentStudioClient } from '../../../src/client/index.js';
import { newLoggedInContext } from '../../../src/client/playwright.js';
import { startSite, type FixtureSite } from '../../fixtures/sites/index.js';
import { launchTestBrowser } from '../../helpers/browser.js';
import { media } from '../../helpers/media-fixtures.js';
import { startTestServer, tempDir, type TestServer } from '../../helpers/test-server.js';

let s: TestServer;
let browser: Browser;
let site: FixtureSite;
let client: AgentStudioClient;

beforeAll(async () => {
  s = await startTestServer({ jobs: { renderConcurrency: 1 }, login: { timeoutMs: 30_000 } }, { credits: 1000 });
  [browser, site] = await Promise.all([launchTestBrowser(), startSite('classic-csrf')]);
  client = createAgentStudioClient({ baseUrl: s.url, apiKey: s.key });
});
afterAll(async () => {
  await browser?.close();
  await site?.close();
  await s?.close();
});

/** Whether the site's protected page shows its logged-in text in this context. */
async function seesProtectedPage(context: BrowserContext): Promise<boolean> {
  const page = await context.newPage();
  await page.goto(site.protectedUrl);
  return page
    .getByText(site.loggedInText)
    .first()
    .waitFor({ timeout: 5000 })
    .then(
      () => true,
      () => false,
    );
}

/** What a player would see in the downloaded file. */
function probe(bytes: Buffer) {
  const file = path.join(tempDir(), 'video.mp4');
  fs.writeFileSync(file, bytes);
  const out = execFileSync('ffprobe', ['-v', 'error', '-show_streams', '-show_format', '-of', 'json', file], {
    encoding: 'utf8',
  });
  const json = JSON.parse(out) as {
    streams: { codec_type: string; codec_name: string }[];
    format: { duration: string };
  };
  return { video: json.streams.find((st) => st.codec_type === 'video'), duration: Number(json.format.duration) };
}

/** The AgentStudioError a call rejects with. */
async function failure(call: Promise<unknown>): Promise<AgentStudioError> {
  const err = await call.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(AgentStudioError);
  return err as AgentStudioError;
}

describe('typed client: login service', () => {
  it('newLoggedInContext logs in and the new context opens the protected page', async () => {
    // Without the session the site shows no logged-in page (it answers server-side: no need to wait).
    const anonymous = await browser.newContext();
    const page = await anonymous.newPage();
    await page.goto(site.protectedUrl);
    expect(await page.getByText(site.loggedInText).count()).toBe(0);
    await anonymous.close();

    const { username, password } = site.credentials;
    const context = await newLoggedInContext(browser, {
      client,
      domain: site.loginUrl,
      username,
      password,
      useCache: false,
      contextOptions: { viewport: { width: 800, height: 600 } },
    });
    try {
      expect(await seesProtectedPage(context)).toBe(true);
    } finally {
      await context.close();
    }
    expect(site.stats().successfulLogins).toBe(1);
  });

  it('login returns the storageState; sessions.list and sessions.delete manage the cache', async () => {
    const { username, password } = site.credentials;
    const state = await client.login({ cred: { username, password }, domain: site.loginUrl });
    expect(site.stats().successfulLogins).toBe(1); // served from the cache of the previous test
    expect(state.cookies.length).toBeGreaterThan(0);
    const context = await browser.newContext({ storageState: state });
    try {
      expect(await seesProtectedPage(context)).toBe(true);
    } finally {
      await context.close();
    }

    // The same through apiKey + baseUrl, as a script without a client object would call it.
    const viaKey = await newLoggedInContext(browser, {
      apiKey: s.key,
      baseUrl: s.url,
      domain: site.loginUrl,
      username,
      password,
    });
    await viaKey.close();

    // By a saved login: the code holds its label, never the password; the session it finds is the same one.
    const saved = await s.core.login.vault.savedLogins.create(
      s.orgId,
      { label: 'Client site', loginUrl: site.loginUrl, loginMethod: 'password', username, password, shareWith: 'all' },
      'api',
    );
    const byLabel = await newLoggedInContext(browser, { client, credential: 'Client site' });
    try {
      expect(await seesProtectedPage(byLabel)).toBe(true);
    } finally {
      await byLabel.close();
    }
    expect((await client.credentials.get(saved.id)).last_used_at).toEqual(expect.any(Number));
    expect((await client.credentials.uses('Client site')).data[0]).toMatchObject({
      endpoint: 'login',
      outcome: 'success',
    });
    expect((await client.credentials.list()).data.map((c) => c.label)).toEqual(['Client site']);

    const { data } = await client.sessions.list();
    expect(data).toHaveLength(1);
    expect(data[0]).toMatchObject({ origin: site.origin, username, fresh: true });
    await client.sessions.delete(data[0].id);
    expect((await client.sessions.list()).data).toEqual([]);
    const gone = await failure(client.sessions.delete(data[0].id));
    expect(gone).toMatchObject({ status: 404, code: 'NOT_FOUND' });
  });

  it('a wrong password is a 401 AUTHENTICATION_FAILED with details.reason, in the login-service shape', async () => {
    const err = await failure(
      client.login({ cred: { username: site.credentials.username, password: 'wrong' }, domain: site.loginUrl }),
    );
    expect(err).toMatchObject({
      status: 401,
      code: 'AUTHENTICATION_FAILED',
      details: { reason: 'invalid_credentials' },
    });
    expect(err.message).not.toContain('wrong');
  });
});

describe('typed client: video service', () => {
  it('uploads a PNG, generates from image-to-video-animate, reports progress and downloads the video', async () => {
    const before = await client.credits();
    const png = media.png();
    const stored = await client.uploads.upload(png, 'image/png', { fileName: 'start.png' });
    expect(stored).toMatchObject({ size: png.length, content_type: 'image/png' });
    expect(stored.s3_key).toMatch(new RegExp(`^uploads/${s.orgId}/`));

    const template = await client.templates.get('image-to-video-animate');
    const idempotencyKey = `client-test-${Date.now()}`;
    const started = await client.generate(
      template.id,
      { variables: { photo: stored.s3_key, motion: 'slow zoom' } },
      { idempotencyKey },
    );
    expect(started).toMatchObject({ template_id: template.id, credits_charged: template.credits_per_video });
    // A retry with the same key is the same answer, charged once.
    expect(
      await client.generate(
        template.id,
        { variables: { photo: stored.s3_key, motion: 'slow zoom' } },
        { idempotencyKey },
      ),
    ).toEqual(started);
    const id = started.generations[0].generation_id;

    const seen: { status: string; progress: number }[] = [];
    const done = await client.generations.waitFor(id, {
      intervalMs: 50,
      timeoutMs: 120_000,
      onProgress: (g) => seen.push({ status: g.status, progress: g.progress }),
    });
    expect(done).toMatchObject({ id, status: 'completed', progress: 100, prompt: 'Animate the image: slow zoom.' });
    expect(seen.at(-1)).toEqual({ status: 'completed', progress: 100 });
    expect(seen.length).toBeGreaterThanOrEqual(2);
    const progress = seen.map((p) => p.progress);
    expect(progress).toEqual([...progress].sort((a, b) => a - b));

    const res = await fetch(done.video_url!);
    expect(res.status).toBe(200);
    const facts = probe(Buffer.from(await res.arrayBuffer()));
    expect(facts.video?.codec_name).toBe('h264');
    expect(Math.abs(facts.duration - 5)).toBeLessThanOrEqual(0.1);

    expect((await client.credits()).balance).toBe(before.balance - started.credits_charged);
    const listed = await client.generations.list({ template_id: template.id, limit: 10 });
    expect(listed.data.map((g) => g.id)).toContain(id);
    expect(await client.webhooks.deliveries(id)).toEqual({ data: [] });
    await client.generations.delete(id);
    expect((await failure(client.generations.get(id))).code).toBe('not_found');
  });

  it('API errors come back as AgentStudioError with the documented status and code', async () => {
    const badKey = `pk_${'x'.repeat(40)}`;
    const stranger = createAgentStudioClient({ baseUrl: s.url, apiKey: badKey });
    const unauthorized = await failure(stranger.templates.list());
    expect(unauthorized).toMatchObject({ status: 401, code: 'unauthorized' });
    expect(unauthorized.message).not.toContain(badKey);
    const loginUnauthorized = await failure(stranger.login({ cred: {}, domain: site.loginUrl }));
    expect(loginUnauthorized).toMatchObject({ status: 401, details: { reason: 'invalid_api_key' } });

    expect(await failure(client.templates.get('no-such-template'))).toMatchObject({ status: 404, code: 'not_found' });
    const invalid = await failure(client.generate('image-to-video-animate', { variables: {} }));
    expect(invalid).toMatchObject({ status: 400, code: 'validation_error' });
    expect(invalid.message).toMatch(/photo/);
    const notAnImage = await failure(client.uploads.upload(media.text(), 'image/png'));
    expect(notAnImage).toMatchObject({ status: 400, code: 'validation_error' });
  });

  it('an answer that does not match the shared schema is an invalid_response error', async () => {
    // The real server's answer, with one field dropped on the way: what an older or newer server would send.
    const drifting = createAgentStudioClient({
      baseUrl: s.url,
      apiKey: s.key,
      fetch: async (input, init) => {
        const res = await fetch(input, init);
        const body = (await res.json()) as Record<string, unknown>;
        delete body.balance;
        return new Response(JSON.stringify(body), { status: res.status, headers: res.headers });
      },
    });
    const err = await failure(drifting.credits());
    expect(err).toMatchObject({ status: 200, code: 'invalid_response' });
    expect(err.message).toMatch(/balance/);
  });

  it('a server that is not running is a network_error with status 0', async () => {
    const closed = http.createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const { port } = closed.address() as AddressInfo;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const offline = createAgentStudioClient({ baseUrl: `http://127.0.0.1:${port}`, apiKey: s.key });
    const err = await failure(offline.pricing());
    expect(err).toMatchObject({ status: 0, code: 'network_error' });
    expect(err.message).not.toContain(s.key);
  });
});

describe('typed client: the rest of the API, against a server whose renderer is paused', () => {
  // renderConcurrency 0: generations stay `generating`, so cancel and the wait time-out are deterministic.
  let paused: TestServer;
  let studio: AgentStudioClient;
  beforeAll(async () => {
    paused = await startTestServer({}, { credits: 1000 });
    studio = createAgentStudioClient({ baseUrl: paused.url, apiKey: paused.key });
  });
  afterAll(() => paused?.close());

  it('templates: create, update, replace, list, delete (answers parsed with the shared schemas)', async () => {
    const created = await studio.templates.create({
      title: 'Client test',
      category: 'text-to-video',
      input_variables: [{ key: 'scene', label: 'Scene', type: 'text', required: true }],
      prompt_template: 'A film of {{scene}}',
    });
    expect(created).toMatchObject({ title: 'Client test', builtin: false, model: 'studio-v1', resolution: '720p' });
    expect((await studio.templates.update(created.id, { title: 'Renamed' })).title).toBe('Renamed');
    const replaced = await studio.templates.replace(created.id, {
      title: 'Replaced',
      category: 'text-to-video',
      input_variables: [],
    });
    expect(replaced).toMatchObject({ title: 'Replaced', input_variables: [], prompt_template: null });
    const page = await studio.templates.list({ category: 'text-to-video', limit: 100 });
    expect(page.data.map((t) => t.id)).toContain(created.id);
    expect(await studio.templates.delete(created.id)).toEqual({ id: created.id, deleted: true });
    expect((await failure(studio.templates.get(created.id))).status).toBe(404);
    expect(Object.keys((await studio.pricing()).models)).toContain('studio-v1-fast');
  });

  it('createGeneration, cancel (refunded) and a waitFor that times out or is aborted', async () => {
    const { s3_key } = await studio.uploads.upload(new Blob([media.png()]), 'image/png');
    const started = await studio.createGeneration({
      prompt: 'A calm lake',
      modelName: 'studio-v1-fast',
      startFrameKey: s3_key,
    });
    const id = started.generations[0].generation_id;
    expect((await studio.generations.get(id)).template_id).toBe('model:studio-v1-fast');

    const seen: string[] = [];
    const timedOut = await failure(
      studio.generations.waitFor(id, { timeoutMs: 300, intervalMs: 50, onProgress: (g) => seen.push(g.status) }),
    );
    expect(timedOut).toMatchObject({ status: 0, code: 'wait_timeout' });
    expect(seen).toEqual(['generating']); // reported once: nothing changed while paused
    const abort = new AbortController();
    const waiting = studio.generations.waitFor(id, { intervalMs: 60_000, signal: abort.signal });
    abort.abort();
    expect(await failure(waiting)).toMatchObject({ code: 'aborted' });

    const before = (await studio.credits()).balance;
    const canceled = await studio.generations.cancel(id);
    expect(canceled).toMatchObject({ status: 'canceled', credits_refunded: started.credits_charged });
    expect((await studio.credits()).balance).toBe(before + started.credits_charged);
    expect(await studio.generations.waitFor(id)).toMatchObject({ status: 'canceled' });
    expect(await failure(studio.generations.cancel(id))).toMatchObject({ status: 409, code: 'conflict' });
    expect(await failure(studio.webhooks.replay(id))).toMatchObject({ status: 409, code: 'conflict' });
  });

  it('characters and the webhook secret', async () => {
    const { s3_key } = await studio.uploads.upload(media.png(), 'image/png');
    const character = await studio.characters.create({ name: 'Client Cat', reference_image_keys: [s3_key] });
    expect(character).toMatchObject({ name: 'Client Cat', visibility: 'private', description: null });
    expect((await studio.characters.list({ q: 'client cat' })).data.map((c) => c.id)).toEqual([character.id]);

    const secret = await studio.webhooks.secret();
    expect(secret.secret).toMatch(/^whsec_/);
    const rotated = await studio.webhooks.rotate();
    expect(rotated.secret).not.toBe(secret.secret);
    expect(rotated.previous_secret_expires_at).toBeGreaterThan(Date.now());
  });
});
