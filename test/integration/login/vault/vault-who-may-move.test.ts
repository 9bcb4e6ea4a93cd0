// Who may move a secret (docs/saved-logins.md#who-may-move-a-secret): moving where a saved login's secrets are typed (its login
// page to another origin, an origin added) is reading them in practice, so PATCH /api/credentials/{id} refuses it
// with 409 SECRETS_REQUIRED unless the request carries every secret a login types; the person moves them from the
// desktop window (credentials:updateConfirmed). A recording site stands for the place a key tries to move them to.
import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { vaultChannels } from '../../../../src/main/core/desktop/vault-channels.js';
import { startSite, type FixtureSite } from '../../../fixtures/sites/index.js';
import { startRecordingLoginSite, type RecordingLoginSite } from '../../../helpers/recording-login-site.js';
import { startTestServer, type TestServer } from '../../../helpers/test-server.js';
import { findSecrets, randomTotpSecret, type Json } from '../../../helpers/vault-logins.js';

let t: TestServer;
let site: FixtureSite;
let elsewhere: RecordingLoginSite;
/** A key that may change saved logins but not log in, and one that may log in but not change them. */
let writer: string;
let agent: string;

beforeAll(async () => {
  t = await startTestServer({ login: { timeoutMs: 30_000 } });
  [site, elsewhere] = await Promise.all([startSite('classic-csrf'), startRecordingLoginSite()]);
  writer = t.core.keys.create(t.orgId, { scopes: ['credentials:write', 'credentials:read'] }).key;
  agent = t.core.keys.create(t.orgId, { scopes: ['login:write'] }).key;
});
afterAll(async () => {
  await Promise.all([site?.close(), elsewhere?.close()]);
  await t?.close();
});

const patch = (id: string, json: Json, key = writer) =>
  t.request(`/api/credentials/${id}`, { method: 'PATCH', json, key });
const get = async (id: string) => (await (await t.request(`/api/credentials/${id}`)).json()) as Json;

async function save(over: Json = {}): Promise<Json & { id: string }> {
  const res = await t.request('/api/credentials', {
    method: 'POST',
    json: {
      label: `ledger ${crypto.randomBytes(4).toString('hex')}`,
      loginUrl: site.loginUrl,
      username: site.credentials.username,
      password: site.credentials.password,
      ...over,
    },
  });
  const saved = (await res.json()) as Json & { id: string };
  expect(res.status, JSON.stringify(saved)).toBe(201);
  return saved;
}

describe('PATCH that moves where the secrets are typed', () => {
  it('without the secrets: 409 SECRETS_REQUIRED naming each missing one, and nothing changes', async () => {
    const saved = await save({ totpSecret: randomTotpSecret(), additionalFields: { pin: '4471' }, notes: 'n' });
    const moved = await patch(saved.id, { loginUrl: `${elsewhere.origin}/login` });
    const refusal = (await moved.json()) as Json;
    expect(moved.status, JSON.stringify(refusal)).toBe(409);
    expect(refusal).toMatchObject({
      error: 'SECRETS_REQUIRED',
      message: expect.stringContaining(elsewhere.origin),
      // notes are never typed anywhere: a move does not need them
      details: { fields: ['password', 'totpSecret', 'additionalFields'], places: [elsewhere.origin] },
    });
    // Some of them is not enough: the answer names what is still missing.
    const partly = await patch(saved.id, { loginUrl: `${elsewhere.origin}/login`, password: 'guess' });
    expect(await partly.json()).toMatchObject({ details: { fields: ['totpSecret', 'additionalFields'] } });
    // An origin added is a move too, and so is a login method whose default origins add the identity provider's.
    for (const change of [{ origins: [site.origin, elsewhere.origin] }, { loginMethod: 'oauth_google' }]) {
      const res = await patch(saved.id, change);
      expect(res.status, JSON.stringify(change)).toBe(409);
      expect(await res.json()).toMatchObject({ error: 'SECRETS_REQUIRED' });
    }
    expect(await get(saved.id)).toEqual(saved);
  });

  it('with every secret in the request: 200, and the saved login moves', async () => {
    const totp = randomTotpSecret();
    const saved = await save({ totpSecret: totp });
    const res = await patch(saved.id, {
      loginUrl: `${elsewhere.origin}/login`,
      password: site.credentials.password,
      totpSecret: totp,
    });
    expect(res.status, await res.clone().text()).toBe(200);
    expect(await res.json()).toMatchObject({ loginUrl: `${elsewhere.origin}/login`, origins: [elsewhere.origin] });
  });

  it('needs nothing where the secrets do not go anywhere new: a path on the same origin, an origin removed', async () => {
    const saved = await save({ origins: [site.origin, 'https://accounts.ledger.test'] });
    const path = await patch(saved.id, { loginUrl: `${site.origin}/wp-login.php?redirect_to=%2Faccount` });
    expect(path.status, await path.clone().text()).toBe(200);
    const narrowed = await patch(saved.id, { origins: [site.origin] });
    expect(narrowed.status, await narrowed.clone().text()).toBe(200);
    expect(await narrowed.json()).toMatchObject({ origins: [site.origin] });
  });

  it('a saved login with passkeys is moved by the person only: no request can carry a private key', async () => {
    const saved = await save();
    const vault = t.core.login.vault.savedLogins;
    const { privateKey } = crypto.generateKeyPairSync('ec', { namedCurve: 'P-256' });
    await vault.addPasskey(vault.get(t.orgId, saved.id), {
      rpId: new URL(site.origin).hostname,
      credentialId: crypto.randomBytes(16).toString('base64url'),
      privateKey: (privateKey.export({ format: 'der', type: 'pkcs8' }) as Buffer).toString('base64'),
      signCount: 0,
      createdAt: Date.now(),
    });
    const res = await patch(saved.id, { origins: [site.origin, elsewhere.origin], password: 'p' });
    expect(res.status).toBe(409);
    expect(await res.json()).toMatchObject({ details: { fields: ['passkeys'] } });
  });
});

describe('a refused move cannot leak', () => {
  it('after the refused PATCH, a login by reference types the password on its own site; the other sees nothing', async () => {
    const saved = await save();
    for (const change of [{ loginUrl: `${elsewhere.origin}/login` }, { origins: [site.origin, elsewhere.origin] }])
      expect((await patch(saved.id, change)).status).toBe(409);
    const res = await t.request('/api/login', {
      method: 'POST',
      json: { credential: saved.label, useCache: false },
      key: agent,
    });
    expect(res.status, await res.clone().text()).toBe(200);
    expect(elsewhere.requests).toEqual([]);
    expect(
      findSecrets([{ where: 'the other site', data: elsewhere.transcript() }], {
        password: site.credentials.password,
      }),
    ).toEqual([]);
  });
});

describe('the person moves them from the desktop window', () => {
  const channels = () =>
    vaultChannels({
      host: {
        current: () => ({
          core: t.core,
          desktop: { api: null as never, orgId: t.orgId, keyId: null },
          info: null as never,
          close: async () => {},
        }),
      },
      copySecret: () => {},
      chooseSavePath: async () => null,
    });

  it('credentials:updateConfirmed moves without the secrets, and the next login types them there', async () => {
    const saved = await save({ username: elsewhere.credentials.username, password: elsewhere.credentials.password });
    const moved = await channels()['credentials:updateConfirmed']({
      params: { id: saved.id },
      body: { loginUrl: elsewhere.loginUrl },
    });
    expect(moved).toMatchObject({ ok: true, value: { loginUrl: elsewhere.loginUrl, origins: [elsewhere.origin] } });
    const res = await t.request('/api/login', { method: 'POST', json: { credential: saved.label, useCache: false } });
    expect(res.status, await res.clone().text()).toBe(200);
    expect(elsewhere.requests.some((r) => r.method === 'POST' && r.url.startsWith('/login'))).toBe(true);
  });

  it('its refusals read as the route’s: the login-service code, message and status', async () => {
    const [a, b] = [await save(), await save()];
    const clash = await channels()['credentials:updateConfirmed']({
      params: { id: a.id },
      body: { label: b.label as string },
    });
    expect(clash).toMatchObject({ ok: false, error: { code: 'CREDENTIAL_EXISTS', details: { status: 409 } } });
  });
});
