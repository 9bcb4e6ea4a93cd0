// What the desktop window hands to an agent really works: the Playwright snippet (run with Node) and the
// curl command (run with bash) fetch the session from a real server and open the site logged in, with
// the API key and the password read from the environment, never written into them. And "Retry" makes
// the generate request a generation was made from.
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolveBrowserExecutable } from '../../../src/main/core/login/browser/browser-resolver.js';
import { StorageStateSchema } from '../../../src/shared/login.schema.js';
import { requestFromGeneration } from '../../../src/renderer/lib/regenerate.js';
import { curlSnippet, playwrightSnippet, storageStateFileName } from '../../../src/renderer/lib/snippets.js';
import { startSite, type FixtureSite } from '../../fixtures/sites/index.js';
import { TEST_BROWSER_ARGS } from '../../helpers/browser.js';
import { media } from '../../helpers/media-fixtures.js';
import { startTestServer, type TestServer } from '../../helpers/test-server.js';
import { call, upload } from '../../helpers/video-api.js';

const run = promisify(execFile);
let t: TestServer;
let site: FixtureSite;
// Inside the project (node_modules resolves from here); .tmp/ is ignored by git.
const work = path.resolve('.tmp', `agent-snippets-${process.pid}`);

beforeAll(async () => {
  [t, site] = await Promise.all([
    startTestServer({ login: { timeoutMs: 30_000 } }, { credits: 100 }),
    startSite('classic-csrf'),
  ]);
  fs.mkdirSync(work, { recursive: true });
});
afterAll(async () => {
  await site?.close();
  await t?.close();
  fs.rmSync(work, { recursive: true, force: true });
});

const request = () => ({ domain: site.loginUrl, username: site.credentials.username, loginMethod: 'password' });
const env = () => ({ PATH: process.env.PATH, KEY: t.key, PASSWORD: site.credentials.password });

describe('snippets for agents', () => {
  it('the Playwright snippet logs in through the app and opens the site logged in', async () => {
    const snippet = playwrightSnippet(t.url, request());
    expect(snippet).not.toContain(site.credentials.password);
    expect(snippet).not.toContain(t.key);
    // As an agent would run it, with this machine's Chromium and the protected page printed at the end.
    const script = snippet
      .replace(`from 'playwright'`, `from 'playwright-core'`)
      .replace(
        'chromium.launch()',
        `chromium.launch({ executablePath: ${JSON.stringify(resolveBrowserExecutable({}).path)}, args: ${JSON.stringify(TEST_BROWSER_ARGS)} })`,
      )
      .concat(
        `\nawait page.goto(${JSON.stringify(site.protectedUrl)});`,
        `\nconsole.log(await page.textContent('body'));`,
        '\nawait browser.close();\n',
      );
    const file = path.join(work, 'agent.mjs');
    fs.writeFileSync(file, script);
    const { stdout } = await run(process.execPath, [file], { env: env(), timeout: 60_000 });
    expect(stdout).toContain(site.loggedInText);
  }, 90_000);

  it('the curl command writes the storageState (the cached session) to state.json', async () => {
    const snippet = curlSnippet(t.url, request());
    expect(snippet).toContain('$KEY');
    expect(snippet).not.toContain(site.credentials.password);
    await run('bash', ['-c', snippet], { cwd: work, env: env(), timeout: 60_000 });
    const state = StorageStateSchema.parse(JSON.parse(fs.readFileSync(path.join(work, 'state.json'), 'utf8')));
    expect(state.cookies.length).toBeGreaterThan(0);
    // A quote in the username stays inside the shell word.
    expect(curlSnippet(t.url, { ...request(), username: "o'brien" })).toContain(`"username":"o'\\''brien"`);
    expect(storageStateFileName(site.loginUrl)).toBe('state-127.0.0.1.json');
  }, 90_000);
});

describe('retry and regenerate', () => {
  it('rebuilds the request from the generation’s inputs: typed text and uploads, not defaults', async () => {
    const photo = await upload(t, media.png(), 'image/png');
    const res = await call(t, '/api/templates/image-to-video-animate/generate', {
      method: 'POST',
      json: { variables: { photo } },
    });
    expect(res.status).toBe(200);
    const id = res.body.generations[0].generation_id as string;
    const g = (await call(t, `/api/generations/${id}`)).body;
    const again = requestFromGeneration(g);
    // motion came from the template's default: left out, so the template supplies it again.
    expect(again).toEqual({ variables: { photo }, num_videos: 1 });
    const remade = await call(t, '/api/templates/image-to-video-animate/generate', { method: 'POST', json: again });
    expect(remade.status).toBe(200);
    const second = (await call(t, `/api/generations/${remade.body.generations[0].generation_id}`)).body;
    expect(second.inputs).toEqual(g.inputs);
    expect(second.prompt).toBe(g.prompt);
  });
});
