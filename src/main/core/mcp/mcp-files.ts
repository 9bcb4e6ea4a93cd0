// The one folder the MCP tools may read (upload_file) and write (login/refresh_session `path`) on this machine.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ERROR_CODE_STATUS, loginCodeName, type FixedStatusCode } from '../../../shared/errors.js';
import { missingScope, type RequiredScope } from '../../../shared/scopes.js';
import { forbidden as refusal } from '../errors.js';
import { ApiCallError } from '../http/in-process-api.js';

/** The folder when none is configured: in the person's home, apart from the data dir. */
export const DEFAULT_MCP_FILES_DIR = path.join(os.homedir(), 'Agent Studio files');

/**
 * File access is part of the stdio server only: that process is the person's own (their agent host launched it
 * with their rights), while a key sent over HTTP may belong to a less-trusted agent, and a key must never give
 * its holder the server's file system. Even over stdio every path is confined to one folder that does not hold
 * and is not held by the data dir (the database, `secrets.key`, `secrets.enc.json`), symlinks included, and a
 * file is never replaced unless the call asks for it.
 */
export interface McpFileAccessOptions {
  /** The folder (created 0700 on first use). */
  folder: string;
  /** The data dir of the core: refused as, inside or around the folder. */
  dataDir: string;
  /** The calling key's scopes now (null: no longer valid), checked before a file is looked at. */
  scopes: () => readonly string[] | null;
}

/** A refusal in the error-code style of the tool's API (login service `INVALID_REQUEST`, video `validation_error`). */
export type RefusalCode = 'INVALID_REQUEST' | 'validation_error';

const inside = (parent: string, child: string) => {
  const rel = path.relative(parent, child);
  return rel === '' || (!rel.startsWith('..') && !path.isAbsolute(rel));
};

/** realpath of the longest existing prefix, plus the rest: where a path really points before it exists. */
function realPathOf(p: string): string {
  const missing: string[] = [];
  let at = path.resolve(p);
  for (;;) {
    try {
      return path.join(fs.realpathSync(at), ...missing.reverse());
    } catch {
      const parent = path.dirname(at);
      if (parent === at) return path.resolve(p);
      missing.push(path.basename(at));
      at = parent;
    }
  }
}

export class McpFileAccess {
  readonly folder: string;
  private readonly dataDir: string;

  constructor(private readonly opts: McpFileAccessOptions) {
    this.folder = path.resolve(opts.folder);
    this.dataDir = realPathOf(opts.dataDir);
    const real = realPathOf(this.folder);
    if (inside(this.dataDir, real) || inside(real, this.dataDir)) {
      throw new Error(
        `The MCP files folder ${this.folder} must not be the data dir, inside it or around it (${opts.dataDir}).`,
      );
    }
  }

  /**
   * Refuses a key without `scope` before any path is resolved, so files reveal nothing to it; in the code style of
   * the tool's API (`FORBIDDEN` for the login service's tools, `forbidden` for the video service's).
   */
  requireScope(needed: RequiredScope | null, api: 'login' | 'video' = 'video'): void {
    const scopes = this.opts.scopes();
    const named = (code: FixedStatusCode) => (api === 'login' ? loginCodeName(code) : code);
    const { unauthorized, forbidden } = ERROR_CODE_STATUS;
    if (!scopes) throw new ApiCallError(unauthorized, named('unauthorized'), 'The API key is no longer valid.');
    const missing = needed && missingScope(scopes, needed);
    if (missing) throw new ApiCallError(forbidden, named('forbidden'), refusal(missing).message); // the API's words
  }

  /** A path as the person gave it (absolute, or relative to the folder), resolved through symlinks and confined. */
  private confine(given: string, code: RefusalCode): string {
    const wanted = path.resolve(this.folder, given);
    const real = realPathOf(wanted);
    const folder = realPathOf(this.folder);
    if (!inside(folder, real) || real === folder || inside(this.dataDir, real)) {
      throw new ApiCallError(
        400,
        code,
        `path must name a file inside ${this.folder} (the MCP files folder); ${given} is not.`,
      );
    }
    return real;
  }

  /** A regular file inside the folder, for reading. */
  async fileToRead(given: string, code: RefusalCode = 'validation_error'): Promise<string> {
    const file = this.confine(given, code);
    const stat = await fs.promises.stat(file).catch(() => null);
    if (!stat) throw new ApiCallError(400, code, `No file at ${given} in ${this.folder}.`);
    if (!stat.isFile()) throw new ApiCallError(400, code, `${given} is not a regular file.`);
    return file;
  }

  /**
   * Where to write a new file inside the folder (its folders are created 0700). An existing file is replaced
   * only with `overwrite`; anything that is not a regular file (a folder, a symlink, a device) never is.
   */
  async fileToWrite(given: string, overwrite: boolean, code: RefusalCode = 'validation_error'): Promise<string> {
    const refused = (message: string) => new ApiCallError(400, code, message);
    await fs.promises.mkdir(this.folder, { recursive: true, mode: 0o700 });
    const target = this.confine(given, code);
    await fs.promises.mkdir(path.dirname(target), { recursive: true, mode: 0o700 });
    // The folders now exist: resolve again, so a symlinked folder created meanwhile cannot lead outside.
    if (this.confine(target, code) !== target) throw refused(`${given} changed while it was being written.`);
    const stat = await fs.promises.lstat(target).catch(() => null);
    if (stat && !stat.isFile()) throw refused(`${given} exists and is not a regular file.`);
    if (stat && !overwrite) throw refused(`${given} exists; pass overwrite: true to replace it.`);
    return target;
  }
}
