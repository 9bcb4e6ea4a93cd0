import type { StateCreator } from 'zustand';
import type { AppState } from './app-store';

/**
 * What people typed into forms, by form key, so a half-filled form is still there after visiting
 * another screen. Memory only: nothing here is written to disk.
 */
export interface DraftsSlice {
  drafts: Record<string, unknown>;
  setDraft(key: string, value: unknown): void;
  clearDraft(key: string): void;
}

export const createDraftsSlice: StateCreator<AppState, [], [], DraftsSlice> = (set) => ({
  drafts: {},
  setDraft: (key, value) => set((s) => ({ drafts: { ...s.drafts, [key]: value } })),
  clearDraft: (key) =>
    set((s) => {
      const { [key]: _gone, ...rest } = s.drafts;
      return { drafts: rest };
    }),
});
