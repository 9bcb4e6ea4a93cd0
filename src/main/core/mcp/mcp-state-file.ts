// login's `path` (stdio only): the storageState (live cookies) written to a file only its owner can read.
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { StorageState } from '../../../shared/login.schema.js';
import { renameRetrying } from '../fs/replace-file.js';
import { ApiCallError } from '../http/in-process-api.js';
import type { McpFileAccess } from './mcp-files.js';

/**
 * Writes the state to `given` inside the MCP files folder with mode 0600: first to a new file beside it (created
 * 0600, so the cookies are never readable by others, not even for a moment), then moved into place — with a hard
 * link when the file must not exist (atomic: a file that appeared meanwhile is not replaced), or renamed over it
 * with `overwrite`. Returns the absolute path.
 */
export async function saveStorageState(
  files: McpFileAccess,
  given: string,
  state: StorageState,
  overwrite: boolean,
): Promise<string> {
  const target = await files.fileToWrite(given, overwrite, 'INVALID_REQUEST');
  const dir = path.dirname(target);
  const temp = path.join(dir, `.${path.basename(target)}.${crypto.randomBytes(6).toString('hex')}.tmp`);
  try {
    await fs.promises.writeFile(temp, JSON.stringify(state, null, 2), { mode: 0o600, flag: 'wx' });
    if (overwrite) await renameRetrying(temp, target);
    else await fs.promises.link(temp, target);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code ?? 'error';
    if (code === 'EEXIST')
      throw new ApiCallError(400, 'INVALID_REQUEST', `${given} exists; pass overwrite: true to replace it.`);
    throw new ApiCallError(400, 'INVALID_REQUEST', `The storageState could not be written to ${target} (${code}).`);
  } finally {
    await fs.promises.rm(temp, { force: true });
  }
  return target;
}
