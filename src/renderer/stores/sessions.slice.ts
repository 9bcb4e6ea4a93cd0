import type { StateCreator } from 'zustand';

import { errorMessage, invoke } from '../lib/api';

import { initialLoadable } from './loadable';
import type { AppState, SessionsSlice } from './store-types';

export const createSessionsSlice: StateCreator<AppState, [], [], SessionsSlice> = (set, get) => ({
  sessions: initialLoadable([]),
  async loadSessions() {
    set((s) => ({ sessions: { ...s.sessions, status: 'loading', error: null } }));
    try {
      const page = await invoke('sessions:list');
      set({ sessions: { status: 'ready', data: page.data, error: null } });
    } catch (err) {
      set((s) => ({ sessions: { ...s.sessions, status: 'error', error: errorMessage(err) } }));
    }
  },
  async deleteSession(id) {
    await invoke('sessions:delete', { params: { id } });
    set({ sessions: { ...get().sessions, data: get().sessions.data.filter((x) => x.id !== id) } });
  },
  selectedSessionId: null,
  selectSession: (id) => set({ selectedSessionId: id }),
  validations: {},
  async validateSession(id) {
    const result = await invoke('sessions:validate', { params: { id } });
    set((s) => ({ validations: { ...s.validations, [id]: result } }));
    await get().loadSessions();
    return result;
  },
});
