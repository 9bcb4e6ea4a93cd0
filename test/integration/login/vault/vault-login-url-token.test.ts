// A token in a saved login's loginUrl (docs/saved-logins.md#what-a-saved-login-holds, the login page's query): a site mailed a sign-in link
// whose query carries one, and saved logins are listed to any key with credentials:read. The full URL lives in the
// secret store with the saved login's other secrets; the database and every answer keep it with each query value
// and the fragment masked, while a login still opens it in full. The recording site shows its form only to a request
// whose URL carries the token, so a login that dropped it would fail. Rows an older version wrote move at start.
import crypto from 'node:crypto';
import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startRecordingLoginSite, type RecordingLoginSite } from '../../../helpers/recording-login-site.js';
import { startTestServer, tempDir, type TestServer } from '../../../helpers/test-server.js';
import { filesUnder, findSecrets, recordingClient, settle, type Json } from '../../../helpers/vault-logins.js';

const TOKEN = `invite-${crypto.randomBytes(12).toString('hex')}`;
const FRAGMENT = `frag-${crypto.randomBytes(12).toString('hex')}`;
let site: RecordingLoginSite;
const servers: TestServer[] = [];

beforeAll(async () => {
  site = await startRecordingLoginSite({ token: TOKEN });
});
afterAll(async () => {
  for (const s of servers.splice(0).reverse()) await s.close();
  await site?.close();
});

async function server(dataDir = tempDir()): Promise<TestServer> {
  const t = await startTestServer({ dataDir, login: { timeoutMs: 30_000 } });
  servers.push(t);
  return t;
}

const masked = () => `${site.origin}/login?invite=***#***`;
const full = () => `${site.loginUrl}#${FRAGMENT}`;
const loginRow = (t: TestServer, id: string) =>
  (t.core.db.prepare('SELECT login_url FROM saved_logins WHERE id = ?').get(id) as { login_url: string }).login_url;

async function saveTokenLogin(t: TestServer): Promise<Json & { id: string; label: string }> {
  const res = await t.request('/api/credentials', {
    method: 'POST',
    json: { label: 'Ledger invite', loginUrl: full(), ...site.credentials },
  });
  const saved = (await res.json()) as Json & { id: string; label: string };
  expect(res.status, JSON.stringify(saved)).toBe(201);
  return saved;
}

async function loginByLabel(t: TestServer, label: string, key?: string): Promise<void> {
  const opened = site.requests.length;
  const res = await t.request('/api/login', { method: 'POST', json: { credential: label, useCache: false }, key });
  expect(res.status, await res.clone().text()).toBe(200);
  // The login opened the page with its token: the site showed it the form.
  expect(site.requests.slice(opened)).toContainEqual(
    expect.objectContaining({ method: 'GET', url: `/login?invite=${TOKEN}` }),
  );
}

describe('a token in loginUrl', () => {
  it('is in no answer and not in the data dir in clear, and the login still opens the full URL', async () => {
    const t = await server();
    const http = recordingClient(t);
    const saved = await saveTokenLogin(t);
    expect(saved.loginUrl).toBe(masked());
    expect(saved.origins).toEqual([site.origin]);
    for (const path of ['/api/credentials', `/api/credentials/${saved.id}`, `/api/credentials/Ledger%20invite`])
      expect((await http.request(path)).status).toBe(200);
    // A read-modify-write sends the masked URL back: the saved one stays whole.
    const patched = await t.request(`/api/credentials/${saved.id}`, {
      method: 'PATCH',
      json: { label: 'Ledger', loginUrl: masked() },
    });
    expect(await patched.json()).toMatchObject({ label: 'Ledger', loginUrl: masked() });
    await loginByLabel(t, 'Ledger');
    expect(loginRow(t, saved.id)).toBe(masked());

    await settle(t);
    const log = { where: 'the log file', data: fs.readFileSync(t.core.logger.file, 'utf8') };
    const secrets = { token: TOKEN, fragment: FRAGMENT };
    expect(
      findSecrets([...(await http.answers()), { where: 'POST answer', data: JSON.stringify(saved) }], secrets),
    ).toEqual([]);
    expect(findSecrets([...filesUnder(t.dataDir), log], secrets)).toEqual([]);
  });

  it('a row an older version wrote with the URL in full is masked at the next start; logins keep the token', async () => {
    const dataDir = tempDir();
    const old = await server(dataDir);
    const saved = await saveTokenLogin(old);
    // What the older version left: the URL whole in the row, and not in the secret store.
    old.core.db.prepare('UPDATE saved_logins SET login_url = ? WHERE id = ?').run(full(), saved.id);
    const account = `saved-login:${saved.id}`;
    const { loginUrl: _kept, ...secrets } = JSON.parse((await old.core.secrets.get(account))!) as Json;
    await old.core.secrets.set(account, JSON.stringify(secrets));
    // Answers mask it even before it moves.
    expect(await (await old.request(`/api/credentials/${saved.id}`)).json()).toMatchObject({ loginUrl: masked() });
    // (The next test server makes its own "test-org": the old one keeps its saved login under another name.)
    old.core.db.prepare("UPDATE orgs SET name = 'older-org' WHERE id = ?").run(old.orgId);
    await old.close();
    servers.splice(servers.indexOf(old), 1);

    const t = await server(dataDir);
    // A login waits for the start's moves.
    await loginByLabel(t, saved.label, t.core.keys.create(old.orgId, { scopes: ['login:write'] }).key);
    // (The row is rewritten; SQLite may keep the old bytes in a free page until it reuses it.)
    expect(loginRow(t, saved.id)).toBe(masked());
    expect(JSON.parse((await t.core.secrets.get(account))!)).toMatchObject({ loginUrl: full() });
  });
});
