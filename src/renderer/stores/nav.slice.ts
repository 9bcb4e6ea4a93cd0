import type { StateCreator } from 'zustand';
import type { AppState, NavSlice } from './store-types';

export { SCREENS, type Screen } from './store-types';

export const createNavSlice: StateCreator<AppState, [], [], NavSlice> = (set) => ({
  screen: 'sessions',
  selectedTemplateId: null,
  generateTemplateId: null,
  selectedGenerationId: null,
  navigate(screen, opts = {}) {
    set((s) => ({
      screen,
      generateTemplateId:
        screen === 'generate' && opts.templateId !== undefined ? opts.templateId : s.generateTemplateId,
      selectedGenerationId: opts.generationId !== undefined ? opts.generationId : s.selectedGenerationId,
    }));
  },
  selectTemplate: (id) => set({ selectedTemplateId: id }),
  selectGeneration: (id) => set({ selectedGenerationId: id }),
});
