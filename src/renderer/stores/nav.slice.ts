import type { StateCreator } from 'zustand';
import type { AppState } from './app-store';

export const SCREENS = [
  'sessions',
  'templates',
  'uploads',
  'characters',
  'generate',
  'generations',
  'settings',
] as const;
export type Screen = (typeof SCREENS)[number];

export interface NavSlice {
  screen: Screen;
  /** Template chosen in the Templates screen (detail) or handed to the Generate screen. */
  selectedTemplateId: string | null;
  generateTemplateId: string | null;
  /** Generation to show (player) in the Generations screen. */
  selectedGenerationId: string | null;
  navigate(screen: Screen, opts?: { templateId?: string | null; generationId?: string | null }): void;
  selectTemplate(id: string | null): void;
  selectGeneration(id: string | null): void;
}

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
