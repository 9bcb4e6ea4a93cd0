import type { StateCreator } from 'zustand';
import { invoke } from '../lib/api';
import type { AppState } from './app-store';

export interface CreditsSlice {
  /** The organization's credit balance (null until loaded or when it cannot be read). */
  balance: number | null;
  loadBalance(): Promise<void>;
}

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
