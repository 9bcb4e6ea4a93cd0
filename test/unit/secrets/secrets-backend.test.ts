import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { parseConfig } from '../../../src/main/core/config/load-config.js';
import { createCore, type Core } from '../../../src/main/core/create-core.js';
import { KeytarSecretStore } from '../../../src/main/core/secrets/keytar-store.js';
import { ResolvingSecretStore, type SecretsPreference } from '../../../src/main/core/secrets/resolving-secret-store.js';
import type { SecretStore } from '../../../src/main/core/secrets/secret-store.js';
import { tempDir } from '../../helpers/temp-dir.js';
import { keyringAvailable } from '../../helpers/requires.js';

const hasKeychain = keyringAvailable();
const SECRET = 'pk_very_secret_value_0123456789';

/** A keychain that is down (what keytar says without a D-Bus session or Secret Service). */
const downKeychain: SecretStore = {
  backend: 'keychain',
  get: () => Promise.reject(new Error('no D-Bus session bus')),
  set: () => Promise.reject(new Error('no D-Bus session bus')),
  delete: () => Promise.reject(new Error('no D-Bus session bus')),
  check: () => Promise.reject(new Error('no D-Bus session bus')),
  listAccounts: () => Promise.reject(new Error('no D-Bus session bus')),
};

function store(
  dataDir: string,
  opts: { preference?: SecretsPreference; keychain?: SecretStore; env?: NodeJS.ProcessEnv } = {},
) {
  const notices: string[] = [];
  const recordFile = path.join(dataDir, 'record.txt');
  const s = new ResolvingSecretStore({
    preference: opts.preference ?? 'auto',
    dataDir,
    keychainService: 'agent-studio-test',
    masterKeyEnv: 'AGENT_STUDIO_MASTER_KEY',
    env: opts.env ?? {},
    record: {
      get: () => (fs.existsSync(recordFile) ? (fs.readFileSync(recordFile, 'utf8') as 'keychain' | 'file') : null),
      set: (b) => fs.writeFileSync(recordFile, b),
    },
    accountPrefix: `install-${path.basename(dataDir)}:`,
    notify: (m) => notices.push(m),
    keychain: opts.keychain,
  });
  return { s, notices, account: (name: string) => `install-${path.basename(dataDir)}:${name}` };
}

function filesUnder(dir: string): string[] {
  return fs
    .readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => path.join(e.parentPath, e.name));
}

describe('secrets backend selection', () => {
  it('auto without a keychain: an encrypted file with a generated 256-bit key (mode 600), said once', async () => {
    const dir = tempDir();
    const a = store(dir, { keychain: downKeychain });
    await a.s.set(a.account('api-key:1'), SECRET);
    expect(a.s.backend).toBe('file');
    const keyFile = path.join(dir, 'secrets.key');
    expect(fs.statSync(keyFile).mode & 0o777).toBe(0o600);
    expect(Buffer.from(fs.readFileSync(keyFile, 'utf8').trim(), 'base64')).toHaveLength(32);
    expect(a.notices).toHaveLength(1);
    expect(a.notices[0]).toContain(keyFile);
    expect(a.notices[0]).toMatch(/no D-Bus session bus/);
    for (const f of filesUnder(dir)) expect(fs.readFileSync(f, 'utf8')).not.toContain(SECRET);

    // A restart reads the same secrets with the same key, and says nothing new.
    const b = store(dir, { keychain: downKeychain });
    expect(await b.s.get(b.account('api-key:1'))).toBe(SECRET);
    expect(b.notices).toEqual([]);
  });

  it('an explicit AGENT_STUDIO_MASTER_KEY wins: no key file is written', async () => {
    const dir = tempDir();
    const env = { AGENT_STUDIO_MASTER_KEY: 'an-explicit-master-key-of-some-length' };
    const a = store(dir, { keychain: downKeychain, env });
    await a.s.set(a.account('x'), SECRET);
    expect(fs.existsSync(path.join(dir, 'secrets.key'))).toBe(false);
    expect(await store(dir, { keychain: downKeychain, env }).s.get(a.account('x'))).toBe(SECRET);
    // Without the key, the file is refused loudly rather than replaced, and no key file is made beside it.
    await expect(store(dir, { keychain: downKeychain }).s.get(a.account('x'))).rejects.toThrow(
      /neither its key file secrets\.key nor AGENT_STUDIO_MASTER_KEY is given/,
    );
    expect(fs.existsSync(path.join(dir, 'secrets.key'))).toBe(false);
  });

  it('secrets kept in the keychain are never silently lost when it is unreachable later', async () => {
    const dir = tempDir();
    fs.writeFileSync(path.join(dir, 'record.txt'), 'keychain');
    const a = store(dir, { keychain: downKeychain });
    const err = await a.s.get(a.account('x')).catch((e: Error) => e);
    expect((err as Error).message).toMatch(/keeps its secrets in the OS keychain, which is not reachable/);
    expect((err as Error).message).toMatch(/start the keychain/);
    expect(fs.existsSync(path.join(dir, 'secrets.key'))).toBe(false);
  });

  it.runIf(hasKeychain)('auto with a reachable keychain uses it (no key file)', async () => {
    const dir = tempDir();
    const a = store(dir);
    await a.s.set(a.account('k'), SECRET);
    expect(a.s.backend).toBe('keychain');
    expect(fs.existsSync(path.join(dir, 'secrets.key'))).toBe(false);
    expect(await new KeytarSecretStore('agent-studio-test').get(a.account('k'))).toBe(SECRET);
    await a.s.delete(a.account('k'));
  });

  it.runIf(hasKeychain)('file -> keychain when a keychain appears: moved, verified, file and key removed', async () => {
    const dir = tempDir();
    const a = store(dir, { keychain: downKeychain });
    await a.s.set(a.account('one'), 'value-1');
    await a.s.set(a.account('two'), 'value-2');
    const b = store(dir);
    expect(await b.s.get(b.account('one'))).toBe('value-1');
    expect(b.s.backend).toBe('keychain');
    expect(b.notices.join(' ')).toMatch(/Moved 2 secret\(s\) from the encrypted file to the OS keychain/);
    expect(fs.existsSync(path.join(dir, 'secrets.enc.json'))).toBe(false);
    expect(fs.existsSync(path.join(dir, 'secrets.key'))).toBe(false);
    expect(await new KeytarSecretStore('agent-studio-test').get(b.account('two'))).toBe('value-2');

    // And back, when the person chooses the file explicitly.
    const c = store(dir, { preference: 'file' });
    expect(await c.s.get(c.account('two'))).toBe('value-2');
    expect(c.s.backend).toBe('file');
    expect(await new KeytarSecretStore('agent-studio-test').get(c.account('two'))).toBeNull();
    await c.s.delete(c.account('one'));
    await c.s.delete(c.account('two'));
  });
});

describe('the core on a machine without a keychain', () => {
  let core: Core | undefined;
  const saved = process.env.DBUS_SESSION_BUS_ADDRESS;
  afterEach(async () => {
    await core?.dispose();
    if (saved !== undefined) process.env.DBUS_SESSION_BUS_ADDRESS = saved;
  });

  it('defaults to auto and keeps the session-cache key and API keys in the encrypted file', async () => {
    delete process.env.DBUS_SESSION_BUS_ADDRESS;
    const dataDir = tempDir();
    const config = parseConfig({ dataDir, log: { level: 'silent' } });
    expect(config.secrets.backend).toBe('auto');
    core = createCore(config);
    await core.secrets.set('api-key:abc', SECRET);
    expect(core.secrets.backend).toBe('file');
    expect(core.takeNotices()[0]).toMatch(/encrypted/);
    expect(await core.secrets.get('api-key:abc')).toBe(SECRET);
    for (const f of filesUnder(dataDir)) expect(fs.readFileSync(f).includes(SECRET)).toBe(false);
  });
});
