// The main-only channels of results and media: saving a text (a storageState, a snippet) or a
// generation's video where the person chooses, showing the video in the OS file manager, and files
// dropped or pasted into the window turned into picked files. Plain Node: the Electron layer supplies
// the OS parts (save dialog, file manager); the e2e bridge supplies stand-ins for them.
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { IpcResult } from '../../../shared/errors.js';
import { IPC_CONTRACT, type Generation, type SavedFile } from '../../../shared/ipc-contract.js';
import type { Core } from '../create-core.js';
import { renameRetrying } from '../fs/replace-file.js';
import { callHttpChannel, fail } from './http-channel.js';
import type { CoreApi } from '../http/in-process-api.js';
import type { LocalHandlers } from './ipc-dispatcher.js';
import type { PickedFiles } from './picked-files.js';

export type ResultsChannelName =
  | 'exports:saveText'
  | 'generations:saveVideo'
  | 'generations:showInFolder'
  | 'uploads:pickPasted'
  | 'uploads:pickDropped';

/** The OS parts: Electron's dialog and shell in the app, stand-ins in tests. */
export interface DesktopFileOs {
  /** The save dialog: the chosen path, or null when the person cancels. */
  chooseSavePath(opts: { title: string; defaultName: string; extensions: string[] }): Promise<string | null>;
  /** Opens the OS file manager with the file selected. */
  showItemInFolder(file: string): void;
}

export interface ResultsChannelDeps {
  api: CoreApi;
  files: PickedFiles;
  os: DesktopFileOs;
  /** The running core's blob store (its local files are read directly, never through a URL). */
  blobs(): Core['video']['blobs'];
  /** Where pasted images wait for their upload (default: a folder in the OS temp dir). */
  pasteDir?: string;
}

const EXTENSION_OF: Record<string, string> = {
  'image/png': 'png',
  'image/jpeg': 'jpg',
  'image/webp': 'webp',
  'image/gif': 'gif',
};

const saved = (file: string | null): IpcResult<SavedFile> => ({
  ok: true,
  value: { saved: file !== null, name: file ? path.basename(file) : null },
});

/** Writes through a temp file next to the target, so a failed write never leaves half a file under its name. */
export async function writeAtomic(target: string, source: Readable | string): Promise<void> {
  const part = `${target}.${crypto.randomBytes(4).toString('hex')}.part`;
  try {
    // 0600: an export may hold cookies; only its owner should read it.
    if (typeof source === 'string') await fs.promises.writeFile(part, source, { mode: 0o600 });
    else await pipeline(source, fs.createWriteStream(part, { mode: 0o600 }));
    await renameRetrying(part, target);
  } catch (err) {
    await fs.promises.rm(part, { force: true });
    throw err;
  }
}

const reason = (err: unknown) => (err as NodeJS.ErrnoException).code ?? (err as Error).message;

export function resultsChannels(deps: ResultsChannelDeps): Pick<LocalHandlers, ResultsChannelName> {
  /** Videos saved in this run, by generation id: "show in folder" shows the person's own copy. */
  const savedVideos = new Map<string, string>();
  let pasteDir: string | null = deps.pasteDir ?? null;

  const completed = async (id: string): Promise<IpcResult<Generation & { video_url: string }>> => {
    const res = await callHttpChannel(deps.api, IPC_CONTRACT['generations:get'], { params: { id } });
    if (!res.ok) return res;
    const g = res.value as Generation;
    if (g.status !== 'completed' || !g.video_url) {
      const why = g.files_expired_at ? 'its files were removed by retention' : `it is ${g.status}`;
      return fail('not_available', `Generation ${id} has no video to save: ${why}.`);
    }
    return { ok: true, value: { ...g, video_url: g.video_url } };
  };

  /** The stored video as a file on this computer (local storage), or null (S3). */
  const localFileOf = (videoUrl: string): string | null => {
    const url = new URL(videoUrl);
    const local = deps.blobs().selfServed;
    return local && deps.api.serves(url) ? local.fileOfUrl(url) : null;
  };

  return {
    'exports:saveText': async ({ defaultName, text }) => {
      const ext = path.extname(defaultName).slice(1) || 'txt';
      const file = await deps.os.chooseSavePath({ title: 'Save as', defaultName, extensions: [ext] });
      if (!file) return saved(null);
      try {
        await writeAtomic(file, text);
      } catch (err) {
        return fail('file_unwritable', `Cannot write ${path.basename(file)}: ${reason(err)}`);
      }
      return saved(file);
    },

    'generations:saveVideo': async ({ id }) => {
      const g = await completed(id);
      if (!g.ok) return g;
      const file = await deps.os.chooseSavePath({
        title: 'Save video',
        defaultName: `${id}.mp4`,
        extensions: ['mp4'],
      });
      if (!file) return saved(null);
      try {
        const local = localFileOf(g.value.video_url);
        if (local) {
          await writeAtomic(file, fs.createReadStream(local));
        } else {
          // Outside storage (S3): its own presigned URL. Never named in an error (it is a credential).
          const res = await fetch(g.value.video_url);
          if (!res.ok || !res.body) return fail('download_failed', `The storage answered ${res.status}.`);
          await writeAtomic(file, Readable.fromWeb(res.body as import('node:stream/web').ReadableStream));
        }
      } catch (err) {
        return fail('download_failed', `The video could not be saved: ${reason(err)}`);
      }
      savedVideos.set(id, file);
      return saved(file);
    },

    'generations:showInFolder': async ({ id }) => {
      const copy = savedVideos.get(id);
      if (copy && fs.existsSync(copy)) {
        deps.os.showItemInFolder(copy);
        return { ok: true, value: { shown: true } };
      }
      const g = await completed(id);
      if (!g.ok) return g;
      const local = localFileOf(g.value.video_url);
      if (!local || !fs.existsSync(local)) {
        return fail('not_available', 'The video is not stored on this computer (S3 storage): save it first.');
      }
      deps.os.showItemInFolder(local);
      return { ok: true, value: { shown: true } };
    },

    'uploads:pickPasted': async ({ name, content_type, data }) => {
      pasteDir ??= await fs.promises.mkdtemp(path.join(os.tmpdir(), 'agent-studio-pasted-'));
      const base = path.basename(name, path.extname(name)) || 'pasted image';
      const dir = path.join(pasteDir, crypto.randomUUID());
      await fs.promises.mkdir(dir, { recursive: true, mode: 0o700 });
      const file = path.join(dir, `${base}.${EXTENSION_OF[content_type]}`);
      await fs.promises.writeFile(file, Buffer.from(data, 'base64'), { mode: 0o600 });
      // The file is ours: removed once uploaded (or when the handle is dropped).
      const picked = await deps.files.pick(file, { owned: true });
      if (!picked.ok || !picked.value) {
        await fs.promises.rm(dir, { recursive: true, force: true });
        return picked.ok ? fail('internal_error', 'The pasted image could not be registered.') : picked;
      }
      return { ok: true, value: picked.value };
    },

    'uploads:pickDropped': async ({ path: file }) => {
      const picked = await deps.files.pick(file);
      if (!picked.ok) return picked;
      return picked.value ? { ok: true, value: picked.value } : fail('validation_error', 'No file was dropped.');
    },
  };
}
