import type { StateCreator } from 'zustand';
import type { AppState, DraftsSlice } from './store-types';

export const createDraftsSlice: StateCreator<AppState, [], [], DraftsSlice> = (set) => ({
  drafts: {},
  setDraft: (key, value) => set((s) => ({ drafts: { ...s.drafts, [key]: value } })),
  clearDraft: (key) =>
    set((s) => {
      const { [key]: _gone, ...rest } = s.drafts;
      return { drafts: rest };
    }),
});
