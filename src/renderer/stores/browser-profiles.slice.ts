import type { StateCreator } from 'zustand';

import { ApiError, errorMessage, invoke } from '../lib/api';

import { initialLoadable } from './loadable';
import type { AppState, BrowserProfilesSlice, ProfileImportRun } from './store-types';

export type { BrowserProfileList, ProfileImport, ProfileImportRun } from './store-types';

export const createBrowserProfilesSlice: StateCreator<AppState, [], [], BrowserProfilesSlice> = (set, get) => ({
  browserProfiles: initialLoadable({ data: [], roots: [] }),
  async loadBrowserProfiles() {
    set((s) => ({ browserProfiles: { ...s.browserProfiles, status: 'loading', error: null } }));
    try {
      const list = await invoke('browserProfiles:list');
      set({ browserProfiles: { status: 'ready', data: list, error: null } });
    } catch (err) {
      set((s) => ({ browserProfiles: { ...s.browserProfiles, status: 'error', error: errorMessage(err) } }));
    }
  },
  selectedProfileId: null,
  // Another profile: the last import's outcome belonged to the one before.
  selectProfile: (id) =>
    set((s) => ({ selectedProfileId: id, profileImport: id === s.selectedProfileId ? s.profileImport : null })),
  profileImport: null,
  async importFromProfile(profileId, sites) {
    const run: ProfileImportRun = { profileId, sites, status: 'running', result: null, error: null };
    set({ profileImport: run });
    let done: ProfileImportRun;
    try {
      done = { ...run, status: 'done', result: await invoke('browserProfiles:import', { profile: profileId, sites }) };
    } catch (err) {
      const code = err instanceof ApiError ? err.code : 'ERROR';
      done = { ...run, status: 'failed', error: { code, message: errorMessage(err) } };
    }
    // A newer import replaced this one: its late answer changes nothing.
    if (get().profileImport === run) set({ profileImport: done });
    // The imported sessions are in the cache now.
    if (done.status === 'done') void get().loadSessions();
    return done;
  },
  openSession(id) {
    get().selectSession(id);
    get().navigate('sessions');
  },
});
