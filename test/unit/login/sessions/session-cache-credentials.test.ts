import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { StorageState } from '../../../../src/shared/login.schema.js';
import { openDatabase } from '../../../../src/main/core/db/database.js';
import { SessionCache, type CacheIdentity } from '../../../../src/main/core/login/sessions/session-cache.js';
import { EncryptedFileSecretStore } from '../../../../src/main/core/secrets/encrypted-file-store.js';
import { tempDir } from '../../../helpers/temp-dir.js';

const PASSWORD = 'hunter2-but-longer-Zp4';
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

/** A real SQLite file and a real (encrypted-file) secret store in a temp dir. */
function setup() {
  const dir = tempDir();
  const db = openDatabase(dir);
  db.prepare("INSERT INTO orgs (id, name, created_at) VALUES ('o1', 'Acme', 1), ('o2', 'Other', 1)").run();
  const secrets = new EncryptedFileSecretStore(path.join(dir, 'secrets.enc.json'), 'a-master-key-of-enough-length');
  const cache = new SessionCache({ db, secrets, maxAgeSec: 3600 });
  const id: CacheIdentity = { orgId: 'o1', origin: 'http://127.0.0.1:1', username: 'alice', method: 'password' };
  return { dir, db, secrets, cache, id };
}

describe('SessionCache credential hash', () => {
  it('is canonical in field order and changes with every secret and with the identity', async () => {
    const { cache, id, db } = setup();
    const hash = (over: Partial<CacheIdentity>, cred: Record<string, string>, fields: Record<string, string>) =>
      cache.credentialHash({ ...id, ...over }, { cred, additionalFields: fields }).then((h) => h.toString('hex'));

    const base = await hash({}, { username: 'alice', password: PASSWORD }, { tenant: 'acme', region: 'eu' });
    expect(await hash({}, { username: 'alice', password: PASSWORD }, { region: 'eu', tenant: 'acme' })).toBe(base);
    // the username is part of the identity, not a secret field: the cred's own copy is not hashed twice
    expect(await hash({}, { password: PASSWORD }, { tenant: 'acme', region: 'eu' })).toBe(base);

    const others = [
      await hash({}, { username: 'alice', password: PASSWORD + 'x' }, { tenant: 'acme', region: 'eu' }),
      await hash({}, { username: 'alice', password: PASSWORD }, { tenant: 'ACME', region: 'eu' }),
      await hash({}, { username: 'alice', password: PASSWORD }, { tenant: 'acme' }),
      await hash({}, { username: 'alice', password: PASSWORD, otp: '1' }, { tenant: 'acme', region: 'eu' }),
      await hash({ orgId: 'o2' }, { username: 'alice', password: PASSWORD }, { tenant: 'acme', region: 'eu' }),
      await hash(
        { origin: 'http://127.0.0.1:2' },
        { username: 'alice', password: PASSWORD },
        { tenant: 'acme', region: 'eu' },
      ),
    ];
    expect(new Set([base, ...others]).size).toBe(others.length + 1);
    db.close();
  });

  it('is keyed by a secret of the store: another installation hashes the same credentials differently', async () => {
    const a = setup();
    const b = setup();
    const creds = { cred: { username: 'alice', password: PASSWORD }, additionalFields: {} };
    const ha = await a.cache.credentialHash(a.id, creds);
    expect(await a.cache.credentialHash(a.id, creds)).toEqual(ha);
    expect(await b.cache.credentialHash(b.id, creds)).not.toEqual(ha);
    // and a fresh SessionCache on the same store and database derives the same key
    const again = new SessionCache({ db: a.db, secrets: a.secrets, maxAgeSec: 3600 });
    expect(await again.credentialHash(a.id, creds)).toEqual(ha);
    a.db.close();
    b.db.close();
  });

  it('serves an entry only to the credentials that made it; a different success replaces it', async () => {
    const { cache, id, db, dir } = setup();
    const right = await cache.credentialHash(id, {
      cred: { username: 'alice', password: PASSWORD },
      additionalFields: {},
    });
    const wrong = await cache.credentialHash(id, {
      cred: { username: 'alice', password: 'nope' },
      additionalFields: {},
    });
    const entry = await cache.put(id, STATE, right);
    expect(await cache.get(id, wrong)).toBeNull();
    expect(await cache.get(id, right)).toEqual({ id: entry, state: STATE, sessionIn: [], credentialId: null });

    const replaced = await cache.put(id, STATE, wrong); // a later successful login with other credentials
    expect(await cache.get(id, right)).toBeNull();
    expect((await cache.get(id, wrong))?.id).toBe(replaced);
    expect((await cache.list('o1')).map((e) => e.id)).toEqual([replaced]);

    db.pragma('wal_checkpoint(TRUNCATE)');
    const bytes = fs.readFileSync(path.join(dir, 'agent-studio.db'));
    expect(bytes.includes(Buffer.from(PASSWORD))).toBe(false);
    db.close();
  });

  it('creates one key when first used concurrently (no entry made unreadable by a lost race)', async () => {
    const { cache, id, db, secrets } = setup();
    const creds = { cred: { username: 'alice', password: PASSWORD }, additionalFields: {} };
    const hashes = await Promise.all([1, 2, 3].map(() => cache.credentialHash(id, creds)));
    expect(new Set(hashes.map((h) => h.toString('hex'))).size).toBe(1);
    const stored = await secrets.get('session-cache-key');
    const reopened = new SessionCache({ db, secrets, maxAgeSec: 3600 });
    expect(stored).not.toBeNull();
    expect(await reopened.credentialHash(id, creds)).toEqual(hashes[0]);
    db.close();
  });
});
