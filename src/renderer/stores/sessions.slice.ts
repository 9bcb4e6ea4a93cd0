import type { StateCreator } from 'zustand';
import type { SessionSummary, SessionValidation } from '../../shared/ipc-contract.js';
import { errorMessage, invoke } from '../lib/api';
import type { AppState } from './app-store';
import { initialLoadable, type Loadable } from './loadable';

export interface SessionsSlice {
  sessions: Loadable<SessionSummary[]>;
  loadSessions(): Promise<void>;
  /** Throws on failure (the caller shows it next to the row). */
  deleteSession(id: string): Promise<void>;
  /** Session shown in the detail panel. */
  selectedSessionId: string | null;
  selectSession(id: string | null): void;
  /** The last re-test of each session in this window. */
  validations: Record<string, SessionValidation>;
  /** Re-tests a session on its site (a dead one may be dropped: the list is reloaded). Throws on failure. */
  validateSession(id: string): Promise<SessionValidation>;
}

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
