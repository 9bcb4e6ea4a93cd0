// The encrypted secrets file (and the vault file, the same code: secrets-file-io.ts) on Windows while another
// program (antivirus, the search indexer, a backup client) holds it open for a moment: the write is tried again and
// lands, on the synchronous path of a small file and the asynchronous one of a large file alike.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { EncryptedFileSecretStore } from '../../../src/main/core/secrets/encrypted-file-store.js';
import { SYNC_BYTES } from '../../../src/main/core/secrets/secrets-file-io.js';
import { whileHeldOpen } from '../../helpers/held-open.js';
import { tempDir } from '../../helpers/temp-dir.js';

const MASTER = 'correct-horse-battery-staple-42';

describe('the secrets file held open by another program on Windows', () => {
  it('a small write (synchronous) is tried again and lands', async () => {
    const file = path.join(tempDir(), 'secrets.enc.json');
    const store = new EncryptedFileSecretStore(file, MASTER);
    await store.set('api-key:1', 'first');
    const { refused } = await whileHeldOpen(
      (f) => f.endsWith('secrets.enc.json'),
      4,
      () => store.set('api-key:2', 'second'),
    );
    expect(refused).toBe(4);
    const fresh = new EncryptedFileSecretStore(file, MASTER);
    expect(await fresh.get('api-key:1')).toBe('first');
    expect(await fresh.get('api-key:2')).toBe('second');
    expect(fs.readdirSync(path.dirname(file))).toEqual(['secrets.enc.json']);
  });

  it('a large write (asynchronous) is tried again and lands', async () => {
    const file = path.join(tempDir(), 'secrets.enc.json');
    const store = new EncryptedFileSecretStore(file, MASTER);
    const big = Array.from({ length: 400 }, (_, i) => [`saved-login:${i}`, 'x'.repeat(500)] as [string, string]);
    const { refused } = await whileHeldOpen(
      (f) => f.endsWith('secrets.enc.json'),
      4,
      () => store.setMany(big),
    );
    expect(refused).toBe(4);
    expect(fs.statSync(file).size).toBeGreaterThan(SYNC_BYTES);
    const fresh = new EncryptedFileSecretStore(file, MASTER);
    expect(await fresh.get('saved-login:399')).toBe('x'.repeat(500));
    expect(fs.readdirSync(path.dirname(file))).toEqual(['secrets.enc.json']);
  });
});
