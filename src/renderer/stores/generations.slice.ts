import type { StateCreator } from 'zustand';
import type { Generation } from '../../shared/ipc-contract.js';
import { api, errorMessage } from '../lib/api';
import type { AppState } from './app-store';
import { initialLoadable, type Loadable } from './loadable';

export interface GenerationsSlice {
  generations: Loadable<Generation[]>;
  loadGenerations(opts?: { quiet?: boolean }): Promise<void>;
  cancelGeneration(id: string): Promise<void>;
}

export const createGenerationsSlice: StateCreator<AppState, [], [], GenerationsSlice> = (set, get) => ({
  generations: initialLoadable([]),
  async loadGenerations({ quiet = false } = {}) {
    // Quiet refreshes (polling) keep the table as it is while loading.
    if (!quiet) set((s) => ({ generations: { ...s.generations, status: 'loading', error: null } }));
    try {
      const page = await api.generations.list({ limit: 100 });
      set({ generations: { status: 'ready', data: page.data, error: null } });
    } catch (err) {
      set((s) => ({ generations: { ...s.generations, status: 'error', error: errorMessage(err) } }));
    }
  },
  async cancelGeneration(id) {
    const updated = await api.generations.cancel({ id });
    set((s) => ({
      generations: { ...s.generations, data: s.generations.data.map((g) => (g.id === id ? updated : g)) },
    }));
    await get().loadBalance();
  },
});
