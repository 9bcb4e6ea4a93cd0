// Files the person chose in the OS file picker, known to the renderer only by an opaque token (the
// contract's PickedFileToken field kind), so a compromised page cannot make the app read an
// arbitrary path. Plain Node: the Electron layer shows the dialog and hands the chosen path here.
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { IpcResult } from '../../../shared/errors.js';
import type { PickedFile, UploadKind } from '../../../shared/ipc-contract.js';
import { MEDIA_TYPES, type MediaKind } from '../../../shared/media-types.js';

/** Extension (no dot, lower case) -> content type and kind, from the service's own media table. */
const BY_EXTENSION = new Map<string, { type: string; kind: MediaKind }>();
for (const [type, { kind, ext }] of Object.entries(MEDIA_TYPES)) {
  if (!BY_EXTENSION.has(ext)) BY_EXTENSION.set(ext, { type, kind });
}
BY_EXTENSION.set('jpeg', { type: 'image/jpeg', kind: 'image' });

export const contentTypeOf = (fileName: string): string =>
  BY_EXTENSION.get(path.extname(fileName).slice(1).toLowerCase())?.type ?? 'application/octet-stream';

/** The extensions the file picker offers for a kind of upload. */
export function uploadExtensions(kind: UploadKind): string[] {
  return [...BY_EXTENSION].filter(([, v]) => kind === 'any' || v.kind === kind).map(([ext]) => ext);
}

export interface PickedFileEntry extends PickedFile {
  path: string;
  /** The app wrote this file itself (a pasted image): it is deleted once the handle is used or dropped. */
  owned?: boolean;
}

const MAX_PICKED = 100;

const fail = (code: string, message: string) => ({ ok: false as const, error: { code, message } });
const reason = (err: unknown) => (err as NodeJS.ErrnoException).code ?? (err as Error).message;

export class PickedFiles {
  private readonly entries = new Map<string, PickedFileEntry>();

  /** Registers a chosen path (null: the person cancelled) and answers what the renderer may see of it. */
  async pick(file: string | null, opts: { owned?: boolean } = {}): Promise<IpcResult<PickedFile | null>> {
    if (!file) return { ok: true, value: null };
    const name = path.basename(file);
    let size: number;
    try {
      const stat = await fs.promises.stat(file);
      if (!stat.isFile()) return fail('validation_error', `${name} is not a file.`);
      size = stat.size;
    } catch (err) {
      return fail('file_unreadable', `Cannot read ${name}: ${reason(err)}`);
    }
    const entry: PickedFileEntry = {
      token: crypto.randomUUID(),
      name,
      size,
      content_type: contentTypeOf(name),
      path: file,
      ...(opts.owned ? { owned: true } : {}),
    };
    this.entries.set(entry.token, entry);
    // The oldest handles go first: a page cannot make the map grow without bound.
    if (this.entries.size > MAX_PICKED) this.forget(this.entries.keys().next().value as string);
    const { path: _path, owned: _owned, ...visible } = entry;
    return { ok: true, value: visible };
  }

  get(token: string): PickedFileEntry | undefined {
    return this.entries.get(token);
  }

  /** A handle is single use: forgotten once its file is uploaded. */
  forget(token: string): void {
    const entry = this.entries.get(token);
    this.entries.delete(token);
    if (entry?.owned) {
      // Its own folder goes too when it is left empty (rmdir never removes a folder with files in it).
      void fs.promises
        .rm(entry.path, { force: true })
        .then(() => fs.promises.rmdir(path.dirname(entry.path)))
        .catch(() => undefined);
    }
  }
}
