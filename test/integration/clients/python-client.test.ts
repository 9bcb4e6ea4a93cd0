// The Python client (clients/python) against a real server, real fixture sites and Debian's Chromium: its pytest
// suite runs in the venv the bootstrap's test mode makes (.python/venv), with the server's URL, a key and the sites'
// facts in AGENT_STUDIO_PYTEST_FACTS. The run must pass and pass every test it has: a pytest suite that skipped
// itself (no facts, no browser) or lost tests would otherwise look green.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { venvPaths } from '../../../scripts/bootstrap.mjs';
import { resolveBrowserExecutable } from '../../../src/main/core/login/browser/browser-resolver.js';
import { MFA_CODE, startSite, type FixtureSite } from '../../fixtures/sites/index.js';
import { TEST_BROWSER_ARGS } from '../../helpers/browser.js';
import { REPO_ROOT } from '../../helpers/repo-root.js';
import { requireSystemPart, titleWithSkip } from '../../helpers/requires.js';
import { startTestServer, tempDir, type TestServer } from '../../helpers/test-server.js';

/** The tests clients/python/tests holds: a changed count is a test added or lost, and is said here on purpose. */
const PYTEST_TESTS = 25;

const venv = venvPaths(REPO_ROOT, process.platform);
// The stamp is written once the venv has everything installed: a half-made venv counts as none.
const runs = requireSystemPart(
  'the Python client test venv (.python/venv)',
  fs.existsSync(venv.python) && fs.existsSync(venv.stamp),
  '`npm run bootstrap` makes it with python3 and pip',
);

let server: TestServer;
let classic: FixtureSite;
let mfa: FixtureSite;
let sessionStorageSite: FixtureSite;

const siteFacts = (site: FixtureSite) => ({
  origin: site.origin,
  login_url: site.loginUrl,
  protected_url: site.protectedUrl,
  logged_in_text: site.loggedInText,
  username: site.credentials.username,
  password: site.credentials.password,
});

/** Runs `python -m pytest` to its end (asynchronously: the server it talks to runs in this process). */
function runPytest(env: NodeJS.ProcessEnv, junitXml: string): Promise<{ code: number | null; output: string }> {
  const args = ['-m', 'pytest', 'clients/python/tests', '-q', '-p', 'no:cacheprovider', `--junitxml=${junitXml}`];
  const child = spawn(venv.python, args, { cwd: REPO_ROOT, env: { ...process.env, ...env } });
  let output = '';
  child.stdout.on('data', (d: Buffer) => (output += d.toString()));
  child.stderr.on('data', (d: Buffer) => (output += d.toString()));
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, output }));
  });
}

/** The counts of pytest's JUnit report (its <testsuite> element). */
function junitCounts(xml: string): Record<'tests' | 'failures' | 'errors' | 'skipped', number> {
  const suite = /<testsuite\b[^>]*>/.exec(xml)?.[0] ?? '';
  const count = (name: string) => Number(new RegExp(`\\b${name}="(\\d+)"`).exec(suite)?.[1] ?? NaN);
  return { tests: count('tests'), failures: count('failures'), errors: count('errors'), skipped: count('skipped') };
}

describe.skipIf(!runs)(titleWithSkip('Python client (pytest against a real server)', runs, 'no .python/venv'), () => {
  beforeAll(async () => {
    server = await startTestServer({ login: { timeoutMs: 30_000 } });
    [classic, mfa, sessionStorageSite] = await Promise.all([
      startSite('classic-csrf'),
      startSite('mfa'),
      startSite('session-storage'),
    ]);
  });
  afterAll(async () => {
    await Promise.all([classic?.close(), mfa?.close(), sessionStorageSite?.close()]);
    await server?.close();
  });

  it('passes every test of clients/python/tests', { timeout: 600_000 }, async () => {
    // A saved login of the classic site, for the tests that log in by label or id without holding its password.
    const res = await server.request('/api/credentials', {
      method: 'POST',
      json: {
        label: 'Classic shop (python)',
        loginUrl: classic.loginUrl,
        username: classic.credentials.username,
        password: classic.credentials.password,
      },
    });
    const saved = (await res.json()) as { id: string; label: string };
    expect(res.status, JSON.stringify(saved)).toBe(201);

    const facts = {
      base_url: server.url,
      api_key: server.key,
      browser: { executable_path: resolveBrowserExecutable({}).path, args: TEST_BROWSER_ARGS },
      saved_login: { id: saved.id, label: saved.label },
      sites: {
        classic: siteFacts(classic),
        mfa: { ...siteFacts(mfa), code: MFA_CODE },
        session_storage: siteFacts(sessionStorageSite),
      },
    };
    const junitXml = path.join(tempDir(), 'pytest-junit.xml');
    const { code, output } = await runPytest(
      { AGENT_STUDIO_PYTEST_FACTS: JSON.stringify(facts), PYTHONDONTWRITEBYTECODE: '1' },
      junitXml,
    );
    expect(code, output).toBe(0);
    const counts = junitCounts(fs.readFileSync(junitXml, 'utf8'));
    expect(counts, output).toEqual({ tests: PYTEST_TESTS, failures: 0, errors: 0, skipped: 0 });
  });
});
