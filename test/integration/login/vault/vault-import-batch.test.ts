// Imports that do not stop the world (issue 37 item 6), on the real server with both secret backends: 3,000 rows in
// one import, every secret opens; a file over the row limit, or a body over the size limit, is 413 in the login
// service's shape; an import whose commit fails saves nothing; and all or nothing when the server is killed (kill -9)
// in the middle of an import: after a restart either every row of it exists or none, every saved login opens the
// secrets it should, and no secret of the import is left without its row. (Its speed: `npm run bench -- vault-import`.)
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseConfig } from '../../../../src/main/core/config/load-config.js';
import { createCore, type Core } from '../../../../src/main/core/create-core.js';
import { decodeSecrets, parseSecrets } from '../../../../src/main/core/login/vault/saved-login-payload.js';
import { VAULT_FILE } from '../../../../src/main/core/secrets/envelope-store.js';
import { withFileLock } from '../../../../src/main/core/secrets/file-lock.js';
import { getMany } from '../../../../src/main/core/secrets/secret-store.js';
import { MAX_IMPORT_ENTRIES, SavedLoginCreateSchema } from '../../../../src/shared/credentials.schema.js';
import { chromeCsv, exportRows, withNewPasswords, type ExportRow } from '../../../helpers/chrome-export.js';
import { firstRunKey, spawnServer, type ServerProcess } from '../../../helpers/spawn.js';
import { startTestServer, tempDir, type TestServer } from '../../../helpers/test-server.js';

type Backend = 'keychain' | 'file';
const BACKENDS: Backend[] = ['keychain', 'file'];
/**
 * Rows of the big import. gnome-keyring rewrites its whole keyring file for every item it stores, so storing an item
 * costs more the more items it holds (about 50 ms an item in an empty keyring, 200 ms past 150 items, on the 2-core
 * machine under load): thousands of them take many minutes whatever the app does. The keychain runs the same path
 * with fewer rows; `npm run bench -- vault-import` gives the figures.
 */
const BIG: Record<Backend, number> = { file: 3000, keychain: 200 };
const JOURNAL = 'vault_imports_under_way';

interface ImportAnswer {
  dryRun: boolean;
  created: number;
  merged: number;
  skipped: number;
  items: Array<{ at: string; label: string; action: string; id?: string }>;
}

async function postImport(url: string, key: string, rows: readonly ExportRow[] | string, dryRun = false) {
  const content = typeof rows === 'string' ? rows : chromeCsv(rows);
  const res = await fetch(`${url}/api/credentials/import`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify({ format: 'chrome', content, dryRun }),
  });
  const text = await res.text();
  return { status: res.status, text, json: () => JSON.parse(text) as ImportAnswer & Record<string, unknown> };
}

async function until(what: string, check: () => boolean, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting until ${what}`);
    await new Promise((r) => setTimeout(r, 1));
  }
}

const journal = (db: Database.Database) =>
  (db.prepare('SELECT value FROM settings WHERE key = ?').get(JOURNAL) as { value: string } | undefined)?.value ?? '[]';

/**
 * Every saved login of the organization opens to the password `expected` gives for its label (read as the vault reads
 * it), none still holds an import's pending secrets, and the secret store holds no saved login's secrets without its
 * row.
 */
async function expectSecrets(core: Core, orgId: string, expected: ReadonlyMap<string, string>): Promise<void> {
  const rows = core.login.vault.savedLogins.list(orgId);
  const raws = await getMany(
    core.secrets,
    rows.map((r) => `saved-login:${r.id}`),
  );
  const opened = new Map<string, string | undefined>();
  for (const r of rows) {
    const raw = raws.get(`saved-login:${r.id}`);
    expect(raw, r.label).toBeTruthy();
    expect(parseSecrets(raw!).next, r.label).toBeUndefined();
    opened.set(r.label, decodeSecrets<{ password?: string }>(raw!, r.updated_at).password);
  }
  expect(opened).toEqual(new Map(expected));
  const ids = (core.db.prepare('SELECT id FROM saved_logins').all() as { id: string }[]).map((r) => r.id);
  expect((await core.secrets.listAccounts('saved-login:')).sort()).toEqual(ids.map((id) => `saved-login:${id}`).sort());
  expect(journal(core.db)).toBe('[]');
}

describe.each(BACKENDS)('a big import with the %s secret store', (backend) => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer({ secrets: { backend }, log: { level: 'warn' } });
  });
  afterAll(async () => {
    await t?.close();
  });

  it(`${BIG[backend]} rows: one import saves them, merges into the saved logins they match, every secret opens`, async () => {
    const { orgId, key } = t.newOrg('big');
    const seeds = exportRows(0, 20);
    expect((await postImport(t.url, key, seeds)).status).toBe(200);
    const merged = withNewPasswords(seeds);
    const rows = [...merged, ...exportRows(20, BIG[backend] - 20)];
    const res = await postImport(t.url, key, rows);
    expect(res.status, res.text.slice(0, 300)).toBe(200);
    const answer = res.json();
    expect(answer).toMatchObject({ dryRun: false, created: BIG[backend] - 20, merged: 20, skipped: 0 });
    const list = t.core.login.vault.savedLogins.list(orgId);
    expect(list).toHaveLength(BIG[backend]);
    expect(new Set(answer.items.map((i) => i.id))).toEqual(new Set(list.map((s) => s.id)));
    await expectSecrets(t.core, orgId, new Map(rows.map((r) => [r.name, r.password])));
    // The vault's own reading (a login by reference) agrees, for the merged saved logins and some made now.
    for (const r of [...merged, ...rows.slice(-10)]) {
      const saved = t.core.login.vault.savedLogins.get(orgId, r.name);
      expect((await t.core.login.vault.savedLogins.readSecrets(saved)).password).toBe(r.password);
    }
  }, 180_000);
});

describe('the limits', () => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer({ secrets: { backend: 'file' }, log: { level: 'warn' } });
  });
  afterAll(async () => {
    await t?.close();
  });

  it(`more than ${MAX_IMPORT_ENTRIES} entries: 413 PAYLOAD_TOO_LARGE, preview or not, nothing saved`, async () => {
    const { orgId, key } = t.newOrg('limit');
    const over = chromeCsv(exportRows(0, MAX_IMPORT_ENTRIES + 1));
    for (const dryRun of [true, false]) {
      const res = await postImport(t.url, key, over, dryRun);
      expect(res.status, res.text.slice(0, 300)).toBe(413);
      expect(res.json()).toEqual({
        error: 'PAYLOAD_TOO_LARGE',
        message: expect.stringContaining(`at most ${MAX_IMPORT_ENTRIES}`),
        details: { field: 'content', entries: MAX_IMPORT_ENTRIES + 1, limit: MAX_IMPORT_ENTRIES },
      });
    }
    expect(t.core.login.vault.savedLogins.list(orgId)).toEqual([]);
    // exactly the limit is previewed as any file
    const at = await postImport(t.url, key, exportRows(0, MAX_IMPORT_ENTRIES), true);
    expect(at.status, at.text.slice(0, 300)).toBe(200);
    expect(at.json()).toMatchObject({ dryRun: true, created: MAX_IMPORT_ENTRIES });
  });

  it('a 10 MB file: 413 PAYLOAD_TOO_LARGE (the body limit), in the login-service shape', async () => {
    const { key } = t.newOrg('big-body');
    const res = await postImport(t.url, key, `name,url,username,password,note\n${'x'.repeat(10_000_000)}\n`);
    expect(res.status).toBe(413);
    expect(res.json()).toMatchObject({ error: 'PAYLOAD_TOO_LARGE', message: expect.any(String) });
  });
});

describe('an import whose commit fails', () => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer({ secrets: { backend: 'keychain' }, log: { level: 'warn' } });
  });
  afterAll(async () => {
    await t?.close();
  });

  // The label is taken between the import's plan and its commit. The vault file's lock, held here, keeps both writes
  // waiting: the saved login made by hand asks for it first (in this process, before the import's request arrives),
  // so once the lock is free its row is in before the import commits.
  it('saves nothing: a label taken while its secrets are written is 409, and none of its secrets stay', async () => {
    const { orgId, key } = t.newOrg('conflict');
    const seeds = exportRows(0, 10);
    expect((await postImport(t.url, key, seeds)).status).toBe(200);
    const rows = [...withNewPasswords(seeds), ...exportRows(10, 140)];
    const taken = rows.at(-1)!;
    let release = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    let locked = () => {};
    const lockTaken = new Promise<void>((resolve) => (locked = resolve));
    const holding = withFileLock(path.join(t.core.config.dataDir, `${VAULT_FILE}.lock`), () => (locked(), held));
    await lockTaken;
    const made = t.core.login.vault.savedLogins.create(
      orgId,
      SavedLoginCreateSchema.parse({
        label: taken.name,
        loginUrl: taken.url,
        username: 'someone-else',
        password: 'by-hand-1234',
      }),
      'api',
    );
    const importing = postImport(t.url, key, rows);
    await until('the import writes its secrets', () => journal(t.core.db) !== '[]');
    release();
    await holding;
    expect((await made).label).toBe(taken.name);
    const res = await importing;
    expect(res.status, res.text.slice(0, 300)).toBe(409);
    expect(res.json()).toMatchObject({ error: 'CREDENTIAL_EXISTS' });
    await until('the import is settled', () => journal(t.core.db) === '[]');
    const expected = new Map([
      ...seeds.map((r): [string, string] => [r.name, r.password]),
      [taken.name, 'by-hand-1234'],
    ]);
    await expectSecrets(t.core, orgId, expected);
  }, 120_000);
});

describe.each(BACKENDS)('kill -9 in the middle of an import (%s secret store)', (backend) => {
  const ROWS = backend === 'file' ? 1000 : 150;
  const dataDir = tempDir();
  const env = { AGENT_STUDIO_SECRETS_BACKEND: backend, AGENT_STUDIO_LOG_LEVEL: 'warn' };
  const seeds = exportRows(0, 30);
  /** label → the password its saved login must open to */
  const expected = new Map<string, string>();
  let server: ServerProcess | null = null;
  let key = '';
  let round = 0;
  afterAll(() => {
    if (server?.child.exitCode === null) server.child.kill('SIGKILL');
  });

  // The kill has to land between the point named and the import's answer. The test sees that point by polling the
  // database, and on a loaded machine the server may answer first (the full run saw it once). Such a round proves
  // only the outcome of a finished import (checked all the same), so another round starts with new rows, up to
  // MAX_ROUNDS, until a kill has landed before the answer: each round's outcome must hold, and one round must be a
  // real kill in the middle.
  const MAX_ROUNDS = 5;
  it.each(['its secrets are being written', 'its rows are committed'])(
    'killed when %s: after a restart all of it or none, and every saved login opens its secrets',
    async (phase) => {
      let killedBeforeTheAnswer = false;
      for (let attempt = 1; attempt <= MAX_ROUNDS && !killedBeforeTheAnswer; attempt++) {
        server = await spawnServer(['--port', '0', '--data-dir', dataDir], env);
        if (!key) {
          key = firstRunKey(server);
          expect((await postImport(server.url, key, seeds)).status).toBe(200);
          for (const r of seeds) expected.set(r.name, r.password);
        }
        const db = new Database(path.join(dataDir, 'agent-studio.db'), { readonly: true, fileMustExist: true });
        const count = () => (db.prepare('SELECT count(*) AS n FROM saved_logins').get() as { n: number }).n;
        const before = count();
        const merged = withNewPasswords(seeds);
        const fresh = exportRows(1000 + ROWS * round++, ROWS);
        const importing = postImport(server.url, key, [...merged, ...fresh]).catch((err: Error) => err);
        const killNow =
          phase === 'its rows are committed' ? () => count() > before : () => journal(db) !== '[]' || count() > before;
        await until(`the import ${phase}`, killNow);
        server.child.kill('SIGKILL');
        await server.exited;
        server = null;
        const answer = await importing;
        killedBeforeTheAnswer = answer instanceof Error; // the answer never came
        if (!killedBeforeTheAnswer) expect((answer as { status: number }).status).toBe(200);
        db.close();

        // The restart: a core on the data dir settles what the killed import left (its start does; awaited here).
        const core = createCore(parseConfig({ dataDir, secrets: { backend }, log: { level: 'warn' } }));
        try {
          await core.login.vault.importer.recover();
          const orgId = core.orgs.list()[0].id;
          const after = core.login.vault.savedLogins.list(orgId).length;
          const outcome = after === before + ROWS ? 'all' : after === before ? 'none' : `${after - before} of ${ROWS}`;
          expect(['all', 'none']).toContain(outcome);
          if (phase === 'its rows are committed' || !killedBeforeTheAnswer) expect(outcome).toBe('all');
          if (outcome === 'all') for (const r of [...merged, ...fresh]) expected.set(r.name, r.password);
          await expectSecrets(core, orgId, expected);
        } finally {
          await core.dispose();
        }
      }
      expect(killedBeforeTheAnswer, `no kill landed before the answer in ${MAX_ROUNDS} rounds`).toBe(true);
    },
    240_000,
  );
});
