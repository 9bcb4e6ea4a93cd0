import type { StateCreator } from 'zustand';

import { errorMessage, invoke } from '../lib/api';

import { initialLoadable } from './loadable';
import type { AppState, TemplatesSlice } from './store-types';

export const createTemplatesSlice: StateCreator<AppState, [], [], TemplatesSlice> = (set, get) => ({
  templates: initialLoadable([]),
  templateCategory: null,
  async setTemplateCategory(category) {
    set({ templateCategory: category });
    await get().loadTemplates();
  },
  async loadTemplates() {
    const category = get().templateCategory;
    set((s) => ({ templates: { ...s.templates, status: 'loading', error: null } }));
    try {
      const page = await invoke('templates:list', { query: { limit: 100, ...(category ? { category } : {}) } });
      // A slower answer for another filter must not overwrite the current one.
      if (get().templateCategory !== category) return;
      set({ templates: { status: 'ready', data: page.data, error: null } });
    } catch (err) {
      set((s) => ({ templates: { ...s.templates, status: 'error', error: errorMessage(err) } }));
    }
  },
  async saveTemplate(id, input) {
    const saved = id
      ? await invoke('templates:update', { params: { id }, body: input })
      : await invoke('templates:create', { body: input });
    const list = get().templates.data;
    const exists = list.some((t) => t.id === saved.id);
    set({
      templates: {
        ...get().templates,
        data: exists ? list.map((t) => (t.id === saved.id ? saved : t)) : [...list, saved],
      },
    });
    return saved;
  },
  async deleteTemplate(id) {
    await invoke('templates:delete', { params: { id } });
    set((s) => ({
      templates: { ...s.templates, data: s.templates.data.filter((t) => t.id !== id) },
      selectedTemplateId: s.selectedTemplateId === id ? null : s.selectedTemplateId,
    }));
  },
});
