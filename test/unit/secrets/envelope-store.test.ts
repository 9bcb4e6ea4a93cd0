// Saved logins' secrets sealed in one file of the data dir, its key in the secret store (the OS keychain when there is
// one): what lands where, the move of an older version's entries, and a lost key said rather than replaced.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { EncryptedFileSecretStore } from '../../../src/main/core/secrets/encrypted-file-store.js';
import { EnvelopeSecretStore, VAULT_FILE } from '../../../src/main/core/secrets/envelope-store.js';
import { KeytarSecretStore } from '../../../src/main/core/secrets/keytar-store.js';
import { NamespacedSecretStore } from '../../../src/main/core/secrets/namespaced-store.js';
import {
  getMany,
  SecretsMissingError,
  setMany,
  type SecretEntry,
  type SecretStore,
} from '../../../src/main/core/secrets/secret-store.js';
import { keyringAvailable } from '../../helpers/requires.js';
import { tempDir } from '../../helpers/temp-dir.js';

const PREFIX = 'saved-login:';
const entries = (n: number): SecretEntry[] =>
  Array.from({ length: n }, (_, i) => [`${PREFIX}${i}`, JSON.stringify({ v: 1, password: `pw-${i}-secret` })]);

function envelope(base: SecretStore, dir: string) {
  return new EnvelopeSecretStore({
    base,
    file: path.join(dir, VAULT_FILE),
    keyAccount: 'vault-key',
    prefixes: [PREFIX],
  });
}

/** A base store of its own: the encrypted file with a fixed master key, in `dir`. */
const fileBase = (dir: string) =>
  new EncryptedFileSecretStore(path.join(dir, 'secrets.enc.json'), 'master-key-of-this-test');

describe('envelope store over the encrypted-file backend', () => {
  it('keeps saved-login accounts in the sealed vault file and the rest, with its key, in the base', async () => {
    const dir = tempDir();
    const base = fileBase(dir);
    const store = envelope(base, dir);
    await setMany(store, [...entries(3), ['api-key:1', 'ak-secret']]);
    expect((await base.listAccounts('')).sort()).toEqual(['api-key:1', 'vault-key']);
    const sealed = fs.readFileSync(path.join(dir, VAULT_FILE), 'utf8');
    expect(sealed).not.toContain('pw-0-secret');
    expect(Object.keys((JSON.parse(sealed) as { entries: object }).entries).sort()).toEqual(entries(3).map(([a]) => a));
    expect((JSON.parse(sealed) as { kdf: { name: string } }).kdf.name).toBe('hkdf-sha256');
    // every operation routes by account
    const again = envelope(fileBase(dir), dir);
    const got = await getMany(again, [`${PREFIX}1`, 'api-key:1', `${PREFIX}9`]);
    expect([...got.values()]).toEqual([entries(3)[1][1], 'ak-secret', null]);
    expect((await again.listAccounts('')).sort()).toEqual(
      [...entries(3).map(([a]) => a), 'api-key:1', 'vault-key'].sort(),
    );
    expect(await again.listAccounts('api-')).toEqual(['api-key:1']);
    expect(await again.deleteMany([`${PREFIX}0`, 'api-key:1', 'none'])).toBe(2);
    expect(await again.delete(`${PREFIX}1`)).toBe(true);
    expect(await again.listAccounts(PREFIX)).toEqual([`${PREFIX}2`]);
    expect(await again.setIfAbsent(`${PREFIX}2`, 'other')).toBe(entries(3)[2][1]);
  });

  it("moves an older version's saved-login entries out of the base into the file, keeping what the file has", async () => {
    const dir = tempDir();
    const base = fileBase(dir);
    await setMany(base, [...entries(4), ['api-key:1', 'ak']]);
    // a move cut short: entry 0 reached the file (and was changed since), the base still has it too
    const key = 'a-vault-key-made-before-the-crash-000000000=';
    await base.set('vault-key', key);
    await new EncryptedFileSecretStore(path.join(dir, VAULT_FILE), key, 'vault', 'hkdf-sha256').set(
      `${PREFIX}0`,
      'newer',
    );

    const store = envelope(base, dir);
    expect(await store.get(`${PREFIX}0`)).toBe('newer');
    for (const [account, value] of entries(4).slice(1)) expect(await store.get(account)).toBe(value);
    expect((await base.listAccounts('')).sort()).toEqual(['api-key:1', 'vault-key']);
  });

  it('refuses, without making a new key, when the file has entries and its key is gone', async () => {
    const dir = tempDir();
    await setMany(envelope(fileBase(dir), dir), entries(2));
    const emptyBase = fileBase(tempDir()); // a new machine's keychain: no vault key
    const store = envelope(emptyBase, dir);
    await expect(store.get(`${PREFIX}0`)).rejects.toBeInstanceOf(SecretsMissingError);
    await expect(store.set(`${PREFIX}5`, 'x')).rejects.toThrow(/missing from this computer's secret store/);
    expect(await emptyBase.get('vault-key')).toBeNull();
    expect(await store.get('api-key:1')).toBeNull(); // other secrets still work
  });
});

describe('envelope store over the OS keychain', () => {
  it.runIf(keyringAvailable())('an import of 3,000 saved logins puts one item in the keychain', async () => {
    const dir = tempDir();
    const keychain = new NamespacedSecretStore(
      new KeytarSecretStore('agent-studio'),
      `envelope-${process.pid}-${Date.now()}`,
    );
    const store = envelope(keychain, dir);
    try {
      await setMany(store, entries(3000));
      expect(await keychain.listAccounts('')).toEqual(['vault-key']);
      const got = await getMany(
        envelope(keychain, dir),
        entries(3000).map(([a]) => a),
      );
      for (const [account, value] of entries(3000)) expect(got.get(account)).toBe(value);
    } finally {
      await keychain.delete('vault-key');
    }
  });
});
