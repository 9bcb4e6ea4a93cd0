// Many secrets at once (setMany, getMany, deleteMany), as an import writes them: the encrypted file in one atomic
// write whose entries stay bound each to its account name, the keychain and the namespaced store entry by entry.
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { EncryptedFileSecretStore } from '../../../src/main/core/secrets/encrypted-file-store.js';
import { KeytarSecretStore } from '../../../src/main/core/secrets/keytar-store.js';
import { NamespacedSecretStore } from '../../../src/main/core/secrets/namespaced-store.js';
import { deleteMany, getMany, setMany, type SecretEntry } from '../../../src/main/core/secrets/secret-store.js';
import { keyringAvailable } from '../../helpers/requires.js';
import { tempDir } from '../../helpers/temp-dir.js';

const MASTER = 'correct-horse-battery-staple-42';
const entries = (n: number, tag = 'v'): SecretEntry[] =>
  Array.from({ length: n }, (_, i) => [`saved-login:${i}`, `${tag}-${i}-${'x'.repeat(i % 40)}`]);

describe('encrypted file: a batch', () => {
  it('is one read-modify-write of the file (one temp file renamed over it), whatever its size', async () => {
    const file = path.join(tempDir(), 'secrets.enc.json');
    const store = new EncryptedFileSecretStore(file, MASTER);
    await store.set('api-key:1', 'kept'); // an entry the batch must keep
    const renames = vi.spyOn(fsp, 'rename');
    try {
      await store.setMany(entries(3000));
      expect(renames).toHaveBeenCalledTimes(1);
    } finally {
      renames.mockRestore();
    }
    const fresh = new EncryptedFileSecretStore(file, MASTER);
    const got = await fresh.getMany([...entries(3000).map(([a]) => a), 'api-key:1', 'missing']);
    expect(got.get('api-key:1')).toBe('kept');
    expect(got.get('missing')).toBeNull();
    for (const [account, value] of entries(3000)) expect(got.get(account)).toBe(value);
    expect(fs.readdirSync(path.dirname(file)).sort()).toEqual(['secrets.enc.json']); // no temp or lock file left
  });

  it('binds each entry to its account name: an entry moved to another account does not open', async () => {
    const file = path.join(tempDir(), 'secrets.enc.json');
    await new EncryptedFileSecretStore(file, MASTER).setMany(entries(3));
    const data = JSON.parse(fs.readFileSync(file, 'utf8')) as { entries: Record<string, string> };
    data.entries['saved-login:2'] = data.entries['saved-login:1'];
    fs.writeFileSync(file, JSON.stringify(data));
    const store = new EncryptedFileSecretStore(file, MASTER);
    expect(await store.get('saved-login:0')).toBe(entries(3)[0][1]);
    await expect(store.get('saved-login:2')).rejects.toThrow();
  });

  it('deletes many in one write and says how many were there; concurrent single writes all land', async () => {
    const file = path.join(tempDir(), 'secrets.enc.json');
    const store = new EncryptedFileSecretStore(file, MASTER);
    await store.setMany(entries(10));
    expect(await store.deleteMany(['saved-login:1', 'saved-login:2', 'never-there'])).toBe(2);
    // gathered into few writes of the file while one is on disk (group commit), each answered once written
    await Promise.all(Array.from({ length: 50 }, (_, i) => store.set(`single:${i}`, `s${i}`)));
    const fresh = new EncryptedFileSecretStore(file, MASTER);
    expect((await fresh.listAccounts('saved-login:')).sort()).toEqual(
      entries(10)
        .map(([a]) => a)
        .filter((a) => a !== 'saved-login:1' && a !== 'saved-login:2')
        .sort(),
    );
    for (let i = 0; i < 50; i++) expect(await fresh.get(`single:${i}`)).toBe(`s${i}`);
  });
});

describe('namespaced over the keychain: a batch', () => {
  it.runIf(keyringAvailable())('sets, reads and deletes many under its own prefix only', async () => {
    const keychain = new KeytarSecretStore('agent-studio');
    const mine = new NamespacedSecretStore(keychain, `batch-${process.pid}-${Date.now()}`);
    const other = new NamespacedSecretStore(keychain, `other-${process.pid}-${Date.now()}`);
    await other.set('saved-login:0', 'not mine');
    await setMany(mine, entries(12));
    const got = await getMany(mine, [...entries(12).map(([a]) => a), 'missing']);
    for (const [account, value] of entries(12)) expect(got.get(account)).toBe(value);
    expect(got.get('missing')).toBeNull();
    expect(
      await deleteMany(
        mine,
        entries(12).map(([a]) => a),
      ),
    ).toBe(12);
    expect(await mine.listAccounts('saved-login:')).toEqual([]);
    expect(await other.get('saved-login:0')).toBe('not mine');
    await other.delete('saved-login:0');
  });
});

describe('the keychain listed while another process deletes', () => {
  it.runIf(keyringAvailable())('lists what is there, never failing on an item deleted meanwhile', async () => {
    const keychain = new KeytarSecretStore('agent-studio');
    const namespace = `listing-${process.pid}-${Date.now()}`;
    const mine = new NamespacedSecretStore(keychain, namespace);
    await setMany(mine, entries(120));
    // Deletions by another user of the keychain (a few, as a CLI or another server makes them), while this one
    // lists again and again.
    const other = new NamespacedSecretStore(new KeytarSecretStore('agent-studio'), namespace);
    const deleting = (async () => {
      for (const [account] of entries(120).slice(0, 10)) await other.delete(account);
    })();
    const listings: number[] = [];
    let deleted = false;
    void deleting.then(() => (deleted = true));
    while (!deleted) listings.push((await mine.listAccounts('saved-login:')).length);
    await deleting;
    listings.push((await mine.listAccounts('saved-login:')).length);
    expect(listings.at(-1)).toBe(110);
    await deleteMany(
      mine,
      entries(120).map(([a]) => a),
    );
    expect(listings).toEqual([...listings].sort((a, b) => b - a)); // only ever fewer
  });
});
