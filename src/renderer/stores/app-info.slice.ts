import type { StateCreator } from 'zustand';
import type { AppInfo } from '../../shared/ipc-contract.js';
import { errorMessage, invoke } from '../lib/api';
import type { AppState } from './app-store';

export interface AppInfoSlice {
  appInfo: AppInfo | null;
  appInfoError: string | null;
  loadAppInfo(): Promise<void>;
}

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
