import { create } from 'zustand';
import { createAdminSlice, type AdminSlice } from './admin.slice';
import { createAppInfoSlice, type AppInfoSlice } from './app-info.slice';
import { createCharactersSlice, type CharactersSlice } from './characters.slice';
import { createCreditsSlice, type CreditsSlice } from './credits.slice';
import { createDraftsSlice, type DraftsSlice } from './drafts.slice';
import { createGenerationsSlice, type GenerationsSlice } from './generations.slice';
import { createIntegrationsSlice, type IntegrationsSlice } from './integrations.slice';
import { createLoginRunsSlice, type LoginRunsSlice } from './login-runs.slice';
import { createNavSlice, type NavSlice } from './nav.slice';
import { createSessionsSlice, type SessionsSlice } from './sessions.slice';
import { createSettingsSlice, type SettingsSlice } from './settings.slice';
import { createTemplatesSlice, type TemplatesSlice } from './templates.slice';
import { createUploadsSlice, type UploadsSlice } from './uploads.slice';

export type AppState = NavSlice &
  AppInfoSlice &
  SessionsSlice &
  TemplatesSlice &
  CharactersSlice &
  UploadsSlice &
  GenerationsSlice &
  CreditsSlice &
  DraftsSlice &
  SettingsSlice &
  AdminSlice &
  IntegrationsSlice &
  LoginRunsSlice;

export const useAppStore = create<AppState>()((...a) => ({
  ...createNavSlice(...a),
  ...createAppInfoSlice(...a),
  ...createSessionsSlice(...a),
  ...createTemplatesSlice(...a),
  ...createCharactersSlice(...a),
  ...createUploadsSlice(...a),
  ...createGenerationsSlice(...a),
  ...createCreditsSlice(...a),
  ...createDraftsSlice(...a),
  ...createSettingsSlice(...a),
  ...createAdminSlice(...a),
  ...createIntegrationsSlice(...a),
  ...createLoginRunsSlice(...a),
}));
