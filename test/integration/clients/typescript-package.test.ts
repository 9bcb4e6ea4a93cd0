// The TypeScript client as its own npm package (clients/typescript), used as another project uses it: `npm run
// build:client`, `npm pack`, `npm install <tarball>` into an empty project outside this checkout; there plain Node
// logs in by a saved login's label through the installed package (ESM), require()s it (CommonJS), and tsc checks a
// consumer against its declarations (import and require alike). One build, one pack and one install for all checks.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { npmInvocation } from '../../../scripts/bootstrap.mjs';
import { startSite, type FixtureSite } from '../../fixtures/sites/index.js';
import { launchTestBrowser, opensProtectedPage } from '../../helpers/browser.js';
import { REPO_ROOT } from '../../helpers/repo-root.js';
import { startTestServer, tempDir, type TestServer } from '../../helpers/test-server.js';

const PACKAGE_DIR = path.join(REPO_ROOT, 'clients', 'typescript');
const appPackage = JSON.parse(fs.readFileSync(path.join(REPO_ROOT, 'package.json'), 'utf8')) as { version: string };
const LABEL = 'Classic shop';

interface Run {
  status: number | null;
  stdout: string;
  stderr: string;
}

/**
 * Runs a command without blocking this process (the scripts call the server that runs in it), with this Node first
 * on PATH (npm's own `node` included).
 */
function run(file: string, args: string[], opts: { cwd: string; env?: NodeJS.ProcessEnv; shell?: boolean }) {
  const PATH = [path.dirname(process.execPath), process.env.PATH].join(path.delimiter);
  const child = spawn(file, args, { cwd: opts.cwd, shell: opts.shell, env: { ...process.env, PATH, ...opts.env } });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d) => (stdout += d));
  child.stderr.on('data', (d) => (stderr += d));
  return new Promise<Run>((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (status) => resolve({ status, stdout, stderr }));
  });
}

/** npm with `args` in `cwd`; fails the test (with npm's output) unless it exits 0. */
async function npm(args: string[], cwd: string): Promise<string> {
  const { file, args: argv, shell } = npmInvocation(args, process.platform);
  const res = await run(file, argv, { cwd, shell });
  expect(res.status, `npm ${args.join(' ')}\n${res.stdout}\n${res.stderr}`).toBe(0);
  return res.stdout;
}

/** `node <script>` in the scratch project; its stdout's last line, parsed as JSON. */
async function node(script: string, env: NodeJS.ProcessEnv = {}): Promise<Record<string, unknown>> {
  const res = await run(process.execPath, [script], { cwd: scratch, env });
  expect(res.status, `node ${script}\n${res.stdout}\n${res.stderr}`).toBe(0);
  return JSON.parse(res.stdout.trim().split('\n').at(-1)!) as Record<string, unknown>;
}

let s: TestServer;
let site: FixtureSite;
let browser: Browser;
let scratch: string;
let packedFiles: string[];

beforeAll(async () => {
  scratch = tempDir('agent-studio-client-consumer-');
  // The server, the site and the browser start while the package builds.
  const started = Promise.all([
    startTestServer({ login: { timeoutMs: 30_000 } }),
    startSite('classic-csrf'),
    launchTestBrowser(),
  ]).then(([server, fixture, chromium]) => {
    [s, site, browser] = [server, fixture, chromium];
  });
  const built = npm(['run', 'build:client'], REPO_ROOT).then(async () => {
    const [packed] = JSON.parse(
      await npm(['pack', PACKAGE_DIR, '--pack-destination', scratch, '--json'], REPO_ROOT),
    ) as { filename: string; files: { path: string }[] }[];
    packedFiles = packed!.files.map((f) => f.path).sort();
    fs.writeFileSync(
      path.join(scratch, 'package.json'),
      JSON.stringify({ name: 'consumer', private: true, type: 'module' }),
    );
    // The helper's peer, at the version the repo tests with (the tsc check reads its types).
    const playwrightCore = createRequire(import.meta.url)('playwright-core/package.json') as { version: string };
    await npm(
      [
        'install',
        `./${packed!.filename}`,
        `playwright-core@${playwrightCore.version}`,
        '--no-audit',
        '--no-fund',
        '--prefer-offline',
      ],
      scratch,
    );
  });
  // Both settle before a failure is thrown, so afterAll closes whatever started.
  for (const r of await Promise.allSettled([started, built])) if (r.status === 'rejected') throw r.reason;
  const saved = await s.request('/api/credentials', {
    method: 'POST',
    json: {
      label: LABEL,
      loginUrl: site.loginUrl,
      username: site.credentials.username,
      password: site.credentials.password,
    },
  });
  expect(saved.status, await saved.clone().text()).toBe(201);
}, 300_000);

afterAll(async () => {
  await browser?.close();
  await site?.close();
  await s?.close();
  if (scratch) fs.rmSync(scratch, { recursive: true, force: true });
});

describe('the @agent-studio/client package, packed and installed into an empty project', () => {
  it('packs only the built files, at the app version', () => {
    expect(packedFiles.filter((f) => !f.startsWith('dist/'))).toEqual(['README.md', 'package.json']);
    expect(packedFiles).toEqual(
      expect.arrayContaining([
        'dist/esm/index.js',
        'dist/esm/playwright.js',
        'dist/esm/types/client/index.d.ts',
        'dist/cjs/package.json',
        'dist/cjs/index.js',
        'dist/cjs/playwright.js',
        'dist/cjs/types/client/index.d.ts',
      ]),
    );
    const installed = path.join(scratch, 'node_modules', '@agent-studio', 'client', 'package.json');
    expect(JSON.parse(fs.readFileSync(installed, 'utf8'))).toMatchObject({
      name: '@agent-studio/client',
      version: appPackage.version,
    });
  });

  it('logs in by a saved login label from plain Node (ESM), and the state opens the protected page', async () => {
    fs.writeFileSync(
      path.join(scratch, 'login.js'),
      `import { AgentStudioError, createAgentStudioClient } from '@agent-studio/client';
import { newLoggedInContext } from '@agent-studio/client/playwright';

const { BASE_URL, API_KEY, LABEL } = process.env;
const client = createAgentStudioClient({ baseUrl: BASE_URL, apiKey: API_KEY });
const state = await client.login({ credential: LABEL });
// The helper throws the main entry's error class: it is given no browser, as the login fails before it needs one.
const refused = await newLoggedInContext(null, { apiKey: 'pk_not_a_key', baseUrl: BASE_URL, credential: LABEL })
  .catch((err) => err);
const { status, code, details } = refused;
console.log(JSON.stringify({ state, refused: { isAgentStudioError: refused instanceof AgentStudioError, status, code, details } }));
`,
    );
    const out = await node('login.js', { BASE_URL: s.url, API_KEY: s.key, LABEL });
    expect(out.refused).toEqual({
      isAgentStudioError: true,
      status: 401,
      code: 'AUTHENTICATION_FAILED',
      details: expect.objectContaining({ reason: 'invalid_api_key' }),
    });
    expect(await opensProtectedPage(browser, site, out.state)).toBe(true);
  });

  it('loads with require() (CommonJS) and calls the server', async () => {
    fs.writeFileSync(
      path.join(scratch, 'saved-login.cjs'),
      `const { AgentStudioError, createAgentStudioClient } = require('@agent-studio/client');
const { newLoggedInContext } = require('@agent-studio/client/playwright');

const { BASE_URL, API_KEY, LABEL } = process.env;
const client = createAgentStudioClient({ baseUrl: BASE_URL, apiKey: API_KEY });
const main = async () => {
  const saved = await client.credentials.get(LABEL);
  const refused = await newLoggedInContext(null, { apiKey: 'pk_not_a_key', baseUrl: BASE_URL, credential: LABEL })
    .catch((err) => err);
  console.log(JSON.stringify({ label: saved.label, refusedIsAgentStudioError: refused instanceof AgentStudioError }));
};
main();
`,
    );
    const out = await node('saved-login.cjs', { BASE_URL: s.url, API_KEY: s.key, LABEL });
    expect(out).toEqual({ label: LABEL, refusedIsAgentStudioError: true });
  });

  it("type-checks a consumer against the package's declarations, for import and for require", async () => {
    fs.writeFileSync(
      path.join(scratch, 'consumer.ts'),
      `import { AgentStudioError, createAgentStudioClient, type StorageState } from '@agent-studio/client';
import { newLoggedInContext } from '@agent-studio/client/playwright';
import type { Browser, BrowserContext } from 'playwright-core';

export async function loggedIn(browser: Browser): Promise<StorageState> {
  const client = createAgentStudioClient({ apiKey: 'pk_example' });
  const state = await client.login({ credential: 'GitHub' });
  const cookie: { name: string; value: string } | undefined = state.cookies[0];
  // @ts-expect-error a saved login is named by a string
  await client.login({ credential: 42 });
  const context: BrowserContext = await newLoggedInContext(browser, { client, credential: 'GitHub' });
  // @ts-expect-error the helper opens its context in a Playwright browser
  await newLoggedInContext('chromium', { client, credential: 'GitHub' });
  await context.close();
  try {
    await client.credits();
  } catch (err) {
    if (err instanceof AgentStudioError) console.log(err.status.toFixed(), err.code.toLowerCase(), cookie?.name);
  }
  return state;
}
`,
    );
    fs.writeFileSync(
      path.join(scratch, 'consumer.cts'),
      `import { createAgentStudioClient, type AgentStudioClient } from '@agent-studio/client';
import type { LoggedInContextOptions } from '@agent-studio/client/playwright';

export const client: AgentStudioClient = createAgentStudioClient({ apiKey: 'pk_example' });
// @ts-expect-error apiKey is required
createAgentStudioClient({});
export const options: LoggedInContextOptions = { client, credential: 'GitHub' };
// @ts-expect-error a saved login is named by a string
export const wrong: LoggedInContextOptions = { client, credential: 42 };
`,
    );
    // A Node project as `tsc --init` makes one (skipLibCheck, @types/node): the probes above (@ts-expect-error) fail
    // if the package's types did not resolve, which would make them `any`.
    fs.writeFileSync(
      path.join(scratch, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: {
          module: 'nodenext',
          moduleResolution: 'nodenext',
          target: 'es2022',
          strict: true,
          skipLibCheck: true,
          noEmit: true,
          lib: ['es2023'],
          typeRoots: [path.join(REPO_ROOT, 'node_modules', '@types')],
          types: ['node'],
        },
        files: ['consumer.ts', 'consumer.cts'],
      }),
    );
    const tsc = await run(
      process.execPath,
      [path.join(REPO_ROOT, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', 'tsconfig.json', '--listFiles'],
      { cwd: scratch },
    );
    const listed = tsc.stdout.split('\n').filter((l) => l.includes('/node_modules/@agent-studio/client/'));
    const errors = tsc.stdout.split('\n').filter((l) => l.includes('error TS'));
    expect(errors.join('\n') + tsc.stderr).toBe('');
    expect(tsc.status).toBe(0);
    // each consumer took the declarations of its own format
    for (const format of ['esm', 'cjs'])
      expect(
        listed.some((l) => l.endsWith(`/dist/${format}/types/client/index.d.ts`)),
        format,
      ).toBe(true);
  });

  it("keeps the app's own exports agent-studio/client and agent-studio/client/playwright on the same build", async () => {
    const resolve = `console.log(JSON.stringify({
      import: import.meta.resolve('agent-studio/client'),
      playwright: import.meta.resolve('agent-studio/client/playwright'),
      require: (await import('node:module')).createRequire(import.meta.url).resolve('agent-studio/client'),
      exports: Object.keys(await import('agent-studio/client')).sort(),
    }));`;
    const res = await run(process.execPath, ['--input-type=module', '-e', resolve], { cwd: REPO_ROOT });
    expect(res.stderr).toBe('');
    expect(JSON.parse(res.stdout)).toEqual({
      import: pathToFileURL(path.join(PACKAGE_DIR, 'dist/esm/index.js')).href,
      playwright: pathToFileURL(path.join(PACKAGE_DIR, 'dist/esm/playwright.js')).href,
      require: path.join(PACKAGE_DIR, 'dist/cjs/index.js'),
      exports: ['API_ROUTES', 'AgentStudioError', 'CLIENT_ERROR_CODES', 'DEFAULT_BASE_URL', 'createAgentStudioClient'],
    });
  });
});
