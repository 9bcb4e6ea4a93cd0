// Issue "Runs where its users are", item 6: Windows Credential Manager refuses an item over 2,560 bytes, and a saved
// login's notes may be 20,000 characters. With the OS keychain backend (a real Secret Service keyring here), a saved
// login with the largest notes the API takes saves and logs in, and no item the installation put in the keychain comes
// near Windows' limit: saved logins are sealed in the vault file under one key (envelope-store.ts).
import { createRequire } from 'node:module';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { keychainItemLimit } from '../../../src/main/core/secrets/keytar-store.js';
import { startSite, type FixtureSite } from '../../fixtures/sites/index.js';
import { keyringAvailable } from '../../helpers/requires.js';
import { startTestServer, type TestServer } from '../../helpers/test-server.js';

type Keytar = {
  findCredentials(service: string): Promise<{ account: string; password: string }[]>;
  deletePassword(service: string, account: string): Promise<boolean>;
};

// A service of this run alone: the items are listed whole and removed afterwards, and no other run's are touched.
const SERVICE = `agent-studio-test-item-size-${process.pid}-${Date.now()}`;
/** 20,000 characters (the API's maximum), 40,000 UTF-8 bytes: far over what one Windows credential holds. */
const NOTES = 'Recovery codes: ' + 'é'.repeat(20_000 - 'Recovery codes: '.length - 1) + '!';

describe.runIf(keyringAvailable())('the OS keychain backend with a saved login of 20,000 characters of notes', () => {
  let t: TestServer;
  let site: FixtureSite;
  const keytar = createRequire(import.meta.url)('keytar') as Keytar;

  beforeAll(async () => {
    site = await startSite('classic-csrf');
    t = await startTestServer({ secrets: { backend: 'keychain', service: SERVICE }, login: { timeoutMs: 30_000 } });
  });
  afterAll(async () => {
    await t?.close();
    await site?.close();
    for (const { account } of await keytar.findCredentials(SERVICE)) await keytar.deletePassword(SERVICE, account);
  });

  it('saves, logs in by name, and every keychain item it wrote fits in a Windows credential', async () => {
    expect(NOTES).toHaveLength(20_000);
    const saved = await t.request('/api/credentials', {
      method: 'POST',
      json: {
        label: 'long notes',
        loginUrl: site.loginUrl,
        username: site.credentials.username,
        password: site.credentials.password,
        notes: NOTES,
      },
    });
    expect(saved.status, await saved.clone().text()).toBe(201);
    expect(t.core.secrets.backend).toBe('keychain');

    const login = await t.request('/api/login', {
      method: 'POST',
      json: { credential: 'long notes', useCache: false },
    });
    expect(login.status, await login.clone().text()).toBe(200);
    expect(((await login.json()) as { cookies: unknown[] }).cookies.length).toBeGreaterThan(0);

    // the notes are kept whole (sealed in the vault file), not cut to fit anything
    const id = ((await saved.json()) as { id: string }).id;
    expect(JSON.parse((await t.core.secrets.get(`saved-login:${id}`))!)).toMatchObject({ notes: NOTES });

    const items = await keytar.findCredentials(SERVICE);
    expect(items.length).toBeGreaterThan(0); // the vault key at least: the keychain really was used
    const limit = keychainItemLimit('win32')!;
    for (const { account, password } of items) {
      expect(Buffer.byteLength(password, 'utf8'), account).toBeLessThanOrEqual(limit);
      expect(password).not.toContain('é');
    }
  });
});
