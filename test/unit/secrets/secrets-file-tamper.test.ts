/**
 * The encrypted secrets file against someone who can write the data dir but does not know the master key: they
 * cannot decrypt an entry, but they can move one. Each entry is sealed with its account name as AAD, so an entry
 * copied under another account name must not open there — otherwise a saved login's password could be served for
 * another saved login (one whose origins the attacker chose), or a signing key swapped for a key they know the use of.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { EncryptedFileSecretStore } from '../../../src/main/core/secrets/encrypted-file-store.js';
import { tempDir } from '../../helpers/temp-dir.js';

const MASTER = 'correct-horse-battery-staple-42';
const A = 'saved-login:aaaa';
const B = 'saved-login:bbbb';
/** An account the store never wrote: the copy adds it. */
const C = 'saved-login:cccc';

interface SecretsFile {
  entries: Record<string, string>;
}

/** What a read gives, with a refusal (the store throws on an entry that does not authenticate) as null. */
const readOf = (p: Promise<string | null>) => p.catch(() => null);

describe('encrypted file secret store: an entry moved to another account name', () => {
  it('does not open under the other name, while the untouched entries still do', async () => {
    const file = path.join(tempDir(), 'secrets.enc.json');
    const writer = new EncryptedFileSecretStore(file, MASTER);
    await writer.set(A, 'password-of-a');
    await writer.set(B, 'password-of-b');

    // The attacker's edit: A's sealed entry copied over B's and under a new name C, as raw JSON.
    const data = JSON.parse(fs.readFileSync(file, 'utf8')) as SecretsFile;
    data.entries[B] = data.entries[A];
    data.entries[C] = data.entries[A];
    fs.writeFileSync(file, JSON.stringify(data));

    // A store that already verified its key and a fresh one (another process: the CLI, the MCP server).
    for (const store of [writer, new EncryptedFileSecretStore(file, MASTER)]) {
      expect(await readOf(store.get(B))).toBeNull();
      expect(await readOf(store.get(C))).toBeNull();
      const many = await store.getMany([A, B, C]).catch(() => null);
      // getMany refuses the whole batch or gives null for the moved entries: never A's secret under B or C.
      if (many) expect([many.get(B), many.get(C)]).toEqual([null, null]);
      // The entry itself is intact: under its own name it opens, so the refusal above is the name binding.
      expect(await store.get(A)).toBe('password-of-a');
    }
  });
});
