// POST /api/credentials/{id}/passkeys signs in with the saved login's password (a login) and changes the saved login,
// so a key needs both credentials:write and login:write (the route's scope is the list of both). A key with one of
// them is refused before anything opens: the site sees no sign-in and no registration.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPasskeySite, type PasskeySite } from '../../../fixtures/sites/passkey.site.js';
import type { Document } from '../../../helpers/openapi-doc.js';
import { startTestServer, type TestServer } from '../../../helpers/test-server.js';
import { saveLogin, type Json } from '../../../helpers/vault-logins.js';

let t: TestServer;
let site: PasskeySite;

beforeAll(async () => {
  site = await startPasskeySite();
  t = await startTestServer();
});
afterAll(async () => {
  await t?.close();
  await site?.close();
});

describe('creating a passkey needs credentials:write and login:write', () => {
  it.each([
    ['credentials:write', ['credentials:write', 'credentials:read'], 'login:write'],
    ['login:write', ['login:write'], 'credentials:write'],
  ])('a key with only %s gets 403 naming the other; nothing reaches the site', async (_only, scopes, missing) => {
    const saved = await saveLogin((p, json) => t.request(p, { method: 'POST', json }), {
      label: `Keyhaven ${missing}`,
      loginUrl: site.loginUrls.button,
      loginMethod: 'passkey',
      username: site.credentials.username,
      password: site.credentials.password,
    });
    const key = t.core.keys.create(t.orgId, { scopes }).key;
    const res = await t.request(`/api/credentials/${saved.id}/passkeys`, { method: 'POST', json: {}, key });
    const body = (await res.json()) as Json;
    expect(res.status, JSON.stringify(body)).toBe(403);
    expect(body).toMatchObject({ error: 'FORBIDDEN', details: { required_scope: missing } });
    expect(site.stats()).toMatchObject({ passwordSignIns: 0, registered: 0 });
  });

  it('the OpenAPI document names both scopes', async () => {
    const doc = (await (await fetch(`${t.url}/api/openapi.json`)).json()) as Document;
    const op = doc.paths['/api/credentials/{id}/passkeys'].post;
    expect(op['x-required-scope']).toEqual(['credentials:write', 'login:write']);
  });
});
