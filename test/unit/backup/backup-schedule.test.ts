// Scheduled backups (src/main/core/backup/backup-schedule.ts) with real cores on one data dir and a clock the test
// moves: due once per period, made once when two processes look at the same moment, the oldest of its own files
// removed beyond the number to keep (nothing else in the folder), a failure said in the last run.
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { BackupScheduler } from '../../../src/main/core/backup/backup-schedule.js';
import { parseConfig } from '../../../src/main/core/config/load-config.js';
import { createCore, type Core } from '../../../src/main/core/create-core.js';
import { tempDir } from '../../helpers/temp-dir.js';

const PASS = 'scheduled backup passphrase';
const DAY = 24 * 3_600_000;
const cores: Core[] = [];
afterEach(async () => {
  for (const c of cores.splice(0)) await c.dispose();
});

function scheduler(dataDir: string, clock: { now: number }) {
  const core = createCore(parseConfig({ dataDir, log: { level: 'silent' }, secrets: { backend: 'file' } }));
  cores.push(core);
  return new BackupScheduler({
    db: core.db,
    dataDir,
    secrets: core.secrets,
    inventory: core.secretsInventory,
    log: core.log,
    now: () => clock.now,
  });
}

describe('scheduled backups', () => {
  it('one backup per period, made by one of two processes, the newest N of its own files kept', async () => {
    const dataDir = tempDir();
    const folder = tempDir();
    fs.writeFileSync(path.join(folder, 'notes.txt'), 'the person’s own file');
    const clock = { now: Date.parse('2026-12-07T10:00:00Z') };
    const a = scheduler(dataDir, clock);
    const b = scheduler(dataDir, clock);
    const set = await a.set({ folder, everyHours: 24, keep: 2, media: false }, PASS);
    expect(set.last).toMatchObject({ at: clock.now, error: null });
    expect(set.nextAt).toBe(clock.now + DAY);
    await b.runIfDue(); // the same moment: not due again
    const own = () =>
      fs
        .readdirSync(folder)
        .filter((n) => n.endsWith('.asb'))
        .sort();
    expect(own()).toEqual(['agent-studio-backup-2026-12-07T10-00-00Z.asb']);

    for (let day = 1; day <= 3; day++) {
      clock.now += DAY;
      await Promise.all([a.runIfDue(), b.runIfDue()]); // both look; one makes it
    }
    expect(own()).toEqual([
      'agent-studio-backup-2026-12-09T10-00-00Z.asb',
      'agent-studio-backup-2026-12-10T10-00-00Z.asb',
    ]);
    expect(fs.readFileSync(path.join(folder, 'notes.txt'), 'utf8')).toBe('the person’s own file');
  });

  it('refuses a folder inside the data dir, a missing folder, and no passphrase; a failed run is said', async () => {
    const dataDir = tempDir();
    const clock = { now: Date.now() };
    const s = scheduler(dataDir, clock);
    await expect(
      s.set({ folder: path.join(dataDir, 'blobs'), everyHours: 24, keep: 1, media: false }, PASS),
    ).rejects.toThrow(/does not exist/);
    fs.mkdirSync(path.join(dataDir, 'inside'));
    await expect(
      s.set({ folder: path.join(dataDir, 'inside'), everyHours: 24, keep: 1, media: false }, PASS),
    ).rejects.toThrow(/outside the data folder/);
    const folder = tempDir();
    await expect(s.set({ folder, everyHours: 24, keep: 1, media: false }, null)).rejects.toThrow(
      /a passphrase is needed/,
    );
    await expect(s.set({ folder, everyHours: 24, keep: 1, media: false }, 'short')).rejects.toThrow(/at least 12/);

    await s.set({ folder, everyHours: 24, keep: 1, media: false }, PASS);
    fs.rmSync(folder, { recursive: true }); // the folder went away (an unplugged disk)
    clock.now += DAY;
    await s.runIfDue();
    expect(s.view().last).toMatchObject({ at: clock.now, file: null, error: expect.stringMatching(/ENOENT/) });
    const off = await s.clear();
    expect(off).toMatchObject({ schedule: null, last: null, nextAt: null });
  });
});
