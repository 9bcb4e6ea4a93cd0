// A downgrade: a data dir a newer Agent Studio migrated is refused by an older one, before anything is written.
// The older version would not see what the newer one keeps, and the next upgrade would find its writes half-made.
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseConfig } from '../../../src/main/core/config/load-config.js';
import { createCore } from '../../../src/main/core/create-core.js';
import { NewerDataDirError, openDatabase, WRITTEN_BY_SETTING } from '../../../src/main/core/db/database.js';
import { MIGRATIONS, type Migration } from '../../../src/main/core/db/migrations/index.js';
import { SettingsRepo } from '../../../src/main/core/db/settings.repo.js';
import { APP_VERSION } from '../../../src/shared/version.js';
import { tempDir } from '../../helpers/temp-dir.js';

const known = MIGRATIONS.length;
const future: Migration = { version: known + 1, name: 'future', sql: 'CREATE TABLE future_things (id TEXT)' };

/** A data dir as a newer version leaves it: one migration more, its version named, the WAL folded in. */
function dataDirOfNewerVersion(): string {
  const dir = tempDir();
  const db = openDatabase(dir, [...MIGRATIONS, future]);
  new SettingsRepo(db).set(WRITTEN_BY_SETTING, '9.0.0');
  db.pragma('wal_checkpoint(TRUNCATE)');
  db.close();
  return dir;
}

/** Every file of the data dir with a hash of its bytes: equal before and after means nothing was written. */
function snapshot(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name of fs.readdirSync(dir).sort()) {
    const file = path.join(dir, name);
    if (fs.statSync(file).isFile()) out[name] = crypto.createHash('sha256').update(fs.readFileSync(file)).digest('hex');
  }
  return out;
}

describe('a data dir written by a newer version', () => {
  it('is refused by openDatabase, naming both schemas and the newer version, with nothing written', () => {
    const dir = dataDirOfNewerVersion();
    const before = snapshot(dir);
    let thrown: unknown;
    try {
      openDatabase(dir);
    } catch (err) {
      thrown = err;
    }
    expect(thrown).toBeInstanceOf(NewerDataDirError);
    const err = thrown as NewerDataDirError;
    expect([err.dataSchema, err.knownSchema, err.writtenBy]).toEqual([known + 1, known, '9.0.0']);
    expect(err.message).toContain(`schema is ${known + 1}`);
    expect(err.message).toContain(`up to ${known}`);
    expect(err.message).toContain('9.0.0');
    expect(err.message).toMatch(/Nothing was changed/);
    expect(snapshot(dir)).toEqual(before);
  });

  it('stops the core from starting: no secrets file, no key, no log of a start', () => {
    const dir = dataDirOfNewerVersion();
    const before = snapshot(dir);
    const config = parseConfig({ dataDir: dir, log: { level: 'silent' }, secrets: { backend: 'file' } });
    expect(() => createCore(config)).toThrow(NewerDataDirError);
    expect(snapshot(dir)).toEqual(before);
  });

  it('the same or an older schema opens, and the core records which version last opened it', async () => {
    const dir = tempDir();
    const core = createCore(parseConfig({ dataDir: dir, log: { level: 'silent' }, secrets: { backend: 'file' } }));
    try {
      expect(new SettingsRepo(core.db).get(WRITTEN_BY_SETTING)).toBe(APP_VERSION);
    } finally {
      await core.dispose();
    }
    openDatabase(dir).close();
  });
});
