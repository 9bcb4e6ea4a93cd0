// A cached session keeps what the login browser presented (the state's `browser`) and the browser mode it ran in, so
// a cache hit answers the same facts and a session check opens it in the same mode; rows written before either
// existed still read (no `browser`, no mode), sealed exactly as an older version wrote them.
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { StorageState } from '../../../../src/shared/login.schema.js';
import { openDatabase } from '../../../../src/main/core/db/database.js';
import { seal } from '../../../../src/main/core/secrets/aead.js';
import { SessionCache, type CacheIdentity } from '../../../../src/main/core/login/sessions/session-cache.js';
import { loadCacheKeys } from '../../../../src/main/core/login/sessions/session-payload.js';
import { normalizeState } from '../../../../src/main/core/login/sessions/storage-state.js';
import { EncryptedFileSecretStore } from '../../../../src/main/core/secrets/encrypted-file-store.js';
import { tempDir } from '../../../helpers/temp-dir.js';

const STATE: StorageState = {
  cookies: [
    {
      name: 'sid',
      value: 'cookie-value-123456',
      domain: '127.0.0.1',
      path: '/',
      expires: -1,
      httpOnly: true,
      secure: false,
      sameSite: 'Lax',
    },
  ],
  origins: [],
};
const BROWSER = {
  userAgent: 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/156.0.0.0 Safari/537.36',
  locale: 'de-DE',
  timezoneId: 'Europe/Berlin',
};

function setup() {
  const dir = tempDir();
  const db = openDatabase(dir);
  db.prepare("INSERT INTO orgs (id, name, created_at) VALUES ('o1', 'Acme', 1)").run();
  const secrets = new EncryptedFileSecretStore(path.join(dir, 'secrets.enc.json'), 'a-master-key-of-enough-length');
  const cache = new SessionCache({ db, secrets, maxAgeSec: 3600 });
  const id: CacheIdentity = { orgId: 'o1', origin: 'http://127.0.0.1:1', username: 'alice', method: 'password' };
  return { db, secrets, cache, id };
}

describe('the login browser in the session cache', () => {
  it('a hit answers the facts the login returned, and the entry keeps the mode', async () => {
    const { cache, id } = setup();
    const creds = await cache.credentialHash(id, { cred: { password: 'pw' }, additionalFields: {} });
    const sessionId = await cache.put(id, normalizeState({ ...STATE, browser: BROWSER }), creds, [], [], 'headed');
    const hit = await cache.get(id, creds);
    expect(normalizeState(hit!.state).browser).toEqual(BROWSER);
    expect((await cache.entry('o1', sessionId))?.mode).toBe('headed');
  });

  it('rows an older version wrote (no browser, no mode; or the bare state of the first format) still read', async () => {
    const { db, secrets, cache, id } = setup();
    const creds = await cache.credentialHash(id, { cred: { password: 'pw' }, additionalFields: {} });
    const sessionId = await cache.put(id, STATE, creds);
    const key = (await loadCacheKeys(secrets)).cache;
    const reseal = (payload: unknown) =>
      db
        .prepare('UPDATE login_sessions SET payload = ? WHERE id = ?')
        .run(seal(key, JSON.stringify(payload), `${sessionId}:o1`), sessionId);
    for (const payload of [{ v: 2, include: [], sessionIn: [], state: STATE }, STATE]) {
      reseal(payload);
      const hit = await cache.get(id, creds);
      expect(normalizeState(hit!.state)).toEqual(STATE);
      expect(normalizeState(hit!.state)).not.toHaveProperty('browser');
      const entry = await cache.entry('o1', sessionId);
      expect(entry?.state).toEqual(STATE);
      expect(entry?.mode).toBeUndefined();
    }
  });
});
