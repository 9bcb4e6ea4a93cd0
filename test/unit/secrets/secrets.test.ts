import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { EncryptedFileSecretStore } from '../../../src/main/core/secrets/encrypted-file-store.js';
import {
  keychainItemLimit,
  KeytarSecretStore,
  SecretTooLargeError,
} from '../../../src/main/core/secrets/keytar-store.js';
import { NamespacedSecretStore } from '../../../src/main/core/secrets/namespaced-store.js';
import {
  keyLoader,
  SecretStoreUnavailableError,
  type SecretStore,
} from '../../../src/main/core/secrets/secret-store.js';
import { tempDir } from '../../helpers/temp-dir.js';
import { keyringAvailable } from '../../helpers/requires.js';

const MASTER = 'correct-horse-battery-staple-42';

describe('keytar secret store (real Secret Service in a throwaway keyring)', () => {
  it.runIf(keyringAvailable())('sets, gets and deletes through the OS keychain', async () => {
    const store = new NamespacedSecretStore(new KeytarSecretStore('agent-studio'), `test-${process.pid}-${Date.now()}`);
    await store.check();
    expect(await store.get('k')).toBeNull();
    await store.set('k', 's3cr3t-value');
    expect(await store.get('k')).toBe('s3cr3t-value');
    expect(await store.delete('k')).toBe(true);
    expect(await store.get('k')).toBeNull();
  });

  it.runIf(keyringAvailable())(
    "as Windows' Credential Manager: a value over 2,560 UTF-8 bytes is refused by name, before the keychain is asked",
    async () => {
      expect([keychainItemLimit('win32'), keychainItemLimit('darwin'), keychainItemLimit('linux')]).toEqual([
        2560,
        null,
        null,
      ]);
      const service = `agent-studio-test-${process.pid}-${Date.now()}`;
      const asWindows = new KeytarSecretStore(service, undefined, 'win32');
      const asLinux = new KeytarSecretStore(service, undefined, 'linux');
      const fits = 'é'.repeat(1280); // 2,560 bytes
      await asWindows.set('fits', fits);
      expect(await asWindows.get('fits')).toBe(fits);
      const over = `${fits}x`; // 2,561 bytes, 1,281 characters
      const err = await asWindows.set('notes-of-a-login', over).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(SecretTooLargeError);
      expect((err as Error).message).toMatch(/at most 2560 bytes per item and "notes-of-a-login" is 2561 bytes/);
      expect((err as Error).message).not.toContain('é');
      expect(await asWindows.get('notes-of-a-login')).toBeNull(); // nothing half-written
      await asLinux.set('notes-of-a-login', over); // the Secret Service has no such limit
      expect(await asLinux.get('notes-of-a-login')).toBe(over);
      await asLinux.deleteMany(['fits', 'notes-of-a-login']);
    },
  );

  it.runIf(process.platform === 'linux')(
    'without a D-Bus session it fails with an error naming both remedies',
    async () => {
      const saved = process.env.DBUS_SESSION_BUS_ADDRESS;
      delete process.env.DBUS_SESSION_BUS_ADDRESS;
      try {
        const store = new KeytarSecretStore('agent-studio');
        const err = await store.set('k', 'v').catch((e: unknown) => e);
        expect(err).toBeInstanceOf(SecretStoreUnavailableError);
        expect((err as Error).message).toMatch(/keychain/i);
        expect((err as Error).message).toMatch(/AGENT_STUDIO_SECRETS_BACKEND=file/);
        expect((err as Error).message).not.toContain('v\n');
      } finally {
        if (saved !== undefined) process.env.DBUS_SESSION_BUS_ADDRESS = saved;
      }
    },
  );
});

describe('encrypted file secret store', () => {
  it('round-trips, keeps no plaintext on disk, and survives a reopen', async () => {
    const file = path.join(tempDir(), 'secrets.enc.json');
    const a = new EncryptedFileSecretStore(file, MASTER);
    await a.set('api-key:1', 'pk_plaintext_value_123');
    await a.set('other', 'x'.repeat(50));
    const raw = fs.readFileSync(file, 'utf8');
    expect(raw).not.toContain('pk_plaintext_value_123');
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    const b = new EncryptedFileSecretStore(file, MASTER);
    expect(await b.get('api-key:1')).toBe('pk_plaintext_value_123');
    expect(await b.delete('other')).toBe(true);
    expect(await b.get('other')).toBeNull();
  });

  it('refuses a missing, short or wrong master key clearly', async () => {
    const file = path.join(tempDir(), 'secrets.enc.json');
    await expect(new EncryptedFileSecretStore(file, undefined).get('a')).rejects.toThrow(/AGENT_STUDIO_MASTER_KEY/);
    await expect(new EncryptedFileSecretStore(file, 'short').get('a')).rejects.toThrow(SecretStoreUnavailableError);
    await new EncryptedFileSecretStore(file, MASTER).set('a', 'b');
    await expect(new EncryptedFileSecretStore(file, `${MASTER}-wrong`).get('a')).rejects.toThrow(/wrong master key/);
  });

  it('detects a tampered entry (GCM authentication)', async () => {
    const file = path.join(tempDir(), 'secrets.enc.json');
    await new EncryptedFileSecretStore(file, MASTER).set('a', 'value');
    await new EncryptedFileSecretStore(file, MASTER).set('b', 'value2');
    const data = JSON.parse(fs.readFileSync(file, 'utf8'));
    const buf = Buffer.from(data.entries.b, 'base64');
    buf[buf.length - 1] ^= 1;
    data.entries.b = buf.toString('base64');
    fs.writeFileSync(file, JSON.stringify(data));
    await expect(new EncryptedFileSecretStore(file, MASTER).get('b')).rejects.toThrow();
  });
});

describe('keyLoader (a sealing key made on first use)', () => {
  it('makes one key for concurrent first calls, keeps it across loaders, and tries again after a failed read', async () => {
    const file = new EncryptedFileSecretStore(path.join(tempDir(), 'secrets.enc'), MASTER);
    let failNext = true;
    // The file store, but its first read fails as a locked keychain's would (and no atomic setIfAbsent).
    const flaky: SecretStore = {
      backend: 'file',
      check: () => file.check(),
      listAccounts: (prefix) => file.listAccounts(prefix),
      get: async (account) => {
        if (failNext) {
          failNext = false;
          throw new SecretStoreUnavailableError('locked');
        }
        return file.get(account);
      },
      set: (account, value) => file.set(account, value),
      delete: (account) => file.delete(account),
    };
    const load = keyLoader(flaky, 'some-key');
    await expect(load()).rejects.toBeInstanceOf(SecretStoreUnavailableError);
    const [a, b] = await Promise.all([load(), load()]);
    expect(a.length).toBe(32);
    expect(b).toBe(a);
    expect(Buffer.from((await file.get('some-key'))!, 'base64')).toEqual(a);
    expect(await keyLoader(file, 'some-key')()).toEqual(a);
    expect(await keyLoader(file, 'another-key')()).not.toEqual(a);
  });
});
