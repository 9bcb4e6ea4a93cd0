import type { StateCreator } from 'zustand';

import { errorMessage, invoke } from '../lib/api';

import { initialLoadable } from './loadable';
import type { AppState, CharactersSlice } from './store-types';

export const MIN_CHARACTER_QUERY = 2;

export const createCharactersSlice: StateCreator<AppState, [], [], CharactersSlice> = (set, get) => ({
  characters: initialLoadable([]),
  characterQuery: '',
  async searchCharacters(raw) {
    const q = raw.trim();
    // The API needs 2+ characters; a shorter query lists everything instead of failing.
    const effective = q.length >= MIN_CHARACTER_QUERY ? q : '';
    set((s) => ({ characterQuery: effective, characters: { ...s.characters, status: 'loading', error: null } }));
    try {
      const page = await invoke('characters:list', { query: { limit: 60, ...(effective ? { q: effective } : {}) } });
      if (get().characterQuery !== effective) return;
      set({ characters: { status: 'ready', data: page.data, error: null } });
    } catch (err) {
      set((s) => ({ characters: { ...s.characters, status: 'error', error: errorMessage(err) } }));
    }
  },
  async createCharacter(input) {
    const created = await invoke('characters:create', { body: input });
    await get().searchCharacters(get().characterQuery);
    return created;
  },
  async updateCharacter(id, patch) {
    const updated = await invoke('characters:update', { params: { id }, body: patch });
    set((s) => ({
      characters: { ...s.characters, data: s.characters.data.map((c) => (c.id === id ? updated : c)) },
    }));
    return updated;
  },
  async deleteCharacter(id) {
    await invoke('characters:delete', { params: { id } });
    set((s) => ({ characters: { ...s.characters, data: s.characters.data.filter((c) => c.id !== id) } }));
    // Its images may be deletable now.
    void get().loadStoredUploads({ quiet: true });
  },
});
