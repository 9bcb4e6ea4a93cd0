// Profiles are read from a copy: the browser may be running, and SQLite must never take a lock on (or write a
// journal next to) the person's own files. The copy lives in a 0700 temp dir, deleted as soon as it was read.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { AppError } from '../../errors.js';

export const profileLocked = (profile: string, why: string) =>
  new AppError(
    409,
    'profile_locked',
    `The browser holds the profile "${profile}" locked (${why}). Close the browser and try again.`,
    { reason: 'profile_locked' },
  );

/** SQLite companions copied along, so a copy of a database in WAL or rollback mode reads what the browser wrote. */
const COMPANIONS = ['', '-wal', '-journal', '-shm'];

/**
 * Copies a SQLite file (and its WAL/journal) into a private temp dir, opens the copy read-only, runs `read`, then
 * deletes the copy. A file the OS refuses to copy (Windows: the browser holds it exclusively) or a copy SQLite finds
 * busy is a 409 profile_locked naming the profile.
 */
export function readSqliteCopy<T>(file: string, profileName: string, read: (db: Database.Database) => T): T {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'agent-studio-profile-'));
  try {
    fs.chmodSync(dir, 0o700);
    const copy = path.join(dir, path.basename(file));
    for (const suffix of COMPANIONS) {
      try {
        fs.copyFileSync(file + suffix, copy + suffix);
      } catch (err) {
        const code = (err as NodeJS.ErrnoException).code;
        if (code === 'ENOENT' && suffix) continue;
        if (code === 'EBUSY' || code === 'EPERM' || code === 'EACCES')
          throw profileLocked(profileName, `copying ${path.basename(file)}${suffix} failed: ${code}`);
        throw err;
      }
    }
    let db: Database.Database | undefined;
    try {
      db = new Database(copy, { fileMustExist: true });
      return read(db);
    } catch (err) {
      if ((err as { code?: string }).code === 'SQLITE_BUSY' || (err as { code?: string }).code === 'SQLITE_LOCKED')
        throw profileLocked(profileName, 'its cookie database is busy');
      throw err;
    } finally {
      db?.close();
    }
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
