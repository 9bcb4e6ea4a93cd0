// login's `path`: the storageState (live cookies) written to a file only its owner can read.
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { StorageState } from '../../../shared/login.schema.js';
import { ApiCallError } from './mcp-api.js';

/**
 * Writes the state to `file` with mode 0600: first to a new file beside it (created 0600, so the cookies are
 * never readable by others, not even for a moment), then renamed over the target. Returns the absolute path.
 */
export async function saveStorageState(file: string, state: StorageState): Promise<string> {
  if (!path.isAbsolute(file)) {
    throw new ApiCallError(400, 'INVALID_REQUEST', 'path must be an absolute file path.');
  }
  const target = path.resolve(file);
  const dir = path.dirname(target);
  const stat = await fs.promises.stat(target).catch(() => null);
  if (stat && !stat.isFile()) throw new ApiCallError(400, 'INVALID_REQUEST', `${target} exists and is not a file.`);
  if (!(await fs.promises.stat(dir).catch(() => null))?.isDirectory()) {
    throw new ApiCallError(400, 'INVALID_REQUEST', `The folder ${dir} does not exist.`);
  }
  const temp = path.join(dir, `.${path.basename(target)}.${crypto.randomBytes(6).toString('hex')}.tmp`);
  try {
    await fs.promises.writeFile(temp, JSON.stringify(state, null, 2), { mode: 0o600, flag: 'wx' });
    await fs.promises.rename(temp, target);
  } catch (err) {
    await fs.promises.rm(temp, { force: true });
    const code = (err as NodeJS.ErrnoException).code ?? 'error';
    throw new ApiCallError(400, 'INVALID_REQUEST', `The storageState could not be written to ${target} (${code}).`);
  }
  return target;
}
