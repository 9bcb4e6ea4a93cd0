// The login answer's shape with `include` (docs/login-service.md#full-storage): normalizeState keeps IndexedDB and
// sessionStorage exactly when asked, and the session cache serves an entry only to requests whose
// `include` it was captured with.
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { LoginRequestSchema, StorageStateSchema, type StorageState } from '../../../../src/shared/login.schema.js';
import { openDatabase } from '../../../../src/main/core/db/database.js';
import { SessionCache, type CacheIdentity } from '../../../../src/main/core/login/sessions/session-cache.js';
import {
  coversInclude,
  normalizeInclude,
  normalizeState,
} from '../../../../src/main/core/login/sessions/storage-state.js';
import { seal } from '../../../../src/main/core/secrets/aead.js';
import { EncryptedFileSecretStore } from '../../../../src/main/core/secrets/encrypted-file-store.js';
import { tempDir } from '../../../helpers/temp-dir.js';

const APP = 'http://127.0.0.1:4100';
const IDP = 'http://localhost:4100';

/** As Playwright 1.65 returns it with { indexedDB: true }, plus what the engine adds and a field a newer one might. */
function capturedState(): StorageState {
  const database = {
    name: 'firebaseLocalStorageDb',
    version: 1,
    stores: [
      {
        name: 'firebaseLocalStorage',
        autoIncrement: false,
        keyPath: 'fbase_key',
        records: [
          { value: { fbase_key: 'user', value: { token: 't0k3n' } } },
          { valueEncoded: { o: [{ k: 'at', v: { d: '2030-01-01T00:00:00.000Z' } }], id: 1 } },
        ],
        indexes: [{ name: 'by_uid', keyPathArray: ['value', 'uid'], multiEntry: false, unique: true }],
      },
      {
        name: 'kv',
        autoIncrement: true,
        records: [
          { key: 'plain', value: null },
          { keyEncoded: { d: '2020-01-01T00:00:00.000Z' }, value: 7 },
        ],
        indexes: [],
      },
    ],
  };
  return {
    cookies: [
      {
        name: 'sid',
        value: 'v',
        domain: '127.0.0.1',
        path: '/',
        expires: -1,
        httpOnly: true,
        secure: false,
        sameSite: 'Lax',
        partitionKey: 'x',
      } as StorageState['cookies'][number],
    ],
    origins: [
      {
        origin: APP,
        localStorage: [{ name: 'theme', value: 'dark' }],
        indexedDB: [database],
        sessionStorage: [{ name: 'msal.token.keys', value: '{"accessToken":["k"]}' }],
        opfs: [],
      } as StorageState['origins'][number],
      // An origin that only had storage of kinds a later request may not ask for.
      { origin: IDP, localStorage: [], indexedDB: [], sessionStorage: [{ name: 'state', value: 's' }] },
    ],
  };
}

describe('normalizeState', () => {
  it('keeps IndexedDB and sessionStorage verbatim when asked, and drops unknown fields', () => {
    const captured = capturedState();
    const out = normalizeState(captured, ['indexedDB', 'sessionStorage']);
    expect(out.cookies[0]).not.toHaveProperty('partitionKey');
    expect(out.origins[0]).not.toHaveProperty('opfs');
    expect(out.origins[0]!.indexedDB).toEqual(captured.origins[0]!.indexedDB);
    expect(out.origins[0]!.sessionStorage).toEqual([{ name: 'msal.token.keys', value: '{"accessToken":["k"]}' }]);
    expect(out.origins[1]).toEqual({
      origin: IDP,
      localStorage: [],
      indexedDB: [],
      sessionStorage: [{ name: 'state', value: 's' }],
    });
    // Playwright tells a plain key from an encoded one by which field exists: absent stays absent, null stays null.
    const kv = out.origins[0]!.indexedDB![0]!.stores[1]!.records;
    expect(kv[0]).toEqual({ key: 'plain', value: null });
    expect(Object.keys(kv[1]!).sort()).toEqual(['keyEncoded', 'value']);
    // The answer survives the client's parse with the shared schema unchanged (nothing stripped).
    expect(StorageStateSchema.parse(out)).toEqual(out);
  });

  it('leaves out what was not asked for, and origins that only had that', () => {
    const out = normalizeState(capturedState(), []);
    expect(out.origins).toEqual([{ origin: APP, localStorage: [{ name: 'theme', value: 'dark' }] }]);

    const onlyIdb = normalizeState(capturedState(), ['indexedDB']);
    expect(onlyIdb.origins.map((o) => Object.keys(o).sort())).toEqual([
      ['indexedDB', 'localStorage', 'origin'],
      ['indexedDB', 'localStorage', 'origin'],
    ]);
    const onlySession = normalizeState(capturedState(), ['sessionStorage']);
    expect(onlySession.origins.map((o) => o.sessionStorage)).toEqual([
      [{ name: 'msal.token.keys', value: '{"accessToken":["k"]}' }],
      [{ name: 'state', value: 's' }],
    ]);
    expect(onlySession.origins.some((o) => 'indexedDB' in o)).toBe(false);
  });

  it('normalizes include: known values only, no repeats, one order; coverage', () => {
    expect(LoginRequestSchema.parse({ cred: {}, domain: 'http://127.0.0.1/' }).include).toEqual([]);
    expect(LoginRequestSchema.safeParse({ cred: {}, domain: 'http://127.0.0.1/', include: ['cookies'] }).success).toBe(
      false,
    );
    expect(normalizeInclude(['sessionStorage', 'indexedDB', 'sessionStorage'])).toEqual([
      'indexedDB',
      'sessionStorage',
    ]);
    expect(normalizeInclude(undefined)).toEqual([]);
    expect(coversInclude(['indexedDB', 'sessionStorage'], ['sessionStorage'])).toBe(true);
    expect(coversInclude([], [])).toBe(true);
    expect(coversInclude(['indexedDB'], ['sessionStorage'])).toBe(false);
  });
});

describe('SessionCache with include', () => {
  function setup() {
    const dir = tempDir();
    const db = openDatabase(dir);
    db.prepare("INSERT INTO orgs (id, name, created_at) VALUES ('o1', 'Acme', 1)").run();
    const secrets = new EncryptedFileSecretStore(path.join(dir, 'secrets.enc.json'), 'a-master-key-of-enough-length');
    const cache = new SessionCache({ db, secrets, maxAgeSec: 3600 });
    const id: CacheIdentity = { orgId: 'o1', origin: APP, username: 'alice', method: 'password' };
    return { db, secrets, cache, id };
  }

  it('serves an entry only to requests whose include it was captured with, keeping the extra fields', async () => {
    const { db, cache, id } = setup();
    const creds = await cache.credentialHash(id, { cred: { password: 'pw-1234567' }, additionalFields: {} });
    const full = normalizeState(capturedState(), ['indexedDB', 'sessionStorage']);

    const plainId = await cache.put(id, normalizeState(capturedState(), []), creds);
    expect(await cache.get(id, creds)).toMatchObject({ id: plainId });
    expect(await cache.get(id, creds, ['indexedDB'])).toBeNull();
    expect(await cache.get(id, creds, ['sessionStorage'])).toBeNull();

    const fullId = await cache.put(id, full, creds, ['indexedDB', 'sessionStorage']);
    expect(await cache.get(id, creds, ['sessionStorage'])).toEqual({
      id: fullId,
      state: full,
      sessionIn: [],
      credentialId: null,
    });
    expect(await cache.get(id, creds, ['indexedDB', 'sessionStorage'])).toEqual({
      id: fullId,
      state: full,
      sessionIn: [],
      credentialId: null,
    });
    expect(await cache.get(id, creds)).toEqual({ id: fullId, state: full, sessionIn: [], credentialId: null }); // the service trims it

    await cache.put(id, normalizeState(full, ['sessionStorage']), creds, ['sessionStorage']);
    expect(await cache.get(id, creds, ['indexedDB'])).toBeNull();

    // Storage the session lives in (captured unasked) is remembered, so every hit returns it.
    const tabId = await cache.put(
      id,
      normalizeState(full, ['sessionStorage']),
      creds,
      ['sessionStorage'],
      ['sessionStorage'],
    );
    expect(await cache.get(id, creds)).toMatchObject({ id: tabId, sessionIn: ['sessionStorage'] });
    db.close();
  });

  it('reads an entry written before include existed (the bare state) as captured without extras', async () => {
    const { db, secrets, cache, id } = setup();
    const creds = await cache.credentialHash(id, { cred: { password: 'pw-1234567' }, additionalFields: {} });
    const plain = normalizeState(capturedState(), []);
    const rowId = await cache.put(id, plain, creds);
    const key = Buffer.from((await secrets.get('session-cache-key'))!, 'base64');
    db.prepare('UPDATE login_sessions SET payload = ? WHERE id = ?').run(
      seal(key, JSON.stringify(plain), `${rowId}:${id.orgId}`),
      rowId,
    );
    expect(await cache.get(id, creds)).toEqual({ id: rowId, state: plain, sessionIn: [], credentialId: null });
    expect(await cache.get(id, creds, ['sessionStorage'])).toBeNull();
    db.close();
  });
});
