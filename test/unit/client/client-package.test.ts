// The package subpath exports `agent-studio/client` and `agent-studio/client/playwright` load in plain
// Node (no tsx, no bundler): build the client exactly as `npm run build` does, into a scratch copy of the
// package, and import it by its package name.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { REPO_ROOT } from '../../helpers/repo-root.js';

const root = REPO_ROOT;
const pkg = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8')) as {
  name: string;
  exports: Record<string, { types: string; import: string } | string>;
};
// Inside the project so the built files find zod in node_modules, as an installed package would.
let scratch: string;

beforeAll(() => {
  fs.mkdirSync(path.join(root, '.tmp'), { recursive: true });
  scratch = fs.mkdtempSync(path.join(root, '.tmp', 'client-package-'));
  const tsc = spawnSync(
    process.execPath,
    [
      path.join(root, 'node_modules/typescript/bin/tsc'),
      '-p',
      'tsconfig.client.json',
      '--outDir',
      `${scratch}/out/client`,
    ],
    { cwd: root, encoding: 'utf8' },
  );
  expect(tsc.stdout + tsc.stderr).toBe('');
  expect(tsc.status).toBe(0);
  fs.writeFileSync(
    path.join(scratch, 'package.json'),
    JSON.stringify({ name: pkg.name, type: 'module', exports: pkg.exports }),
  );
}, 60_000);
afterAll(() => fs.rmSync(scratch, { recursive: true, force: true }));

it('every client export points at built files that plain Node imports by package name', () => {
  const entries = Object.entries(pkg.exports).filter(([sub]) => sub.startsWith('./client'));
  expect(entries.map(([sub]) => sub).sort()).toEqual(['./client', './client/playwright']);
  for (const [, target] of entries) {
    if (typeof target === 'string') throw new Error('client exports name their types and import files');
    expect(fs.existsSync(path.join(scratch, target.types)), target.types).toBe(true);
    expect(fs.existsSync(path.join(scratch, target.import)), target.import).toBe(true);
  }
  const script = `
    const client = await import('${pkg.name}/client');
    const playwright = await import('${pkg.name}/client/playwright');
    const c = client.createAgentStudioClient({ apiKey: 'pk_test' });
    console.log(JSON.stringify({
      client: Object.keys(client).sort(),
      playwright: Object.keys(playwright),
      baseUrl: c.baseUrl,
      error: new client.AgentStudioError({ status: 404, code: 'not_found', message: 'x' }) instanceof Error,
    }));`;
  const run = spawnSync(process.execPath, ['--input-type=module', '-e', script], { cwd: scratch, encoding: 'utf8' });
  expect(run.stderr).toBe('');
  expect(JSON.parse(run.stdout)).toEqual({
    client: ['API_ROUTES', 'AgentStudioError', 'CLIENT_ERROR_CODES', 'DEFAULT_BASE_URL', 'createAgentStudioClient'],
    playwright: ['applySessionStorage', 'newLoggedInContext'],
    baseUrl: 'http://127.0.0.1:4780',
    error: true,
  });
});
