import type { StateCreator } from 'zustand';

import type { PickedFile, UploadedFile } from '../../shared/ipc-contract.js';
import { errorMessage, invoke } from '../lib/api';

import { pickedFromFile } from '../lib/dropped-files';

import { initialLoadable } from './loadable';
import type { AppState, UploadItem, UploadsSlice } from './store-types';

export type { UploadItem, UploadKind } from './store-types';

export const createUploadsSlice: StateCreator<AppState, [], [], UploadsSlice> = (set, get) => {
  const patch = (token: string, change: Partial<UploadItem>) =>
    set((s) => ({ uploads: s.uploads.map((u) => (u.file.token === token ? { ...u, ...change } : u)) }));
  const track = (file: PickedFile, origin: string) =>
    set((s) => ({ uploads: [{ file, status: 'picked', loaded: 0, result: null, error: null, origin }, ...s.uploads] }));
  return {
    uploads: [],
    async pickFile(kind, origin = 'uploads') {
      const file = await invoke('uploads:pickFile', { kind });
      if (file) track(file, origin);
      return file;
    },
    async upload(token) {
      patch(token, { status: 'uploading', error: null, loaded: 0 });
      try {
        const result = await invoke('uploads:upload', { file: token });
        patch(token, { status: 'done', result, loaded: result.size });
        void get().loadStoredUploads({ quiet: true });
        return result;
      } catch (err) {
        patch(token, { status: 'failed', error: errorMessage(err) });
        throw err;
      }
    },
    dismissUpload(token) {
      set((s) => ({ uploads: s.uploads.filter((u) => u.file.token !== token) }));
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
    async uploadFiles(files, origin) {
      const done: UploadedFile[] = [];
      for (const f of files) {
        const file = await pickedFromFile(f);
        track(file, origin);
        done.push(await get().upload(file.token));
      }
      return done;
    },
    storedUploads: initialLoadable([]),
    async loadStoredUploads({ quiet = false } = {}) {
      if (!quiet) set((s) => ({ storedUploads: { ...s.storedUploads, status: 'loading', error: null } }));
      try {
        const page = await invoke('uploads:list', { query: { limit: 100 } });
        set({ storedUploads: { status: 'ready', data: page.data, error: null } });
      } catch (err) {
        set((s) => ({ storedUploads: { ...s.storedUploads, status: 'error', error: errorMessage(err) } }));
      }
    },
    async deleteStoredUpload(key) {
      await invoke('uploads:delete', { params: { key } });
      set((s) => ({
        storedUploads: { ...s.storedUploads, data: s.storedUploads.data.filter((u) => u.s3_key !== key) },
      }));
    },
  };
};
