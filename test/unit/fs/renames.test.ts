// Every rename in the app's code goes through src/main/core/fs/replace-file.ts, which waits out another program
// holding the file open on Windows (antivirus, the search indexer, an editor), so no bare fs.renameSync or
// fs.promises.rename creeps back in. The one exception is named with its reason. Two of the sites are also played
// against Windows' refusals: a file the person exports over, and a stored blob.
import fs from 'node:fs';
import path from 'node:path';
import { Readable } from 'node:stream';
import { expect, it } from 'vitest';
import { writeAtomic } from '../../../src/main/core/desktop/results-channels.js';
import { writeFileAtomic } from '../../../src/main/core/video/uploads/storage/stream-guards.js';
import { whileHeldOpen } from '../../helpers/held-open.js';
import { REPO_ROOT } from '../../helpers/repo-root.js';
import { tempDir } from '../../helpers/temp-dir.js';

const HELPER = 'src/main/core/fs/replace-file.ts';
/** Renames left bare on purpose, and why. */
const BARE_ON_PURPOSE: Record<string, string> = {
  // breakStale moves a crashed holder's lock aside; any failure means "not now", and the lock's wait loop retries
  'src/main/core/secrets/file-lock.ts': 'the lock wait loop tries again',
};

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const full = path.join(dir, e.name);
    if (e.isDirectory()) return sourceFiles(full);
    return /\.(ts|tsx|mts|mjs)$/.test(e.name) ? [full] : [];
  });
}

/** `renameSync(` or a `.rename(` call (fs.promises.rename, fsp.rename, a file handle's), comments left out. */
const RENAME_CALL = /\brenameSync\s*\(|\.rename\s*\(/;

it('no code under src/ renames a file except through replace-file.ts', () => {
  const bare = sourceFiles(path.join(REPO_ROOT, 'src'))
    .map((file) => path.relative(REPO_ROOT, file).split(path.sep).join('/'))
    .filter((rel) => rel !== HELPER && !(rel in BARE_ON_PURPOSE))
    .filter((rel) =>
      fs
        .readFileSync(path.join(REPO_ROOT, rel), 'utf8')
        .split('\n')
        .some((line) => !/^\s*(\/\/|\*)/.test(line) && RENAME_CALL.test(line)),
    );
  expect(bare).toEqual([]);
});

it('the exceptions still rename bare (else they should leave the list)', () => {
  for (const rel of Object.keys(BARE_ON_PURPOSE))
    expect(fs.readFileSync(path.join(REPO_ROOT, rel), 'utf8'), rel).toMatch(RENAME_CALL);
});

it('on Windows, an export saved over a file another program holds open lands once it lets go', async () => {
  const dir = tempDir();
  const target = path.join(dir, 'cookies.json');
  fs.writeFileSync(target, 'old');
  const { refused } = await whileHeldOpen(
    (f) => f === target,
    3,
    () => writeAtomic(target, Readable.from(['new'])),
  );
  expect(refused).toBe(3);
  expect(fs.readFileSync(target, 'utf8')).toBe('new');
  expect(fs.readdirSync(dir)).toEqual(['cookies.json']);
});

it('on Windows, a blob is stored although its rename into place is refused for a moment (antivirus scanning it)', async () => {
  const dir = tempDir();
  const dest = path.join(dir, 'blob');
  const { refused } = await whileHeldOpen(
    (f) => f === dest,
    2,
    () => writeFileAtomic(dest, Buffer.from('bytes')),
  );
  expect(refused).toBe(2);
  expect(fs.readFileSync(dest, 'utf8')).toBe('bytes');
});
