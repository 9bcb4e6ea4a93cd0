import type { StateCreator } from 'zustand';

import { errorMessage, invoke } from '../lib/api';

import type { AppState, AppInfoSlice } from './store-types';

export const createAppInfoSlice: StateCreator<AppState, [], [], AppInfoSlice> = (set) => ({
  appInfo: null,
  appInfoError: null,
  async loadAppInfo() {
    try {
      set({ appInfo: await invoke('app:getInfo'), appInfoError: null });
    } catch (err) {
      set({ appInfoError: errorMessage(err) });
    }
  },
});
