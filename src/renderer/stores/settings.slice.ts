import type { StateCreator } from 'zustand';

import { errorMessage, invoke } from '../lib/api';

import { rememberTheme, rememberedTheme } from '../lib/theme';

import { initialLoadable } from './loadable';
import type { AppState, SettingsSlice } from './store-types';

export type { SettingsUpdate } from './store-types';

export const createSettingsSlice: StateCreator<AppState, [], [], SettingsSlice> = (set, get) => ({
  settings: initialLoadable(null),
  theme: rememberedTheme(),
  async loadSettings() {
    set((s) => ({ settings: { ...s.settings, status: 'loading', error: null } }));
    try {
      const value = await invoke('settings:get');
      rememberTheme(value.theme);
      set({ settings: { status: 'ready', data: value, error: null }, theme: value.theme });
    } catch (err) {
      set((s) => ({ settings: { ...s.settings, status: 'error', error: errorMessage(err) } }));
    }
  },
  async setTheme(theme) {
    const before = get().theme;
    set({ theme });
    rememberTheme(theme);
    try {
      await invoke('settings:setTheme', { theme });
    } catch (err) {
      set({ theme: before });
      rememberTheme(before);
      throw err;
    }
  },
  async saveCoreSettings(patch) {
    set({ apiStatus: { state: 'restarting', url: null, message: 'Applying new settings…', checked_at: Date.now() } });
    try {
      const result = await invoke('settings:update', patch);
      set((s) => ({
        settings: { status: 'ready', data: result.settings, error: null },
        appInfo: s.appInfo ? { ...s.appInfo, serverUrl: result.serverUrl, serverError: result.serverError } : s.appInfo,
      }));
      return result;
    } finally {
      void get().refreshApiStatus();
    }
  },
  apiStatus: null,
  async refreshApiStatus() {
    try {
      set({ apiStatus: await invoke('app:apiStatus') });
    } catch (err) {
      set({ apiStatus: { state: 'down', url: null, message: errorMessage(err), checked_at: Date.now() } });
    }
  },
});
