import type { StateCreator } from 'zustand';

import type { Generation } from '../../shared/ipc-contract.js';
import { errorMessage, invoke } from '../lib/api';

import { requestFromGeneration } from '../lib/regenerate';

import { initialLoadable } from './loadable';
import type { AppState, GenerationsSlice } from './store-types';

/** Events for generations the list does not hold (started by an agent) reload it, at most this often. */
const UNKNOWN_RELOAD_MS = 1000;

export const createGenerationsSlice: StateCreator<AppState, [], [], GenerationsSlice> = (set, get) => {
  let reloadTimer: ReturnType<typeof setTimeout> | null = null;
  const reloadSoon = () => {
    reloadTimer ??= setTimeout(() => {
      reloadTimer = null;
      void get().loadGenerations({ quiet: true });
    }, UNKNOWN_RELOAD_MS);
  };
  // The person's videos: drafts (the template editor's previews) are shown by the editor, never listed here.
  const upsert = (all: Generation[]) =>
    set((s) => {
      const list = all.filter((g) => !g.draft);
      const byId = new Map(list.map((g) => [g.id, g]));
      const kept = s.generations.data.map((g) => byId.get(g.id) ?? g);
      const added = list.filter((g) => !s.generations.data.some((x) => x.id === g.id));
      const data = [...added, ...kept].sort((a, b) => b.created_at - a.created_at);
      return { generations: { ...s.generations, data } };
    });
  return {
    generations: initialLoadable([]),
    async loadGenerations({ quiet = false } = {}) {
      // Quiet refreshes (polling) keep the table as it is while loading.
      if (!quiet) set((s) => ({ generations: { ...s.generations, status: 'loading', error: null } }));
      try {
        const page = await invoke('generations:list', { query: { limit: 100, draft: 'false' } });
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
    async deleteGeneration(id) {
      await invoke('generations:delete', { params: { id } });
      set((s) => ({
        generations: { ...s.generations, data: s.generations.data.filter((g) => g.id !== id) },
        ...(s.selectedGenerationId === id ? { selectedGenerationId: null } : {}),
      }));
    },
    applyGenerationProgress(p) {
      if (!get().generations.data.some((g) => g.id === p.id)) return reloadSoon();
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
      if (!get().generations.data.some((g) => g.id === p.id)) return reloadSoon();
      void get().loadGenerations({ quiet: true });
      if (p.status !== 'completed') void get().loadBalance();
    },
    async trackGenerations(ids) {
      const found = await Promise.all(ids.map((id) => invoke('generations:get', { params: { id } }).catch(() => null)));
      upsert(found.filter((g): g is Generation => g !== null));
    },
    async regenerate(g) {
      const res = await invoke('generate:fromTemplate', {
        params: { id: g.template_id },
        body: requestFromGeneration(g),
      });
      void get().loadBalance();
      await get().trackGenerations(res.generations.map((x) => x.generation_id));
      return res;
    },
  };
};
