// Windows as a rename meets it while another program (antivirus, the search indexer, an editor) holds the file open
// for a moment, played on any OS: process.platform reads 'win32', and the first `times` renames from or to a path
// that `matches` fail with EPERM, as Windows' do; later ones go through. Only for code that reads process.platform
// when it runs (src/main/core/fs/replace-file.ts does) and calls fs.renameSync / fs.promises.rename.
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import { vi } from 'vitest';

const eperm = (from: string, to: string) =>
  Object.assign(new Error(`EPERM: operation not permitted, rename '${from}' -> '${to}'`), {
    code: 'EPERM',
    syscall: 'rename',
    path: from,
    dest: to,
  });

/** Runs `fn` with those renames refused; says how many were. */
export async function whileHeldOpen<T>(
  matches: (file: string) => boolean,
  times: number,
  fn: () => T | Promise<T>,
): Promise<{ result: T; refused: number }> {
  const platform = Object.getOwnPropertyDescriptor(process, 'platform')!;
  const renameSync = fs.renameSync;
  const rename = fsp.rename;
  let refused = 0;
  const refuse = (from: fs.PathLike, to: fs.PathLike) =>
    refused < times && (matches(String(from)) || matches(String(to))) && ++refused > 0;
  const syncSpy = vi.spyOn(fs, 'renameSync').mockImplementation((from, to) => {
    if (refuse(from, to)) throw eperm(String(from), String(to));
    renameSync(from, to);
  });
  const asyncSpy = vi.spyOn(fsp, 'rename').mockImplementation(async (from, to) => {
    if (refuse(from, to)) throw eperm(String(from), String(to));
    await rename(from, to);
  });
  Object.defineProperty(process, 'platform', { ...platform, value: 'win32' });
  try {
    const result = await fn();
    return { result, refused };
  } finally {
    Object.defineProperty(process, 'platform', platform);
    syncSpy.mockRestore();
    asyncSpy.mockRestore();
  }
}
