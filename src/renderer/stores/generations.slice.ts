import type { StateCreator } from 'zustand';
import type { Generation, IpcEventPayload } from '../../shared/ipc-contract.js';
import { errorMessage, invoke } from '../lib/api';
import type { AppState } from './app-store';
import { initialLoadable, type Loadable } from './loadable';

export interface GenerationsSlice {
  generations: Loadable<Generation[]>;
  loadGenerations(opts?: { quiet?: boolean }): Promise<void>;
  cancelGeneration(id: string): Promise<void>;
  /** Live progress pushed by the app: the row moves without waiting for the next poll. */
  applyGenerationProgress(p: IpcEventPayload<'generation:progress'>): void;
  /** A generation finished: reload the list (video and thumbnail URLs, refunds). */
  applyGenerationFinished(p: IpcEventPayload<'generation:finished'>): void;
}

export const createGenerationsSlice: StateCreator<AppState, [], [], GenerationsSlice> = (set, get) => ({
  generations: initialLoadable([]),
  async loadGenerations({ quiet = false } = {}) {
    // Quiet refreshes (polling) keep the table as it is while loading.
    if (!quiet) set((s) => ({ generations: { ...s.generations, status: 'loading', error: null } }));
    try {
      const page = await invoke('generations:list', { query: { limit: 100 } });
      set({ generations: { status: 'ready', data: page.data, error: null } });
    } catch (err) {
      set((s) => ({ generations: { ...s.generations, status: 'error', error: errorMessage(err) } }));
    }
  },
  async cancelGeneration(id) {
    const updated = await invoke('generations:cancel', { params: { id } });
    set((s) => ({
      generations: { ...s.generations, data: s.generations.data.map((g) => (g.id === id ? updated : g)) },
    }));
    await get().loadBalance();
  },
  applyGenerationProgress(p) {
    set((s) => ({
      generations: {
        ...s.generations,
        data: s.generations.data.map((g) =>
          g.id === p.id && g.status === 'generating'
            ? { ...g, progress: p.progress, queue_position: p.queuePosition ?? null }
            : g,
        ),
      },
    }));
  },
  applyGenerationFinished(p) {
    if (!get().generations.data.some((g) => g.id === p.id)) return;
    void get().loadGenerations({ quiet: true });
    if (p.status !== 'completed') void get().loadBalance();
  },
});
