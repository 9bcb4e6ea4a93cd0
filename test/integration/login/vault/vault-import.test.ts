// POST /api/credentials/import (docs/saved-logins.md#import): every format, with the real-shaped export files of
// test/fixtures/password-exports (test/fixtures/password-exports/README.md). The preview's counts and reasons; a dry run saves nothing; the real
// run saves exactly what the preview listed, and a merge replaces the saved login's password (proved by logging in
// with it); a bad file is 400 naming line and column; no answer and no file of the data dir holds a secret of the
// export (the secrets are only in the secret store: the OS keychain, or the encrypted file of the file backend).
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseExport, type ImportFormat } from '../../../../src/main/core/login/vault/import/export-formats.js';
import { startSite, type FixtureSite } from '../../../fixtures/sites/index.js';
import { opensProtectedPage, useSiteBrowser } from '../../../helpers/browser.js';
import { startTestServer, type TestServer } from '../../../helpers/test-server.js';
import { distinctSecret, filesUnder, findSecrets, settle, type Json } from '../../../helpers/vault-logins.js';
import { fixture, onePux, SECRET_MARKERS } from '../../../unit/login/vault/import/fixtures.js';

let t: TestServer;
let site: FixtureSite;
const { browser } = useSiteBrowser();
let orgs = 0;

beforeAll(async () => {
  [t, site] = await Promise.all([startTestServer({ login: { timeoutMs: 30_000 } }), startSite('classic-csrf')]);
});
afterAll(async () => {
  await site?.close();
  await t?.close();
});

interface Item {
  at: string;
  label: string;
  origin: string | null;
  username: string;
  action: 'create' | 'merge' | 'skip';
  reason?: string;
  id?: string;
}
interface ImportResult {
  dryRun: boolean;
  created: number;
  merged: number;
  skipped: number;
  items: Item[];
}

/** An organization of its own for one test, and requests with its key (each answer's text kept). */
function newOrg(server = t) {
  const { key } = server.newOrg(`import-${++orgs}`);
  const texts: string[] = [];
  const request = async (pathname: string, init: { method?: string; json?: unknown } = {}) => {
    const res = await server.request(pathname, { ...init, key });
    const text = await res.text();
    texts.push(`${JSON.stringify([...res.headers])}\n${text}`);
    return { status: res.status, headers: res.headers, text, json: () => JSON.parse(text) as unknown };
  };
  const importFile = async (body: Json, status = 200) => {
    const res = await request('/api/credentials/import', { method: 'POST', json: body });
    expect(res.status, res.text).toBe(status);
    return res.json() as ImportResult & Json;
  };
  const list = async () => ((await request('/api/credentials')).json() as { data: Json[] }).data;
  return { key, texts, request, importFile, list };
}

const savedSecrets = async (server: TestServer, id: string) =>
  JSON.parse((await server.core.secrets.get(`saved-login:${id}`)) ?? '{}') as Json;

/** Every password, authenticator secret and note the export holds (what must stay out of answers and files). */
function secretsOf(format: ImportFormat, content: Uint8Array): Record<string, string> {
  const out: Record<string, string> = {};
  for (const l of parseExport(format, content).logins)
    for (const [k, v] of Object.entries({ password: l.password, totp: l.totpSecret, notes: l.notes }))
      if (v && v.length >= 12) out[`${l.at} ${k}`] = v;
  for (const m of SECRET_MARKERS) if (m.length >= 12) out[m] = m;
  return out;
}

const SOCIAL = { loginUrl: 'https://social.example.com/login', username: 'ann@example.com' };
const EXAMPLE = { loginUrl: 'https://example.com/login', username: 'ann@example.com' };
const dup = (at: string) => `same site and username as ${at}`;
const MERGED = "same site and username as the saved login 'Existing'";

/** Each fixture file: the saved login already there (merged into), and the plan the preview must show. */
const CASES: Array<{
  file: string;
  format: ImportFormat;
  existing?: { loginUrl: string; username: string };
  counts: [created: number, merged: number, skipped: number];
  plan: Array<[at: string, action: Item['action'], reason?: string]>;
}> = [
  {
    file: 'chrome-windows.csv',
    format: 'chrome',
    existing: EXAMPLE,
    counts: [2, 1, 2],
    plan: [
      ['line 2', 'skip', 'the address is an Android app, not a website (http or https)'],
      ['line 3', 'merge', MERGED],
      ['line 4', 'skip', dup('line 3')],
      ['line 5', 'create'],
      ['line 7', 'create'],
    ],
  },
  {
    file: 'chrome-no-note.csv',
    format: 'chrome',
    counts: [2, 0, 0],
    plan: [
      ['line 2', 'create'],
      ['line 3', 'create'],
    ],
  },
  {
    file: 'firefox.csv',
    format: 'firefox',
    existing: EXAMPLE,
    counts: [2, 1, 2],
    plan: [
      ['line 2', 'merge', MERGED],
      ['line 3', 'create'],
      ['line 4', 'skip', 'the address starts with chrome:, not http or https (it is not a website)'],
      ['line 5', 'create'],
      ['line 6', 'skip', dup('line 2')],
    ],
  },
  {
    file: 'safari.csv',
    format: 'safari',
    existing: EXAMPLE,
    counts: [2, 1, 1],
    plan: [
      ['line 2', 'merge', MERGED],
      ['line 3', 'create'],
      ['line 5', 'create'],
      ['line 6', 'skip', dup('line 2')],
    ],
  },
  { file: 'safari-15.csv', format: 'safari', counts: [1, 0, 0], plan: [['line 2', 'create']] },
  {
    file: 'bitwarden.csv',
    format: 'bitwarden',
    existing: SOCIAL,
    counts: [1, 1, 4],
    plan: [
      ['line 2', 'merge', MERGED],
      ['line 4', 'create'],
      ['line 5', 'skip', 'a secure note, not a login'],
      ['line 7', 'skip', 'no website address (URL) in the entry'],
      ['line 8', 'skip', 'the address is an Android app, not a website (http or https)'],
      ['line 9', 'skip', dup('line 2')],
    ],
  },
  {
    file: 'bitwarden.json',
    format: 'bitwarden',
    existing: SOCIAL,
    counts: [1, 1, 5],
    plan: [
      ['item 1', 'merge', MERGED],
      ['item 2', 'skip', 'a secure note, not a login'],
      ['item 3', 'skip', 'a card, not a login'],
      ['item 4', 'create'],
      ['item 5', 'skip', 'an identity, not a login'],
      ['item 6', 'skip', 'no website address (URL) in the entry'],
      ['item 7', 'skip', dup('item 1')],
    ],
  },
  {
    file: '1password.csv',
    format: '1password',
    existing: EXAMPLE,
    counts: [1, 1, 2],
    plan: [
      ['line 2', 'merge', MERGED],
      ['line 4', 'skip', 'no website address (URL) in the entry'],
      ['line 5', 'create'],
      ['line 6', 'skip', dup('line 2')],
    ],
  },
  {
    file: '1password.1pux',
    format: '1password',
    existing: EXAMPLE,
    counts: [2, 1, 4],
    plan: [
      ['item 1', 'merge', MERGED],
      ['item 2', 'skip', 'a credit card, not a login'],
      ['item 3', 'skip', 'a secure note, not a login'],
      ['item 4', 'skip', 'no website address (URL) in the entry'],
      ['item 5', 'create'],
      ['item 6', 'create'],
      ['item 7', 'skip', dup('item 1')],
    ],
  },
  {
    file: 'keepassxc.csv',
    format: 'keepassxc',
    existing: SOCIAL,
    counts: [1, 1, 4],
    plan: [
      ['line 2', 'merge', MERGED],
      ['line 3', 'skip', 'the address starts with ssh:, not http or https (it is not a website)'],
      ['line 4', 'skip', 'no website address (URL) in the entry'],
      ['line 6', 'create'],
      ['line 7', 'skip', 'in the KeePassXC recycle bin'],
      ['line 8', 'skip', dup('line 6')],
    ],
  },
];

describe('every format, with its real-shaped export', () => {
  it.each(CASES)('$file ($format): preview, then exactly the previewed creates and merges', async (c) => {
    const org = newOrg();
    const bytes = c.file.endsWith('.1pux') ? onePux() : fixture(c.file);
    const body = c.file.endsWith('.1pux')
      ? { format: c.format, content: Buffer.from(bytes).toString('base64'), encoding: 'base64' }
      : { format: c.format, content: Buffer.from(bytes).toString('utf8') };
    const oldPassword = distinctSecret('old');
    let existing: Json | undefined;
    if (c.existing) {
      const res = await org.request('/api/credentials', {
        method: 'POST',
        json: { label: 'Existing', ...c.existing, password: oldPassword },
      });
      expect(res.status, res.text).toBe(201);
      existing = res.json() as Json;
    }
    const before = await org.list();

    // the preview (dryRun is the default): counts, actions, reasons; nothing saved
    const preview = await org.importFile(body);
    const [created, merged, skipped] = c.counts;
    expect(preview).toMatchObject({ dryRun: true, created, merged, skipped });
    expect(preview.items.map((i) => [i.at, i.action, ...(i.reason ? [i.reason] : [])])).toEqual(c.plan);
    for (const i of preview.items) {
      expect(i.id).toBe(i.action === 'merge' ? existing?.id : undefined);
      if (i.action !== 'skip') expect(i.origin).toMatch(/^https?:\/\//);
    }
    expect(await org.list()).toEqual(before);
    if (existing) expect((await savedSecrets(t, existing.id as string)).password).toBe(oldPassword);

    // the real run: the same plan, saved
    const real = await org.importFile({ ...body, dryRun: false });
    expect(real).toMatchObject({ dryRun: false, created, merged, skipped });
    expect(real.items.map(({ id: _id, ...rest }) => rest)).toEqual(preview.items.map(({ id: _id, ...rest }) => rest));
    const after = await org.list();
    const creates = real.items.filter((i) => i.action === 'create');
    expect(after.map((s) => s.label).sort()).toEqual(
      [...before.map((s) => s.label), ...creates.map((i) => i.label)].sort(),
    );
    for (const i of creates) {
      const saved = after.find((s) => s.id === i.id);
      expect(saved, i.label).toMatchObject({
        label: i.label,
        username: i.username,
        source: 'import',
        loginMethod: 'password',
      });
      expect(new URL(saved!.loginUrl as string).origin).toBe(i.origin);
    }
    if (existing) {
      const merge = real.items.find((i) => i.action === 'merge')!;
      expect(merge.id).toBe(existing.id);
      const replaced = (await savedSecrets(t, existing.id as string)).password as string;
      expect(replaced).not.toBe(oldPassword);
      expect(replaced).toMatch(/^s3cret-/);
      expect(after.find((s) => s.id === existing.id)).toMatchObject({ label: 'Existing', source: 'api' });
    }

    // no answer carried a secret of the file, and the data dir holds none
    for (const text of org.texts) for (const m of SECRET_MARKERS) expect(text).not.toContain(m);
    await settle(t);
    expect(findSecrets(filesUnder(t.dataDir), secretsOf(c.format, bytes))).toEqual([]);
  });
});

describe('the preview is what the real run does', () => {
  // The preview runs the saved login's own checks too: an entry whose authenticator secret cannot make codes here
  // (a KeePassXC HOTP URI, a Bitwarden steam:// secret) is created without it, in the preview as in the real run.
  it('also for entries whose authenticator secret cannot be used (HOTP, steam://)', async () => {
    const org = newOrg();
    const files: Array<[ImportFormat, string]> = [
      [
        'keepassxc',
        '"Group","Title","Username","Password","URL","Notes","TOTP","Icon","Last Modified","Created"\n' +
          '"Root","Counter","ann","s3cret-hotp-1","https://hotp.example.com/","",' +
          '"otpauth://hotp/Counter:ann?secret=JBSWY3DPEHPK3PXP&counter=0","0","2024-01-01T00:00:00Z","2024-01-01T00:00:00Z"\n',
      ],
      [
        'bitwarden',
        'folder,favorite,type,name,notes,fields,reprompt,login_uri,login_username,login_password,login_totp\n' +
          ',,login,Steam,,,0,https://store.example.com/login,gamer,s3cret-steam-1,steam://JBSWY3DPEHPK3PXP\n',
      ],
    ];
    for (const [format, content] of files) {
      const preview = await org.importFile({ format, content });
      const real = await org.importFile({ format, content, dryRun: false });
      const plan = (r: ImportResult) => r.items.map((i) => `${i.at} ${i.label}: ${i.action} ${i.reason ?? ''}`.trim());
      expect.soft(plan(real), `${format}: the real run differs from the preview it follows`).toEqual(plan(preview));
      expect(real.items[0]).toMatchObject({
        action: 'create',
        reason: expect.stringContaining('without its authenticator secret'),
      });
      const made = await org.request(`/api/credentials/${real.items[0].id!}`);
      expect(((await made.json()) as { secrets: string[] }).secrets).toEqual(['password']);
    }
  });
});

describe('a merge replaces the password', () => {
  it('a saved login imported with a wrong password logs in once the right one is imported over it', async () => {
    const org = newOrg();
    const wrong = distinctSecret('wrong');
    const csv = (password: string) =>
      `name,url,username,password\nClassic blog,${site.loginUrl},${site.credentials.username},"${password}"\n`;
    const login = (credential: string) =>
      org.request('/api/login', { method: 'POST', json: { credential, useCache: false } });

    const first = await org.importFile({ format: 'chrome', content: csv(wrong), dryRun: false });
    expect(first).toMatchObject({ created: 1, merged: 0, skipped: 0 });
    const id = first.items[0].id!;
    expect((await login(id)).status).toBe(401);

    const preview = await org.importFile({ format: 'chrome', content: csv(site.credentials.password) });
    expect(preview).toMatchObject({ created: 0, merged: 1, skipped: 0 });
    expect(preview.items[0]).toMatchObject({
      action: 'merge',
      id,
      label: 'Classic blog',
      reason: "same site and username as the saved login 'Classic blog'",
    });
    expect((await login(id)).status).toBe(401); // the preview changed nothing

    const real = await org.importFile({ format: 'chrome', content: csv(site.credentials.password), dryRun: false });
    expect(real).toMatchObject({ created: 0, merged: 1, skipped: 0 });
    const res = await login('Classic blog');
    expect(res.status, res.text).toBe(200);
    expect(await opensProtectedPage(browser(), site, res.json())).toBe(true);
    const uses = ((await org.request(`/api/credentials/${id}/uses`)).json() as { data: Json[] }).data;
    expect(uses.map((u) => u.outcome)).toEqual(['success', 'AUTHENTICATION_FAILED', 'AUTHENTICATION_FAILED']);
    expect((await org.list()).map((s) => s.label)).toEqual(['Classic blog']);
    for (const text of org.texts) expect(text).not.toContain(wrong);
  });
});

describe('a file that is not an export of its format', () => {
  it('is 400 INVALID_REQUEST naming the line and column, without a value from the file', async () => {
    const org = newOrg();
    const secret = distinctSecret('bad-file');
    const bad: Array<[ImportFormat, string, number, number]> = [
      ['chrome', `name,url,username,password\nShop,https://shop.example.com,ann,"${secret}\n`, 2, 4],
      ['firefox', `"url","username","password"\n"https://a.example.com","ann","${secret}" x\n`, 2, 3],
      ['chrome', `name,url,username,password\nShop,https://shop.example.com,ann,${secret},extra\n`, 2, 5],
      ['bitwarden', `{\n  "items": [\n    { "type": 1, "login": { "password": "${secret}" }, \n  ]\n}`, 4, 3],
    ];
    for (const [format, content, line, column] of bad) {
      const res = await org.request('/api/credentials/import', { method: 'POST', json: { format, content } });
      expect(res.status, res.text).toBe(400);
      expect(res.json()).toMatchObject({ error: 'INVALID_REQUEST', details: { field: 'content', line, column } });
      expect(res.text).not.toContain(secret.slice(0, 20));
    }
    // an encrypted Bitwarden export: 400 asking for an unencrypted one
    const encrypted = await org.request('/api/credentials/import', {
      method: 'POST',
      json: { format: 'bitwarden', content: Buffer.from(fixture('bitwarden-encrypted.json')).toString('utf8') },
    });
    expect(encrypted.status).toBe(400);
    expect((encrypted.json() as Json).message).toMatch(/unencrypted/);
    expect(await org.list()).toEqual([]);
  });
});

describe.each(['keychain', 'file'] as const)('the export with the %s secret store', (backend) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ secrets: { backend }, log: { level: 'debug' } });
  });
  afterAll(async () => {
    await server?.close();
  });

  it('never lands in the data dir: its secrets are only in the secret store', async () => {
    const org = newOrg(server);
    const s = { password: distinctSecret('import-pw'), notes: distinctSecret('import-notes') };
    const content = `Title,URL,Username,Password,Notes,OTPAuth\nVault test,https://vault.example.com/login,ann,${s.password},${s.notes},\n`;
    const done = await org.importFile({ format: 'safari', content, dryRun: false });
    expect(done).toMatchObject({ created: 1, merged: 0, skipped: 0 });
    expect(server.core.secrets.backend).toBe(backend);
    expect(await savedSecrets(server, done.items[0].id!)).toMatchObject(s);
    await settle(server);
    const files = filesUnder(server.dataDir);
    const secretsFile = path.join(server.dataDir, 'secrets.enc.json');
    expect(files.some((f) => f.where === secretsFile)).toBe(backend === 'file');
    expect(findSecrets([...files, { where: 'answers', data: org.texts.join('\n') }], s)).toEqual([]);
    expect(findSecrets(files, { content })).toEqual([]);
    await server.core.logger.flush();
    expect(fs.readFileSync(server.core.logger.file, 'utf8')).toContain('saved login added');
  });
});
