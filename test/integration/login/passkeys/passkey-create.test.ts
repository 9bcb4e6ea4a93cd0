// POST /api/credentials/{id}/passkeys: the passkey is made where people make them, on the site signed in, and
// kept in the vault. Then the passkey is what logs in, and no trace of its private key is left outside the secret
// store: not in any file of the data dir (the SQLite database after a WAL checkpoint, the encrypted secrets file of
// the file backend), the log, or any HTTP answer — with the OS keychain and with the encrypted-file backend.
import fs from 'node:fs';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FixtureSite } from '../../../fixtures/sites/index.js';
import { startPasskeySite, type PasskeySite } from '../../../fixtures/sites/passkey.site.js';
import { launchTestBrowser, opensProtectedPage } from '../../../helpers/browser.js';
import { startTestServer, type TestServer } from '../../../helpers/test-server.js';
import {
  distinctSecret,
  filesUnder,
  findSecrets,
  recordingClient,
  saveLogin,
  settle,
  type Json,
} from '../../../helpers/vault-logins.js';
import type { SavedLoginSecrets } from '../../../../src/main/core/login/vault/saved-logins.service.js';
import { makePasskey } from './passkey-kit.js';

let browser: Browser;
beforeAll(async () => {
  browser = await launchTestBrowser();
});
afterAll(async () => {
  await browser?.close();
});

describe.each(['keychain', 'file'] as const)('creating a passkey, with the %s secret store', (backend) => {
  let t: TestServer;
  let site: PasskeySite;
  let closed = false;
  const password = distinctSecret('passkey-site-pw');

  beforeAll(async () => {
    site = await startPasskeySite({ password });
    t = await startTestServer({ secrets: { backend }, log: { level: 'debug' } });
  });
  afterAll(async () => {
    if (!closed) await t?.close();
    await site?.close();
  });

  it('signs in with the password, creates a passkey on the security page, logs in with it; no key escapes', async () => {
    const http = recordingClient(t);
    const saved = await saveLogin(http.post, {
      label: 'Keyhaven',
      loginUrl: site.loginUrls.button,
      loginMethod: 'passkey',
      username: site.credentials.username,
      password,
    });
    const made = await http.post(`/api/credentials/${saved.id}/passkeys`, {});
    const created = (await made.json()) as Json;
    expect(made.status, JSON.stringify(created)).toBe(201);
    expect(created).toEqual({ rp_id: site.rpId, credential_id: site.passkeys()[0].credentialId });
    expect(site.stats().registered).toBe(1);

    const meta = (await (await http.request(`/api/credentials/${saved.id}`)).json()) as Json;
    expect(meta.passkeys).toEqual([
      { rp_id: site.rpId, credential_id: created.credential_id, created_at: expect.any(Number) },
    ]);
    const uses = (await (await http.request(`/api/credentials/${saved.id}/uses`)).json()) as { data: Json[] };
    expect(uses.data[0]).toMatchObject({ endpoint: 'add_passkey', outcome: 'success' });

    // the passkey logs in (twice: the counter the vault keeps goes up with each use)
    for (let i = 1; i <= 2; i++) {
      const res = await http.post('/api/login', { credential: saved.id, useCache: false });
      const state = (await res.json()) as Json;
      expect(res.status, JSON.stringify(state)).toBe(200);
      expect(await opensProtectedPage(browser, site as unknown as FixtureSite, state)).toBe(true);
    }
    expect(site.stats()).toMatchObject({ passkeySignIns: 2, passwordSignIns: 1, refused: [] });

    // a second passkey made in the test and kept through the service, used by nothing yet
    const extra = makePasskey(site);
    const savedLogins = t.core.login.vault.savedLogins;
    await savedLogins.addPasskey(savedLogins.get(t.orgId, saved.id), extra);

    // --- the private keys are where they belong: in the secret store, with the counter of the last use
    const stored = JSON.parse((await t.core.secrets.get(`saved-login:${saved.id}`))!) as SavedLoginSecrets;
    expect(stored.passkeys).toHaveLength(2);
    // the vault's counter is the one the relying party last accepted
    const atSite = site.passkeys().find((p) => p.credentialId === created.credential_id)!;
    expect(stored.passkeys![0]).toMatchObject({
      credentialId: created.credential_id,
      signCount: atSite.counter,
      rpId: site.rpId,
    });
    const keys = Object.fromEntries(
      stored.passkeys!.flatMap((p, i) => [
        [`passkey ${i} private key`, p.privateKey],
        [`passkey ${i} private key (base64url)`, Buffer.from(p.privateKey, 'base64').toString('base64url')],
      ]),
    );
    const der = stored.passkeys!.map((p) => Buffer.from(p.privateKey, 'base64'));

    // --- the search
    await settle(t);
    const log = fs.readFileSync(t.core.logger.file, 'utf8');
    expect(log).toContain('passkey added');
    const haystacks = [...filesUnder(t.dataDir), { where: 'the log file', data: log }, ...(await http.answers())];
    const hits = findSecrets(haystacks, { ...keys, password });
    // the key's raw bytes (PKCS#8 DER) too, wherever they would sit
    for (const { where, data } of haystacks)
      for (const [i, bytes] of der.entries())
        if (Buffer.from(data).includes(bytes.subarray(-32))) hits.push(`passkey ${i} raw key in ${where}`);
    expect(hits).toEqual([]);
    closed = true;
    await t.close();
    expect(findSecrets(filesUnder(t.dataDir), keys)).toEqual([]);
  }, 180_000);

  it('a saved login without a password cannot make one: 400 naming the password', async () => {
    const t2 = closed ? await startTestServer({ secrets: { backend } }) : t;
    try {
      const saved = await saveLogin((p, json) => t2.request(p, { method: 'POST', json }), {
        label: 'Keyhaven, no password',
        loginUrl: site.loginUrls.button,
        loginMethod: 'passkey',
        username: site.credentials.username,
      });
      const res = await t2.request(`/api/credentials/${saved.id}/passkeys`, { method: 'POST', json: {} });
      const body = (await res.json()) as Json;
      expect(res.status).toBe(400);
      expect(body.details).toMatchObject({ field: 'password' });
    } finally {
      if (t2 !== t) await t2.close();
    }
  });
});

describe('a link that names the button it leads to', () => {
  it('the account page\'s link "Create a passkey" and the security page\'s button of that name are each tried', async () => {
    const password = distinctSecret('passkey-link-pw');
    const [site, t] = await Promise.all([
      startPasskeySite({ password, accountLinkText: 'Create a passkey' }),
      startTestServer({ secrets: { backend: 'file' } }),
    ]);
    try {
      const saved = await saveLogin((p, json) => t.request(p, { method: 'POST', json }), {
        label: 'Keyhaven, same-named link',
        loginUrl: site.loginUrls.button,
        loginMethod: 'passkey',
        username: site.credentials.username,
        password,
      });
      const res = await t.request(`/api/credentials/${saved.id}/passkeys`, { method: 'POST', json: {} });
      const body = (await res.json()) as Json;
      expect(res.status, JSON.stringify(body)).toBe(201);
      expect(body).toEqual({ rp_id: site.rpId, credential_id: site.passkeys()[0].credentialId });
      expect(site.stats().registered).toBe(1);
    } finally {
      await Promise.all([t.close(), site.close()]);
    }
  }, 120_000);
});
