// `npm run -s cli -- credentials …` on a running server's data dir: add (the password from the environment,
// never argv), list, import with a preview first, remove — and no secret in any output.
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../../../helpers/repo-root.js';
import { runCli } from '../../../helpers/spawn.js';
import { startTestServer, type TestServer } from '../../../helpers/test-server.js';

const PASSWORD = 'cli-secret-Vq82xx';
const EXPORT = path.join(REPO_ROOT, 'test/fixtures/password-exports/chrome-no-note.csv');

let t: TestServer;
let args: string[];
beforeAll(async () => {
  t = await startTestServer();
  args = ['--data-dir', t.dataDir];
});
afterAll(() => t?.close());

describe('credentials (CLI)', () => {
  it('adds a saved login with the password from the environment, lists it, and removes it', async () => {
    const add = runCli(
      [
        'credentials',
        'add',
        '--label',
        'From CLI',
        '--url',
        'https://app.example.com/login',
        '--username',
        'ada',
        ...args,
      ],
      { CREDENTIAL_PASSWORD: PASSWORD },
    );
    expect(add.status, add.stderr).toBe(0);
    const id = add.stdout.trim().split('\n').at(-1)!;
    expect(id).toMatch(/^cred_/);
    expect(add.stdout).toContain("saved login 'From CLI' of test-org for https://app.example.com (secrets: password)");
    const saved = (await (await t.request(`/api/credentials/${id}`)).json()) as { label: string };
    expect(saved.label).toBe('From CLI');
    expect(await t.core.login.vault.savedLogins.readSecrets(t.core.login.vault.savedLogins.get(t.orgId, id))).toEqual({
      password: PASSWORD,
    });

    const list = runCli(['credentials', 'list', ...args]);
    expect(list.status, list.stderr).toBe(0);
    expect(list.stdout).toContain(
      `${id}  From CLI  https://app.example.com/login  ada  password  [password]  all keys`,
    );

    const missing = runCli(['credentials', 'add', '--label', 'x', ...args], { CREDENTIAL_PASSWORD: PASSWORD });
    expect(missing.status).toBe(2);
    expect(missing.stderr).toContain('--label and --url');

    const remove = runCli(['credentials', 'remove', 'From CLI', ...args]);
    expect(remove.status, remove.stderr).toBe(0);
    expect((await t.request(`/api/credentials/${id}`)).status).toBe(404);
    for (const out of [add, list, missing, remove]) expect(out.stdout + out.stderr).not.toContain(PASSWORD);
  });

  it('import shows the preview and saves nothing until --yes', async () => {
    const preview = runCli(['credentials', 'import', EXPORT, '--format', 'chrome', ...args]);
    expect(preview.status, preview.stderr).toBe(0);
    expect(preview.stdout).toMatch(/preview: 2 to create, 0 to merge, 0 skipped\. Nothing was saved/);
    expect(((await (await t.request('/api/credentials')).json()) as { data: unknown[] }).data).toEqual([]);

    const done = runCli(['credentials', 'import', EXPORT, '--format', 'chrome', '--yes', ...args]);
    expect(done.status, done.stderr).toBe(0);
    expect(done.stdout).toMatch(/imported: 2 created, 0 merged, 0 skipped\./);
    const list = (await (await t.request('/api/credentials')).json()) as { data: { source: string }[] };
    expect(list.data.map((c) => c.source)).toEqual(['import', 'import']);
    for (const out of [preview, done]) expect(out.stdout + out.stderr).not.toMatch(/s3cret-chrome/);

    const bad = runCli(['credentials', 'import', EXPORT, '--format', 'keepassxc', ...args]);
    expect(bad.status).toBe(2);
    expect(bad.stderr).toMatch(/chrome-no-note\.csv: content: not a valid keepassxc export/);
  });
});
