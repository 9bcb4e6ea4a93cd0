import type { StateCreator } from 'zustand';
import { invoke } from '../lib/api';
import type { AppState, CreditsSlice } from './store-types';

export const createCreditsSlice: StateCreator<AppState, [], [], CreditsSlice> = (set) => ({
  balance: null,
  async loadBalance() {
    try {
      set({ balance: (await invoke('credits:get')).balance });
    } catch {
      set({ balance: null });
    }
  },
});
