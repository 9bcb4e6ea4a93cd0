// src/main/core/fs/replace-file.ts: a rename that another program's open handle blocks on Windows (EPERM, EACCES,
// EBUSY) is tried again, bounded; any other error, and the same codes off Windows, are thrown at once. The Windows
// branch runs here with the platform injected and a rename that fails as Windows' would.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  isLockedFileError,
  LOCKED_FILE_CODES,
  MAX_RETRIES,
  renameSyncRetrying,
  replaceFile,
  replaceFileSync,
  retryDelayMs,
  retryWhileLocked,
  retryWhileLockedSync,
} from '../../../src/main/core/fs/replace-file.js';
import { tempDir } from '../../helpers/temp-dir.js';

const errno = (code: string) => Object.assign(new Error(`${code}: rename failed`), { code });

/** A rename that throws `code` for its first `failures` calls (Infinity: always), then does `then`. */
function failingRename(code: string, failures: number, then: (from: string, to: string) => void = () => {}) {
  const thrown: Error[] = [];
  const rename = (from: string, to: string) => {
    if (thrown.length < failures) {
      const err = errno(code);
      thrown.push(err);
      throw err;
    }
    then(from, to);
  };
  return { rename, thrown };
}

const ALL_DELAYS = Array.from({ length: MAX_RETRIES }, (_, i) => retryDelayMs(i + 1));

describe('which errors are waited out', () => {
  it('exactly EPERM, EACCES and EBUSY, and only on Windows', () => {
    expect(LOCKED_FILE_CODES).toEqual(['EPERM', 'EACCES', 'EBUSY']);
    for (const code of LOCKED_FILE_CODES) {
      expect(isLockedFileError(errno(code), 'win32'), code).toBe(true);
      expect(isLockedFileError(errno(code), 'linux'), code).toBe(false);
      expect(isLockedFileError(errno(code), 'darwin'), code).toBe(false);
    }
    for (const code of ['ENOENT', 'EEXIST', 'EXDEV', 'ENOSPC', 'EISDIR', 'EMFILE'])
      expect(isLockedFileError(errno(code), 'win32'), code).toBe(false);
    expect(isLockedFileError(new Error('no code'), 'win32')).toBe(false);
    expect(isLockedFileError(null, 'win32')).toBe(false);
  });

  it('waits 10, 20, ... ms, at most 100 ms a time, about a second in all', () => {
    expect(ALL_DELAYS.slice(0, 4)).toEqual([10, 20, 30, 40]);
    expect(Math.max(...ALL_DELAYS)).toBe(100);
    const total = ALL_DELAYS.reduce((a, b) => a + b, 0);
    expect(total).toBeGreaterThanOrEqual(900);
    expect(total).toBeLessThanOrEqual(1200);
  });
});

// The sync and async retry loops, through one shape: run `rename` under the retry, its waits recorded in `waits`.
const variants = {
  sync: async (rename: () => void, platform: NodeJS.Platform, waits: number[]) =>
    retryWhileLockedSync(rename, { platform, wait: (ms) => void waits.push(ms) }),
  async: (rename: () => void, platform: NodeJS.Platform, waits: number[]) =>
    retryWhileLocked(async () => rename(), { platform, wait: async (ms) => void waits.push(ms) }),
};

/** What `promise` rejected with (fails the test when it resolves). */
const rejection = (promise: Promise<unknown>) =>
  promise.then(
    () => expect.unreachable('it should have failed'),
    (err: unknown) => err,
  );

describe.each(Object.entries(variants))('retryWhileLocked (%s)', (_name, run) => {
  it('on Windows, a rename that fails 3 times with EPERM, then succeeds, succeeds after 3 waits', async () => {
    let done = 0;
    const waits: number[] = [];
    const { rename, thrown } = failingRename('EPERM', 3, () => done++);
    await run(() => rename('a', 'b'), 'win32', waits);
    expect(waits).toEqual([10, 20, 30]);
    expect(thrown).toHaveLength(3);
    expect(done).toBe(1);
  });

  it('a rename that always fails with EBUSY is tried 1 + MAX_RETRIES times, then its own error is thrown', async () => {
    const waits: number[] = [];
    const { rename, thrown } = failingRename('EBUSY', Infinity);
    const err = await rejection(run(() => rename('a', 'b'), 'win32', waits));
    expect(thrown).toHaveLength(1 + MAX_RETRIES);
    expect(waits).toEqual(ALL_DELAYS);
    // not wrapped: the caller sees the rename's error, the last one it threw
    expect(err).toBe(thrown.at(-1));
    expect((err as NodeJS.ErrnoException).code).toBe('EBUSY');
  });

  it('ENOENT is thrown at once, without a wait', async () => {
    const waits: number[] = [];
    const { rename, thrown } = failingRename('ENOENT', Infinity);
    expect(await rejection(run(() => rename('a', 'b'), 'win32', waits))).toBe(thrown[0]);
    expect(thrown).toHaveLength(1);
    expect(waits).toEqual([]);
  });

  it.each(['linux', 'darwin'] as const)('on %s, EPERM is thrown at once (it does not pass there)', async (p) => {
    const waits: number[] = [];
    const { rename, thrown } = failingRename('EPERM', Infinity);
    expect(await rejection(run(() => rename('a', 'b'), p, waits))).toBe(thrown[0]);
    expect(thrown).toHaveLength(1);
    expect(waits).toEqual([]);
  });
});

describe('retryWhileLockedSync without an injected wait', () => {
  it('sleeps between the tries (blocking, without spinning)', () => {
    const { rename, thrown } = failingRename('EACCES', 2);
    const started = performance.now();
    retryWhileLockedSync(() => rename('a', 'b'), { platform: 'win32' });
    expect(thrown).toHaveLength(2);
    expect(performance.now() - started).toBeGreaterThanOrEqual(retryDelayMs(1) + retryDelayMs(2) - 2);
  });
});

/** The sync and async file replacement, with an injected rename that may fail before doing the real one. */
const replacers = {
  sync: async (file: string, data: string, rename: (from: string, to: string) => void, mode?: number) =>
    replaceFileSync(file, data, { platform: 'win32', wait: () => {}, rename, mode }),
  async: (file: string, data: string, rename: (from: string, to: string) => void, mode?: number) =>
    replaceFile(file, data, { platform: 'win32', wait: async () => {}, rename: async (a, b) => rename(a, b), mode }),
};

describe.each(Object.entries(replacers))('replaceFile (%s)', (_name, replace) => {
  const setup = () => {
    const dir = tempDir();
    const file = path.join(dir, 'config.json');
    fs.writeFileSync(file, 'old');
    return { dir, file };
  };

  it('replaces the file once the rename goes through after 4 EPERMs; no temp file is left', async () => {
    const { dir, file } = setup();
    const { rename, thrown } = failingRename('EPERM', 4, fs.renameSync);
    await replace(file, 'new', rename, 0o600);
    expect(thrown).toHaveLength(4);
    expect(fs.readFileSync(file, 'utf8')).toBe('new');
    if (process.platform !== 'win32') expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    expect(fs.readdirSync(dir)).toEqual(['config.json']);
  });

  it('a rename that never goes through: the old file stays, the temp file is removed, the EPERM is thrown', async () => {
    const { dir, file } = setup();
    const { rename, thrown } = failingRename('EPERM', Infinity);
    expect(await rejection(replace(file, 'new', rename))).toBe(thrown.at(-1));
    expect(thrown).toHaveLength(1 + MAX_RETRIES);
    expect(fs.readFileSync(file, 'utf8')).toBe('old');
    expect(fs.readdirSync(dir)).toEqual(['config.json']);
  });

  it('ENOENT from the rename: no retry, the temp file is removed', async () => {
    const { dir, file } = setup();
    const { rename, thrown } = failingRename('ENOENT', Infinity);
    await expect(replace(file, 'new', rename)).rejects.toMatchObject({ code: 'ENOENT' });
    expect(thrown).toHaveLength(1);
    expect(fs.readdirSync(dir)).toEqual(['config.json']);
  });

  it('with the real rename: creates the file when there is none, and fails in a folder that does not exist', async () => {
    const dir = tempDir();
    await replace(path.join(dir, 'server.json'), '{}', fs.renameSync);
    expect(fs.readFileSync(path.join(dir, 'server.json'), 'utf8')).toBe('{}');
    await expect(replace(path.join(dir, 'missing', 'x.json'), '{}', fs.renameSync)).rejects.toMatchObject({
      code: 'ENOENT',
    });
    expect(fs.readdirSync(dir)).toEqual(['server.json']);
  });
});

describe('renameSyncRetrying', () => {
  it('renames over an existing file', () => {
    const dir = tempDir();
    fs.writeFileSync(path.join(dir, 'a'), 'A');
    fs.writeFileSync(path.join(dir, 'b'), 'B');
    renameSyncRetrying(path.join(dir, 'a'), path.join(dir, 'b'));
    expect(fs.readdirSync(dir)).toEqual(['b']);
    expect(fs.readFileSync(path.join(dir, 'b'), 'utf8')).toBe('A');
  });
});
