// The backup file (src/main/core/backup): what `backup create` writes opens only with its passphrase, only whole and
// unchanged, only into a data dir that holds no installation, and never writes a file outside what a data dir holds.
// Real parts: a real core on each side (its database, its encrypted-file secret store), real files.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  BackupDamagedError,
  BackupPassphraseError,
  BackupSealer,
  CHUNK,
  SEALED_CHUNK,
} from '../../../src/main/core/backup/backup-crypto.js';
import { entryBytes, restorablePath } from '../../../src/main/core/backup/backup-entries.js';
import { createBackup } from '../../../src/main/core/backup/create-backup.js';
import { readBackupHeader, restoreBackup, RestoreRefusedError } from '../../../src/main/core/backup/restore-backup.js';
import { parseConfig } from '../../../src/main/core/config/load-config.js';
import { createCore, type Core } from '../../../src/main/core/create-core.js';
import { openDatabase } from '../../../src/main/core/db/database.js';
import { MIGRATIONS } from '../../../src/main/core/db/migrations/index.js';
import { SettingsRepo } from '../../../src/main/core/db/settings.repo.js';
import { tempDir } from '../../helpers/temp-dir.js';

const PASS = 'correct horse battery staple';
const core = (dataDir: string) =>
  createCore(parseConfig({ dataDir, log: { level: 'silent' }, secrets: { backend: 'file' } }));

/** Media files whose sizes sit on and around the 64 KiB chunk boundary, and one empty. */
const MEDIA: Record<string, number> = {
  'blobs/empty.bin': 0,
  'blobs/a/chunk.bin': CHUNK,
  'blobs/a/chunk-plus-one.bin': CHUNK + 1,
  'blobs/b/c/large.bin': 3 * CHUNK + 17,
};
const bytesOf = (name: string, size: number) =>
  Buffer.from(Array.from({ length: size }, (_, i) => (i * 31 + name.length) % 251));

/** A data dir with an organization, a webhook secret, a secret of its own, media and a config file. */
async function source(): Promise<{ dir: string; core: Core; webhook: string; orgId: string }> {
  const dir = tempDir();
  const c = core(dir);
  const org = c.orgs.create('acme');
  await c.secrets.set('providers.fal', 'fal-key-1234');
  const webhook = (await c.video.webhooks.service.secret(org.id)).secret;
  for (const [name, size] of Object.entries(MEDIA)) {
    fs.mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
    fs.writeFileSync(path.join(dir, name), bytesOf(name, size));
  }
  fs.writeFileSync(path.join(dir, 'config.json'), '{"server":{"port":4811}}');
  return { dir, core: c, webhook, orgId: org.id };
}

async function backup(src: { dir: string; core: Core }, opts: { media?: boolean } = {}): Promise<string> {
  const out = path.join(tempDir(), 'backup.asb');
  await createBackup({
    dataDir: src.dir,
    db: src.core.db,
    secrets: src.core.secretsInventory,
    out,
    passphrase: PASS,
    media: opts.media ?? true,
  });
  return out;
}

function restore(file: string, dataDir: string, passphrase = PASS) {
  return restoreBackup({
    file,
    dataDir,
    passphrase,
    openTarget: async (staging) => core(staging),
  });
}

describe('backup create and restore', () => {
  it('brings back the database, the files, the media byte for byte and every secret, as a new installation', async () => {
    const src = await source();
    const file = await backup(src);
    const stored = await src.core.secretsInventory.listAccounts('');
    expect(stored).toEqual(expect.arrayContaining(['providers.fal', `webhooks.secret:${src.orgId}`]));
    expect(readBackupHeader(file).header.contents).toEqual({
      files: 2 + Object.keys(MEDIA).length,
      bytes: expect.any(Number),
      secrets: stored.length,
      media: true,
    });
    // nothing readable in the file: not the secret, not the webhook secret, not a media byte run
    const raw = fs.readFileSync(file);
    for (const needle of ['fal-key-1234', src.webhook, 'acme', '"port":4811']) expect(raw.includes(needle)).toBe(false);

    const dir = path.join(tempDir(), 'restored');
    const done = await restore(file, dir);
    expect(done).toMatchObject({ files: 2 + Object.keys(MEDIA).length, secrets: stored.length, stillMissing: [] });
    for (const [name, size] of Object.entries(MEDIA)) {
      expect(fs.readFileSync(path.join(dir, name)).equals(bytesOf(name, size))).toBe(true);
    }
    expect(fs.readFileSync(path.join(dir, 'config.json'), 'utf8')).toBe('{"server":{"port":4811}}');
    expect(fs.readdirSync(dir).filter((n) => n.startsWith('.restore-'))).toEqual([]);

    const back = core(dir);
    try {
      expect(back.orgs.resolve('acme')?.id).toBe(src.orgId);
      expect(await back.secrets.get('providers.fal')).toBe('fal-key-1234');
      expect((await back.video.webhooks.service.secret(src.orgId)).secret).toBe(src.webhook);
      expect(await back.secretsInventory.missing()).toEqual([]);
      // its own keychain namespace: the original, if it still runs on this computer, keeps its items
      expect(new SettingsRepo(back.db).get('install_id')).not.toBe(src.core.installId);
    } finally {
      await back.dispose();
      await src.core.dispose();
    }
  });

  it('--without-media leaves the media out', async () => {
    const src = await source();
    const file = await backup(src, { media: false });
    await src.core.dispose();
    const dir = tempDir();
    expect((await restore(file, dir)).files).toBe(2);
    expect(fs.existsSync(path.join(dir, 'blobs'))).toBe(false);
  });

  it('a wrong passphrase, a changed byte, a cut end or a dropped chunk opens nothing and writes nothing', async () => {
    const src = await source();
    const file = await backup(src);
    await src.core.dispose();
    const size = fs.statSync(file).size;
    const { head } = readBackupHeader(file);
    const variants: Array<[string, Buffer, new (...a: never[]) => Error]> = [];
    const flipped = fs.readFileSync(file);
    flipped[head.length + SEALED_CHUNK + 100] ^= 1;
    variants.push(['changed byte', flipped, BackupDamagedError]);
    // the end cut off at a chunk boundary: what is left opens chunk by chunk, but its last chunk is not the last
    variants.push([
      'cut at a chunk',
      fs.readFileSync(file).subarray(0, head.length + 2 * SEALED_CHUNK),
      BackupDamagedError,
    ]);
    variants.push(['cut mid-chunk', fs.readFileSync(file).subarray(0, size - 7), BackupDamagedError]);
    const all = fs.readFileSync(file);
    const dropped = Buffer.concat([all.subarray(0, head.length), all.subarray(head.length + SEALED_CHUNK)]);
    variants.push(['first chunk dropped', dropped, BackupDamagedError]);
    const header = Buffer.from(all);
    header.write('9', header.indexOf('"app_version":"') + 15); // the version said, changed
    variants.push(['header changed', header, BackupPassphraseError]);

    await expect(restore(file, path.join(tempDir(), 'x'), 'not the passphrase!')).rejects.toBeInstanceOf(
      BackupPassphraseError,
    );
    for (const [what, bytes, error] of variants) {
      const changed = path.join(tempDir(), `${what}.asb`);
      fs.writeFileSync(changed, bytes);
      const dir = path.join(tempDir(), 'restored');
      await expect(restore(changed, dir), what).rejects.toBeInstanceOf(error);
      expect(fs.existsSync(dir) ? fs.readdirSync(dir) : [], what).toEqual([]);
    }
  });

  it('refuses a data dir that holds an installation or anything else, and a backup of a newer schema, changing nothing', async () => {
    const src = await source();
    const file = await backup(src);
    const taken = tempDir();
    openDatabase(taken).close();
    const before = fs.readdirSync(taken).sort();
    await expect(restore(file, taken)).rejects.toThrow(RestoreRefusedError);
    expect(fs.readdirSync(taken).sort()).toEqual(before);

    // a folder of other things (a home directory given by mistake): refused, nothing in it touched
    const busy = tempDir();
    fs.writeFileSync(path.join(busy, 'config.json'), 'mine');
    await expect(restore(file, busy)).rejects.toThrow(/is not empty \(config\.json\)/);
    expect(fs.readdirSync(busy)).toEqual(['config.json']);
    expect(fs.readFileSync(path.join(busy, 'config.json'), 'utf8')).toBe('mine');

    // a database a newer version migrated (one migration more): its backup says so, and is refused here
    const future = { version: MIGRATIONS.length + 1, name: 'future', sql: 'CREATE TABLE future_things (id TEXT)' };
    const newer = openDatabase(tempDir(), [...MIGRATIONS, future]);
    const out = path.join(tempDir(), 'newer.asb');
    await createBackup({
      dataDir: src.dir,
      db: newer,
      secrets: src.core.secretsInventory,
      out,
      passphrase: PASS,
      media: false,
    });
    newer.close();
    await src.core.dispose();
    const dir = path.join(tempDir(), 'restored');
    await expect(restore(out, dir)).rejects.toThrow(
      new RegExp(`newer Agent Studio .*schema ${MIGRATIONS.length + 1}.*up to ${MIGRATIONS.length}`),
    );
    expect(fs.existsSync(dir)).toBe(false);
  });

  it('writes the backup nowhere inside the data dir, and wants a passphrase of 12 characters or more', async () => {
    const src = await source();
    const args = { dataDir: src.dir, db: src.core.db, secrets: src.core.secretsInventory, media: false };
    await expect(createBackup({ ...args, out: path.join(src.dir, 'b.asb'), passphrase: PASS })).rejects.toThrow(
      /outside the data dir/,
    );
    await expect(createBackup({ ...args, out: path.join(tempDir(), 'b.asb'), passphrase: 'short' })).rejects.toThrow(
      /at least 12/,
    );
    await src.core.dispose();
  });

  it('a backup that names a file outside what a data dir holds is refused before anything lands', async () => {
    // Made with the passphrase (as someone who knows it could), so only the path check stands in the way.
    const file = path.join(tempDir(), 'hostile.asb');
    const fd = fs.openSync(file, 'w');
    const sealer = await BackupSealer.open(
      PASS,
      {
        format: 'agent-studio-backup',
        v: 1,
        app_version: '0.1.0',
        schema: 1,
        created_at: Date.now(),
        contents: { files: 1, bytes: 4, secrets: 0, media: false },
      },
      async (b) => void fs.writeSync(fd, b),
    );
    await sealer.push(entryBytes({ kind: 'secrets', size: 2 }));
    await sealer.push(Buffer.from('[]'));
    await sealer.push(entryBytes({ kind: 'file', path: 'blobs/../../escaped.txt', size: 4 }));
    await sealer.push(Buffer.from('evil'));
    await sealer.push(entryBytes({ kind: 'end', files: 1, secrets: 0 }));
    await sealer.end();
    fs.closeSync(fd);
    const parent = tempDir();
    const dir = path.join(parent, 'restored');
    await expect(restore(file, dir)).rejects.toThrow(/outside what a data dir holds/);
    expect(fs.readdirSync(parent)).toEqual(['restored']);
    expect(fs.readdirSync(dir)).toEqual([]);
  });

  it('restorable paths: the database, the side files and media only', () => {
    for (const ok of ['agent-studio.db', 'config.json', 'settings.json', 'vault.enc.json', 'blobs/a', 'blobs/x/y.mp4'])
      expect(restorablePath(ok), ok).toBe(ok);
    for (const bad of [
      '../x',
      '/etc/passwd',
      'blobs/../../x',
      'blobs/./x',
      'blobs//x',
      'C:/x',
      'blobs\\x',
      'secrets.key',
      'secrets.enc.json',
      'server.json',
      'blobs',
      'blobs/',
      'logs/agent-studio.log',
      '',
      42,
    ])
      expect(restorablePath(bad), String(bad)).toBeNull();
  });
});
