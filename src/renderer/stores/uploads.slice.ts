import type { StateCreator } from 'zustand';
import type { PickedFile, UploadedFile, UploadKind, UploadProgress } from '../../shared/ipc-contract.js';
import { errorMessage, invoke } from '../lib/api';
import type { AppState } from './app-store';

export type { UploadKind };

export interface UploadItem {
  file: PickedFile;
  status: 'picked' | 'uploading' | 'done' | 'failed';
  loaded: number;
  result: UploadedFile | null;
  error: string | null;
  /** Which screen started it (the Uploads screen lists its own). */
  origin: string;
}

export interface UploadsSlice {
  uploads: UploadItem[];
  /** Shows the file picker; null when cancelled. */
  pickFile(kind: UploadKind, origin?: string): Promise<PickedFile | null>;
  upload(token: string): Promise<UploadedFile>;
  applyUploadProgress(p: UploadProgress): void;
  /** Pick then upload in one go (Generate and Characters). Null when the pick is cancelled. */
  pickAndUpload(kind: UploadKind, origin: string): Promise<UploadedFile | null>;
}

export const createUploadsSlice: StateCreator<AppState, [], [], UploadsSlice> = (set, get) => {
  const patch = (token: string, change: Partial<UploadItem>) =>
    set((s) => ({ uploads: s.uploads.map((u) => (u.file.token === token ? { ...u, ...change } : u)) }));
  return {
    uploads: [],
    async pickFile(kind, origin = 'uploads') {
      const file = await invoke('uploads:pickFile', { kind });
      if (file)
        set((s) => ({
          uploads: [{ file, status: 'picked', loaded: 0, result: null, error: null, origin }, ...s.uploads],
        }));
      return file;
    },
    async upload(token) {
      patch(token, { status: 'uploading', error: null, loaded: 0 });
      try {
        const result = await invoke('uploads:upload', { file: token });
        patch(token, { status: 'done', result, loaded: result.size });
        return result;
      } catch (err) {
        patch(token, { status: 'failed', error: errorMessage(err) });
        throw err;
      }
    },
    applyUploadProgress(p) {
      if (!p.id) return;
      const item = get().uploads.find((u) => u.file.token === p.id);
      if (!item || item.status === 'done' || item.status === 'failed') return;
      patch(p.id, { loaded: p.loaded });
    },
    async pickAndUpload(kind, origin) {
      const file = await get().pickFile(kind, origin);
      if (!file) return null;
      return get().upload(file.token);
    },
  };
};
