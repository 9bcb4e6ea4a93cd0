// The names of the secrets an installation stored (src/main/core/secrets/secret-inventory.ts): what a data dir copied
// without them says, and the key file of the encrypted-file backend that is never made anew next to its file.
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { parseConfig } from '../../../src/main/core/config/load-config.js';
import { createCore, type Core } from '../../../src/main/core/create-core.js';
import { SecretsMissingError, SecretStoreUnavailableError } from '../../../src/main/core/secrets/secret-store.js';
import { tempDir } from '../../helpers/temp-dir.js';

const cores: Core[] = [];
afterEach(async () => {
  for (const c of cores.splice(0)) await c.dispose();
});
const core = (dataDir: string) => {
  const c = createCore(parseConfig({ dataDir, log: { level: 'silent' }, secrets: { backend: 'file' } }));
  cores.push(c);
  return c;
};

/** A data dir whose organization has a webhook secret and a provider key, in the encrypted-file store. */
async function original() {
  const dir = tempDir();
  const c = core(dir);
  const org = c.orgs.create('acme');
  const webhook = (await c.video.webhooks.service.secret(org.id)).secret;
  await c.secrets.set('providers.fal', 'fal-key');
  c.db.pragma('wal_checkpoint(TRUNCATE)'); // the database file alone is then whole (a copy of it is one)
  return { dir, orgId: org.id, webhook };
}

describe('secrets a data dir stored and no longer has', () => {
  it('are named, refused (not made anew), and start over only when the person says so', async () => {
    const { dir, orgId } = await original();
    const copy = tempDir();
    fs.copyFileSync(path.join(dir, 'agent-studio.db'), path.join(copy, 'agent-studio.db')); // no secrets file
    const moved = core(copy);
    expect(await moved.secretsInventory.missing()).toEqual(['providers.fal', `webhooks.secret:${orgId}`]);
    expect(await moved.secretsInventory.secretsHealth()).toEqual({ state: 'missing', missing: 2 });
    const refused = moved.video.webhooks.service.secret(orgId);
    await expect(refused).rejects.toBeInstanceOf(SecretsMissingError);
    await expect(refused).rejects.toThrow(/webhook signing secret of this organization is missing/);
    expect(await moved.secretsInventory.listAccounts('')).toEqual([]); // nothing made in its place

    expect(await moved.secretsInventory.forgetMissing()).toHaveLength(2);
    expect(await moved.secretsInventory.secretsHealth()).toEqual({ state: 'ok', missing: 0 });
    expect((await moved.video.webhooks.service.secret(orgId)).secret).toMatch(/^whsec_/);
  });

  it('a secret stored again (the person enters it anew) is no longer missing', async () => {
    const { dir } = await original();
    const copy = tempDir();
    fs.copyFileSync(path.join(dir, 'agent-studio.db'), path.join(copy, 'agent-studio.db'));
    const moved = core(copy);
    await moved.secrets.set('providers.fal', 'entered again');
    expect(await moved.secretsInventory.missing()).toHaveLength(1);
  });

  it('a data dir of a version without the inventory takes what its store holds as the start', async () => {
    const { dir, orgId } = await original();
    const c = core(dir);
    c.db.prepare('DELETE FROM secret_inventory').run();
    c.db.prepare("DELETE FROM settings WHERE key = 'secret_inventory_seeded'").run();
    expect(await c.secretsInventory.missing()).toEqual([]);
    expect(
      (c.db.prepare('SELECT account FROM secret_inventory ORDER BY account').all() as { account: string }[]).map(
        (r) => r.account,
      ),
    ).toEqual(['providers.fal', `webhooks.secret:${orgId}`]);
  });
});

describe('a vault whose key is lost', () => {
  it('answers SECRETS_MISSING; forget-missing sets the file aside and saved logins take their secrets again', async () => {
    const { dir } = await original();
    const first = core(dir);
    await first.secrets.set('saved-login:cred_1', '{"v":1,"password":"pw"}');
    first.db.pragma('wal_checkpoint(TRUNCATE)');
    // the data dir moved without its secrets (the file backend's secrets.enc.json and key stayed behind)
    const copy = tempDir();
    for (const f of ['agent-studio.db', 'vault.enc.json']) fs.copyFileSync(path.join(dir, f), path.join(copy, f));
    const moved = core(copy);
    await expect(moved.secrets.get('saved-login:cred_1')).rejects.toBeInstanceOf(SecretsMissingError);
    expect(await moved.secretsInventory.missing()).toContain('vault-key');

    const { forgotten, vaultSetAside } = await moved.forgetMissingSecrets();
    expect(forgotten).toContain('vault-key');
    expect(vaultSetAside).toMatch(/vault\.enc\.json\.lost-/);
    expect(fs.existsSync(vaultSetAside!)).toBe(true); // kept, should the key turn up
    expect(await moved.secrets.get('saved-login:cred_1')).toBeNull(); // a new, empty vault
    await moved.secrets.set('saved-login:cred_1', '{"v":1,"password":"entered again"}');
    expect(await moved.secrets.get('saved-login:cred_1')).toBe('{"v":1,"password":"entered again"}');
    expect(await moved.secretsInventory.missing()).toEqual([]);
  });
});

describe("the encrypted file's key file", () => {
  it('is not made anew when the file it opens is there without it: refused, saying how', async () => {
    const { dir } = await original();
    fs.rmSync(path.join(dir, 'secrets.key'));
    const c = core(dir);
    await expect(c.secrets.get('providers.fal')).rejects.toBeInstanceOf(SecretStoreUnavailableError);
    await expect(c.secrets.get('providers.fal')).rejects.toThrow(
      /secrets\.enc\.json is in the data dir but neither its key file secrets\.key nor AGENT_STUDIO_MASTER_KEY/,
    );
    expect(fs.existsSync(path.join(dir, 'secrets.key'))).toBe(false);
  });
});
